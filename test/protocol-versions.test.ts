// Both protocol versions, one set of tools: a 2025-11-25 client (SDK 1, the initialize handshake) and a
// 2026-07-28 client (SDK 2, stateless, the version in every request's _meta) over stdio against the bundle
// and over Streamable HTTP, each listing the same tools and getting the same reply to the same call.
import * as path from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHttp, type HttpServerHandle } from '../src/http/serve.js';
import { brief, QUESTION } from './helpers/fixtures.js';
import { tempDir } from './helpers/mcp.js';

const BUNDLE = path.resolve('dist/server.js');
const root = tempDir('dr-proto-');
const env = { PATH: process.env.PATH ?? '', DEEP_RESEARCH_LOG: 'off' };
const CALL = { name: 'start_run', arguments: { question: QUESTION, brief: brief(), dry_run: true } };

interface Session {
  version: string | undefined;
  tools: unknown[];
  reply: { structuredContent?: unknown; content?: unknown; isError?: boolean };
  close: () => Promise<void>;
}

async function v1(transport: StdioV1 | HttpV1): Promise<Session> {
  const c = new ClientV1({ name: 'v1', version: '1' });
  await c.connect(transport);
  return {
    version: transport.constructor === HttpV1 ? (transport as HttpV1).protocolVersion : '2025-11-25',
    tools: (await c.listTools()).tools,
    reply: (await c.callTool(CALL)) as Session['reply'],
    close: () => c.close(),
  };
}

async function v2(transport: StdioV2 | HttpV2, mode: 'pin' | 'auto'): Promise<Session> {
  const c = new ClientV2({ name: 'v2', version: '1' }, { versionNegotiation: { mode: mode === 'pin' ? { pin: '2026-07-28' } : 'auto' } });
  await c.connect(transport);
  return { version: c.getNegotiatedProtocolVersion(), tools: (await c.listTools()).tools, reply: (await c.callTool(CALL)) as Session['reply'], close: () => c.close() };
}

let http: HttpServerHandle;
beforeAll(async () => {
  http = await serveHttp({ host: '127.0.0.1', port: 0, allowOrigins: [] }, { artifactsRoot: path.join(root, 'artifacts'), cwd: root, env });
});
afterAll(async () => http?.close());

const stdio1 = () => new StdioV1({ command: process.execPath, args: [BUNDLE], cwd: root, env, stderr: 'ignore' });
const stdio2 = () => new StdioV2({ command: process.execPath, args: [BUNDLE], cwd: root, env, stderr: 'ignore' });

describe('protocol 2025-11-25 and 2026-07-28, over stdio and HTTP', () => {
  it('serve the same tools and the same reply, each at the version its client asked for', async () => {
    const sessions: [string, Session][] = [
      ['stdio 2025-11-25', await v1(stdio1())],
      ['stdio 2026-07-28', await v2(stdio2(), 'pin')],
      ['stdio, discovered', await v2(stdio2(), 'auto')],
      ['http 2025-11-25', await v1(new HttpV1(new URL(http.url)))],
      ['http 2026-07-28', await v2(new HttpV2(new URL(http.url)), 'pin')],
      ['http, discovered', await v2(new HttpV2(new URL(http.url)), 'auto')],
    ];
    try {
      const [, first] = sessions[0]!;
      expect(first.tools.length).toBeGreaterThanOrEqual(11);
      expect(first.reply.isError).toBeFalsy();
      for (const [name, s] of sessions) {
        expect(s.tools, name).toEqual(first.tools);
        expect(s.reply.structuredContent, name).toEqual(first.reply.structuredContent);
        expect(s.reply.content, name).toEqual(first.reply.content);
      }
      expect(Object.fromEntries(sessions.map(([n, s]) => [n, s.version]))).toEqual({
        'stdio 2025-11-25': '2025-11-25',
        'stdio 2026-07-28': '2026-07-28',
        'stdio, discovered': '2026-07-28',
        'http 2025-11-25': '2025-11-25',
        'http 2026-07-28': '2026-07-28',
        'http, discovered': '2026-07-28',
      });
    } finally {
      for (const [, s] of sessions) await s.close();
    }
  });
});
