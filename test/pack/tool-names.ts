// The server's tool names as a client sees them: the bundled server is started over stdio and asked with
// tools/list, so the prose tests check the commands against what actually ships, not a copy of the SPEC.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// DEEP_RESEARCH_SERVER_BUNDLE points the checks at another build (a scratch bundle while developing).
const BUNDLE = process.env.DEEP_RESEARCH_SERVER_BUNDLE ?? path.join(REPO, 'dist', 'server.js');

export interface ServerTool {
  name: string;
  inputSchema: unknown;
  outputSchema?: unknown;
}

let cached: Promise<ServerTool[]> | undefined;

/** Every tool of the bundled server, with its schemas. */
export function listServerTools(): Promise<ServerTool[]> {
  cached ??= (async () => {
    if (!existsSync(BUNDLE)) {
      throw new Error(`${BUNDLE} is missing: run \`npm run build\` so the pack can be checked against the real tools/list`);
    }
    const artifacts = mkdtempSync(path.join(os.tmpdir(), 'dr-pack-tools-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BUNDLE],
      env: { ...process.env, DEEP_RESEARCH_ARTIFACTS: artifacts, DEEP_RESEARCH_LOG: 'off' } as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'pack-tests', version: '1' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      return tools.map((t) => ({ name: t.name, inputSchema: t.inputSchema, outputSchema: t.outputSchema }));
    } finally {
      await client.close();
      rmSync(artifacts, { recursive: true, force: true });
    }
  })();
  return cached;
}

export async function listServerToolNames(): Promise<string[]> {
  return (await listServerTools()).map((t) => t.name).sort();
}

/** The fields of `next`, the directives for a thread's next round, as the tool contract names them. */
export const NEXT_FIELDS = ['round', 'phase', 'forced_subject', 'reformulate_from', 'query_hints', 'fetch_prompt'];

/** Every property name that appears anywhere in the tools' input and output schemas. */
export async function listSchemaFieldNames(): Promise<Set<string>> {
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
    } else if (node !== null && typeof node === 'object') {
      const props = (node as { properties?: unknown }).properties;
      if (props !== null && typeof props === 'object' && !Array.isArray(props)) {
        for (const k of Object.keys(props)) names.add(k);
      }
      Object.values(node).forEach(visit);
    }
  };
  for (const t of await listServerTools()) {
    visit(t.inputSchema);
    visit(t.outputSchema);
  }
  // The contract fixes the fields of the round directives `next` (SPEC 5.1); the server's outputSchema may
  // leave `next` an open object, so its fields are added here by name.
  for (const f of NEXT_FIELDS) names.add(f);
  return names;
}

/** The two names Claude Code gives a server tool: from the plugin, and when registered directly. */
export function qualifiedNames(tool: string): [string, string] {
  return [`mcp__plugin_deep-research_deep-research__${tool}`, `mcp__deep-research__${tool}`];
}
