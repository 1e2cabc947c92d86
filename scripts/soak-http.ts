// A soak of `serve --http`, run by hand (npx tsx scripts/soak-http.ts [calls-per-client]): the bundled CLI
// serves a temp project; two clients each make N concurrent fetch_source calls over 200 pages of a
// 127.0.0.1 web (every page fetched by both, so dedup and id allocation race); then fuzzed bodies,
// oversized bodies and refused requests. It prints what it saw; it asserts nothing a test does not.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import matter from 'gray-matter';

const N = Number(process.argv[2] ?? 2000);
const PAGES = 200;
const web = http.createServer((req, res) => {
  const n = /^\/p\/(\d+)$/.exec(req.url ?? '')?.[1];
  if (!n) return void res.writeHead(404).end();
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.end(`<html><head><title>Page ${n}</title></head><body><article><h1>Page ${n}</h1><p>${`Page ${n} says what its trial measured, and how. `.repeat(10)}</p></article></body></html>`);
});
await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
const webPort = (web.address() as AddressInfo).port;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dr-soak-http-'));
const server = spawn(process.execPath, [path.resolve('dist/cli.js'), 'serve', '--http', '--port', '0'], {
  cwd: dir,
  env: { PATH: process.env.PATH ?? '', DEEP_RESEARCH_LOG: 'off', DEEP_RESEARCH_ALLOW_HOSTS: `127.0.0.1:${webPort}` },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise<string>((resolve) => server.stdout.on('data', (d: Buffer) => { const m = /http:\/\/\S+\/mcp/.exec(d.toString()); if (m) resolve(m[0]); }));
const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
const client = async () => {
  const c = new Client({ name: 'soak', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  return c;
};
const [a, b] = [await client(), await client()];
const run = await a.callTool({ name: 'start_run', arguments: { question: 'What did the trials measure?', brief: { threads: [{ name: 'T', sub_questions: [{ id: 'SQ-1', question: 'What did they measure?' }], subjects: [] }] } } });
const runId = (run.structuredContent as { run_id: string }).run_id;
const t0 = performance.now();
const calls = [a, b].flatMap((c, k) =>
  Array.from({ length: N }, (_, i) => {
    const page = k === 0 ? i % PAGES : PAGES - 1 - (i % PAGES);
    return c
      .callTool({ name: 'fetch_source', arguments: { run_id: runId, url: `http://127.0.0.1:${webPort}/p/${page}` } }, { timeout: 900_000 })
      .then((r) => ({ page, id: (r.structuredContent as { source_id?: string } | undefined)?.source_id, error: r.isError ? JSON.stringify(r.content).slice(0, 120) : undefined }))
      .catch((e: Error) => ({ page, id: undefined, error: e.message }));
  }),
);
const results = await Promise.all(calls);
const secs = (performance.now() - t0) / 1000;
const idsByPage = new Map<number, Set<string>>();
for (const r of results) if (r.id) (idsByPage.get(r.page) ?? idsByPage.set(r.page, new Set()).get(r.page)!).add(r.id);
const files = fs.readdirSync(path.join(dir, 'artifacts', runId, 'sources')).filter((f) => /^S\d+\.md$/.test(f));
const urlsOnDisk = new Set(files.map((f) => String(matter(fs.readFileSync(path.join(dir, 'artifacts', runId, 'sources', f), 'utf8')).data.url)));
console.log(`concurrent: ${results.length} calls in ${secs.toFixed(1)} s; answered ${results.filter((r) => r.id).length}, failed ${results.filter((r) => r.error).length}${results.find((r) => r.error) ? ` (first: ${results.find((r) => r.error)!.error})` : ''}`);
console.log(`pages with one id each: ${[...idsByPage.values()].filter((s) => s.size === 1).length}/${PAGES}; distinct ids ${new Set([...idsByPage.values()].flatMap((s) => [...s])).size}; source files ${files.length}; distinct URLs on disk ${urlsOnDisk.size}`);

// Fuzz, oversize and refusals: every request gets an answer with a status and a JSON-RPC error body.
const raw = (body: string | Buffer, headers: Record<string, string> = {}, method = 'POST', p = '/mcp') =>
  fetch(url.replace(/\/mcp$/, p), { method, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: method === 'POST' ? body : undefined })
    .then(async (r) => ({ status: r.status, text: await r.text() }))
    .catch((e: Error & { cause?: { code?: string } }) => ({ status: 0, text: `${e.message} (${e.cause?.code ?? 'no code'})` }));
let seed = 7;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const junk = () => {
  const kinds = [
    () => Buffer.from(Array.from({ length: 1 + Math.floor(rnd() * 400) }, () => Math.floor(rnd() * 256))),
    () => JSON.stringify({ jsonrpc: '2.0', id: Math.floor(rnd() * 1e6), method: ['tools/call', 'tools/list', 'nope', 'initialize', 'server/discover'][Math.floor(rnd() * 5)], params: rnd() < 0.5 ? 'x' : { name: rnd() < 0.5 ? 7 : 'fetch_source', arguments: rnd() < 0.5 ? [] : { run_id: '../../etc', url: 'file:///etc/passwd' } } }),
    () => '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fetch_source","arguments":' + '['.repeat(Math.floor(rnd() * 5000)),
    () => JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, 7, null]),
  ];
  return kinds[Math.floor(rnd() * kinds.length)]!();
};
const fuzz = process.env.SOAK_SERIAL ? await (async () => { const out = []; for (let i = 0; i < 300; i++) { const body = junk(); const r = await raw(body); if (r.status === 0) console.log("reset on", String(body).slice(0, 120)); out.push(r); } return out; })() : await Promise.all(Array.from({ length: 2000 }, () => raw(junk())));
const unanswered = fuzz.filter((r) => r.status === 0 || r.status >= 500);
if (process.env.SOAK_DEBUG) console.log([...new Set(unanswered.map((r) => r.text.slice(0, 200)))]);
console.log(`fuzz: ${fuzz.length} bodies; statuses ${JSON.stringify(Object.fromEntries([...new Set(fuzz.map((r) => r.status))].sort().map((s) => [s, fuzz.filter((r) => r.status === s).length])))}; unanswered or 5xx ${unanswered.length}`);
const big = await Promise.all(Array.from({ length: 20 }, () => raw('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"' + 'x'.repeat(12 << 20) + '"}}')));
console.log(`oversized (12 MiB) bodies: ${big.length}; 413 ${big.filter((r) => r.status === 413).length}`);
const refused = await Promise.all([raw('', {}, 'GET'), raw('', {}, 'DELETE'), raw('{}', {}, 'POST', '/other'), raw('{}', { origin: 'https://evil.example' }), raw('{}', { host: 'evil.example' })]);
console.log(`refused requests: ${refused.map((r) => r.status).join(', ')}; every body a JSON-RPC error: ${refused.every((r) => { try { return 'error' in JSON.parse(r.text); } catch { return false; } })}`);
const alive = await b.listTools();
console.log(`still serving after all that: ${alive.tools.length} tools listed`);
await a.close();
await b.close();
server.kill('SIGTERM');
web.close();
fs.rmSync(dir, { recursive: true, force: true });
