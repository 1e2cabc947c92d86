// The Streamable HTTP transport through a real SDK client on 127.0.0.1: the same tools and replies as
// stdio, the security checks (token, Origin, Host, bind), refusals with what to fix, and two clients
// at once storing sources without an id given twice.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import matter from 'gray-matter';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serveHttp, type HttpServerHandle } from '../../src/http/serve.js';
import { parseHttpOptions, HttpOptionsError } from '../../src/http/options.js';
import { connect, tempDir } from '../helpers/mcp.js';
import { brief, QUESTION } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../fetch/helpers.js';

let web: TestServer;
let srv: HttpServerHandle | undefined;
const clients: Client[] = [];

beforeAll(async () => {
  web = await startServer((req, res) => {
    const n = /^\/page\/(\d+)$/.exec(req.url ?? '')?.[1];
    if (!n) {
      res.statusCode = 404;
      res.end('not found');
      return;
    }
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(`<html><head><title>Page ${n}</title></head><body><article><h1>Page ${n}</h1><p>${`Page ${n} reports what the four-day week trial measured in its workplaces. `.repeat(8)}</p></article></body></html>`);
  });
});
afterAll(async () => web?.close());
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => {});
  await srv?.close();
  srv = undefined;
});

async function start(extra: Partial<Parameters<typeof serveHttp>[0]> = {}, root = tempDir()) {
  srv = await serveHttp(
    { host: '127.0.0.1', port: 0, allowOrigins: [], ...extra },
    { artifactsRoot: root, cwd: root, env: { DEEP_RESEARCH_LOG: 'off', DEEP_RESEARCH_ALLOW_HOSTS: web.hostPort }, fetch: { baseDelayMs: 5 } },
  );
  return { srv, root };
}

async function client(url: string, headers: Record<string, string> = {}) {
  const c = new Client({ name: 'http-test', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  clients.push(c);
  return c;
}

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });
const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });

describe('serve --http', () => {
  it('lists the same tools as stdio and answers a call with the same reply shape', async () => {
    const { srv } = await start();
    const c = await client(srv.url);
    const overHttp = (await c.listTools()).tools;
    const mem = await connect();
    const inMemory = (await mem.client.listTools()).tools;
    await mem.close();
    expect(overHttp).toEqual(inMemory);
    const r = (await c.callTool({ name: 'start_run', arguments: { question: QUESTION, brief: brief(), dry_run: true } })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ budgets: { max_threads: expect.any(Number) } });
  });

  it('refuses a request without the token, or with a wrong one, and serves the right one', async () => {
    const token = 'a-long-enough-test-token-0123';
    const { srv } = await start({ token });
    const none = await post(srv.url, INIT);
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: { message: string; code: number } }).error.message).toMatch(/Authorization: Bearer <token>/);
    const wrong = await post(srv.url, INIT, { authorization: 'Bearer not-the-token-at-all-xx' });
    expect(wrong.status).toBe(401);
    const c = await client(srv.url, { authorization: `Bearer ${token}` });
    expect((await c.listTools()).tools.length).toBeGreaterThan(5);
  });

  it('refuses a foreign Origin and a rebinding Host, and takes its own origin and an allowed one', async () => {
    const { srv } = await start({ allowOrigins: ['https://team.example.org'] });
    const foreign = await post(srv.url, INIT, { origin: 'https://evil.example.com' });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { error: { message: string; code: number } }).error.message).toMatch(/another origin.*--allow-origin/);
    expect((await post(srv.url, INIT, { origin: `http://localhost:${srv.port}` })).status).toBe(200);
    expect((await post(srv.url, INIT, { origin: 'https://team.example.org' })).status).toBe(200);
    // A name that resolves here by DNS rebinding still says its own name in Host.
    const rebound = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      import('node:http').then(({ request }) => {
        const req = request({ host: '127.0.0.1', port: srv.port, path: '/mcp', method: 'POST', headers: { host: `attacker.example:${srv.port}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end(INIT);
      }, reject);
    });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).error.message).toMatch(/Host header must name this server/);
  });

  it('answers every other request with a clear refusal: path, method, size, JSON', async () => {
    const { srv } = await start();
    const base = srv.url.replace(/\/mcp$/, '');
    const other = await fetch(`${base}/`);
    expect(other.status).toBe(404);
    expect(((await other.json()) as { error: { message: string; code: number } }).error.message).toMatch(/answers MCP at \/mcp only/);
    const get = await fetch(srv.url, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const bad = await post(srv.url, '{"jsonrpc":');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string; code: number } }).error).toMatchObject({ code: -32700 });
    const big = await post(srv.url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { pad: 'x'.repeat(11 * 1024 * 1024) } }));
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { message: string; code: number } }).error.message).toMatch(/at most \d+ bytes/);
    // The server is still there.
    const c = await client(srv.url);
    expect((await c.listTools()).tools.length).toBeGreaterThan(5);
  });

  it('two clients at once on one run: every page stored once, no source id twice', async () => {
    const { srv, root } = await start();
    const a = await client(srv.url);
    const b = await client(srv.url);
    const run = (await a.callTool({ name: 'start_run', arguments: { question: QUESTION, brief: brief() } })) as CallToolResult;
    const runId = (run.structuredContent as { run_id: string }).run_id;
    const urls = Array.from({ length: 12 }, (_, i) => `${web.origin}/page/${i + 1}`);
    // Each client fetches every page, in opposite orders, all at once.
    const calls = [...urls.map((url) => ({ c: a, url })), ...[...urls].reverse().map((url) => ({ c: b, url }))].map(({ c, url }) =>
      c.callTool({ name: 'fetch_source', arguments: { run_id: runId, url } }) as Promise<CallToolResult>,
    );
    const results = await Promise.all(calls);
    expect(results.filter((r) => r.isError)).toEqual([]);
    const idByUrl = new Map<string, Set<string>>();
    for (const [i, r] of results.entries()) {
      const url = i < urls.length ? urls[i] : urls[urls.length - 1 - (i - urls.length)];
      const id = (r.structuredContent as { source_id: string }).source_id;
      (idByUrl.get(url as string) ?? idByUrl.set(url as string, new Set()).get(url as string))!.add(id);
    }
    expect([...idByUrl.values()].every((s) => s.size === 1)).toBe(true);
    const ids = [...idByUrl.values()].map((s) => [...s][0]);
    expect(new Set(ids).size).toBe(urls.length);
    const files = fs.readdirSync(path.join(root, runId, 'sources')).filter((f) => /^S\d+\.md$/.test(f));
    expect(files.length).toBe(urls.length);
    for (const f of files) expect(String(matter(fs.readFileSync(path.join(root, runId, 'sources', f), 'utf8')).data.url)).toMatch(/\/page\/\d+$/);
  });
});

describe('serve --http options', () => {
  const refuse = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
    try {
      parseHttpOptions(argv, env);
    } catch (e) {
      expect(e).toBeInstanceOf(HttpOptionsError);
      return (e as Error).message;
    }
    throw new Error('expected a refusal');
  };
  it('binds 127.0.0.1 by default', () => {
    expect(parseHttpOptions(['--http'])).toMatchObject({ host: '127.0.0.1', port: 8787 });
  });
  it('refuses a non-loopback bind that was not named with --host', () => {
    expect(refuse(['--http'], { DEEP_RESEARCH_HTTP_HOST: '0.0.0.0', DEEP_RESEARCH_HTTP_TOKEN: 'x'.repeat(20) })).toMatch(/must be named on the command line with --host/);
  });
  it('refuses a non-loopback --host without a token, and takes it with one', () => {
    expect(refuse(['--http', '--host', '0.0.0.0'])).toMatch(/without a token.*--token/);
    expect(parseHttpOptions(['--http', '--host', '0.0.0.0', '--token', 'x'.repeat(20)])).toMatchObject({ host: '0.0.0.0' });
    expect(parseHttpOptions(['--http', '--host', '::1'])).toMatchObject({ host: '::1' });
  });
  it('says what to fix for a bad port, a short token, a bad origin and an unknown option', () => {
    expect(refuse(['--http', '--port', 'eighty'])).toMatch(/--port takes a number/);
    expect(refuse(['--http', '--token', 'short'])).toMatch(/at least 16 characters/);
    expect(refuse(['--http', '--allow-origin', 'not a url'])).toMatch(/--allow-origin takes an origin/);
    expect(refuse(['--http', '--verbose'])).toMatch(/unknown option "--verbose"/);
    expect(refuse([])).toMatch(/Streamable HTTP only/);
  });
});
