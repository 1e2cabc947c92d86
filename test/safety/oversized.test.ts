// SPEC 7: "A request too large for the transport (the SDK's stdio reader stops at 10 MiB) gets a
// JSON-RPC error, and the server keeps serving the session." Against the bundle a user's CLI spawns:
// a 12 MiB tools/call, then a normal call on the same session. Then the transport alone, over streams:
// the id of the oversized request is found wherever the client put it, lines split across chunks and
// CRLF endings still parse, and a line that is not JSON gets a parse error instead of silence.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { tempDir } from '../helpers/mcp.js';
import { LineStdioTransport, MAX_MESSAGE_BYTES } from '../../src/stdio-transport.js';

const BUNDLE = path.resolve('dist/server.js');
const MiB = 1024 * 1024;

describe('dist/server.js over stdio: an oversized request', () => {
  it('a 12 MiB request gets a JSON-RPC error, and the next call on the same session succeeds', async () => {
    expect(fs.existsSync(BUNDLE), 'run npm run build first').toBe(true);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BUNDLE],
      env: { ...process.env, DEEP_RESEARCH_ARTIFACTS: tempDir(), DEEP_RESEARCH_LOG: 'off' } as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'oversized', version: '1' });
    await client.connect(transport);
    try {
      const huge = 'x'.repeat(12 * MiB);
      const err = await client
        .callTool({ name: 'start_run', arguments: { question: huge, brief: { threads: [] } } }, undefined, { timeout: 30_000 })
        .then(
          () => undefined,
          (e: { code?: number; message?: string }) => e,
        );
      expect(err, 'the oversized call must be answered with an error').toBeDefined();
      expect(err?.message).toMatch(/too large.*10 MiB/);
      expect(err?.code).toBe(-32600);

      const r = (await client.callTool(
        { name: 'start_run', arguments: { question: 'Still serving?', depth: 'quick', brief: { threads: [{ name: 'Only', sub_questions: [{ id: 'SQ-1', question: 'Is it?' }], subjects: [] }] } } },
        undefined,
        { timeout: 15_000 },
      )) as CallToolResult;
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  }, 60_000);
});

/** A transport over in-memory streams; collects what it sends. */
function harness(limit?: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  const sent: Record<string, any>[] = [];
  const received: JSONRPCMessage[] = [];
  let out = '';
  output.on('data', (d) => {
    out += String(d);
    let i: number;
    while ((i = out.indexOf('\n')) >= 0) {
      sent.push(JSON.parse(out.slice(0, i)));
      out = out.slice(i + 1);
    }
  });
  const t = new LineStdioTransport(input, output, limit);
  t.onmessage = (m) => received.push(m);
  return { t, input, sent, received, flush: () => new Promise((r) => setImmediate(r)) };
}

describe('LineStdioTransport', () => {
  it('reads messages split across chunks, several per chunk, and with CRLF endings', async () => {
    const { t, input, received, flush } = harness();
    await t.start();
    const a = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const b = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    input.write(a.slice(0, 10));
    input.write(`${a.slice(10)}\n${b}\r\n\n`);
    input.write(`${a.replace('1', '2')}\n`);
    await flush();
    expect(received).toEqual([JSON.parse(a), JSON.parse(b), JSON.parse(a.replace('1', '2'))]);
  });

  it('answers an oversized line with its id, wherever the client put the id, and keeps reading', async () => {
    const limit = 4096;
    const { t, input, sent, received, flush } = harness(limit);
    await t.start();
    const pad = 'y'.repeat(limit * 3);
    // The SDK's client writes the id last; other clients write it first, after "jsonrpc", or as a string.
    const lines = [
      `{"method":"tools/call","params":{"name":"x","arguments":{"q":"${pad}","id":99}},"jsonrpc":"2.0","id":7}`,
      `{"jsonrpc":"2.0","id":"req-8","method":"tools/call","params":{"arguments":{"q":"${pad}"}}}`,
      `{"id":9,"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{"q":"${pad}"}}}`,
      `{"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{"q":"${pad}","id":5}}}`,
    ];
    for (const line of lines) {
      // In small chunks, as a pipe delivers them.
      for (let i = 0; i < line.length; i += 1000) input.write(line.slice(i, i + 1000));
      input.write('\n');
    }
    input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'ping' })}\n`);
    await flush();
    expect(sent.map((m) => m.id)).toEqual([7, 'req-8', 9, undefined]);
    for (const m of sent) {
      expect(m.error.code).toBe(-32600);
      expect(m.error.message).toMatch(/too large/);
    }
    expect(received).toEqual([{ jsonrpc: '2.0', id: 10, method: 'ping' }]);
  });

  it('answers a line that is not JSON, or not JSON-RPC, with an error instead of silence', async () => {
    const { t, input, sent, received, flush } = harness();
    await t.start();
    input.write('this is not json\n');
    input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 42 })}\n`);
    input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'ping' })}\n`);
    await flush();
    expect(sent.map((m) => [m.id, m.error?.code])).toEqual([
      [undefined, -32700],
      [3, -32600],
    ]);
    expect(received).toHaveLength(1);
  });

  it('keeps the SDK limit of 10 MiB', () => {
    expect(MAX_MESSAGE_BYTES).toBe(10 * MiB);
  });
});
