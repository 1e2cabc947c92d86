// A real SDK Client linked in memory to a fresh server over a temp artifacts root.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createServer } from '../../src/create-server.js';

export interface Harness {
  client: Client;
  root: string;
  call: (name: string, args: Record<string, unknown>) => Promise<CallToolResult>;
  /** Calls and expects success; returns structuredContent. */
  ok: <T = Record<string, any>>(name: string, args: Record<string, unknown>) => Promise<T>;
  /** Calls and expects a refusal; returns its text. */
  refused: (name: string, args: Record<string, unknown>) => Promise<string>;
  close: () => Promise<void>;
}

export function tempDir(prefix = 'dr-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function connect(o: { root?: string; cwd?: string; env?: NodeJS.ProcessEnv; clock?: () => string; fetch?: { timeoutMs?: number; totalTimeoutMs?: number; baseDelayMs?: number; pdfTimeoutMs?: number } } = {}): Promise<Harness> {
  const root = o.root ?? tempDir();
  let tick = 0;
  const now = o.clock ?? (() => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++)).toISOString());
  const server = createServer({ artifactsRoot: root, cwd: o.cwd ?? root, env: { DEEP_RESEARCH_LOG: 'off', ...o.env }, now, fetch: o.fetch ?? { baseDelayMs: 5 } });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '1' });
  await Promise.all([server.connect(a), client.connect(b)]);
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  return {
    client,
    root,
    call,
    ok: async (name, args) => {
      const r = await call(name, args);
      if (r.isError) throw new Error(`${name} refused: ${JSON.stringify(r.content)}`);
      return r.structuredContent as never;
    },
    refused: async (name, args) => {
      const r = await call(name, args);
      if (!r.isError) throw new Error(`${name} was expected to refuse but answered ${JSON.stringify(r.structuredContent)}`);
      const first = r.content[0];
      return first && first.type === 'text' ? first.text : '';
    },
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** Every file under dir, relative, sorted, with contents: to assert "nothing was written". */
export function snapshotTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    if (!fs.existsSync(d)) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name !== '.lock') out[path.relative(dir, p)] = fs.readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}
