// Streamable HTTP entry (`deep-research serve --http`). Stateless: every POST to /mcp is one message,
// served by the SDK's handler for both protocol eras (2026-07-28, and 2025-11-25 as its stateless fallback)
// with a fresh protocol server over the one tool context, so concurrent clients share what stdio servers
// share (the run store and its locks) and nothing else. The guard in front does what the SDK's handler
// leaves to its host: Host, Origin, token, size.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { createServerFor } from '../create-server.js';
import { setLogging, log } from '../log.js';
import { MAX_MESSAGE_BYTES } from '../stdio-transport.js';
import { createContext, type ContextOptions } from '../tools/context.js';
import { checkRequest, type Refusal } from './guard.js';
import type { HttpOptions } from './options.js';

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

function refuse(res: http.ServerResponse, r: Refusal, code = INVALID_REQUEST): void {
  if (res.headersSent) return;
  res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message: r.message }, id: null }));
}

/** The body, or a refusal once it passes the limit (counted as it streams; never held past it). */
function readBody(req: http.IncomingMessage, maxBytes: number): Promise<Buffer | Refusal> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) over = true;
      else parts.push(chunk);
    });
    req.on('end', () => resolve(over ? { status: 413, message: `Payload too large: a message is at most ${maxBytes} bytes.` } : Buffer.concat(parts)));
    req.on('error', () => resolve({ status: 400, message: 'Bad request: the request body could not be read.' }));
  });
}

export interface HttpServerHandle {
  url: string;
  port: number;
  close: () => Promise<void>;
}

export async function serveHttp(o: HttpOptions, context: ContextOptions = {}, maxBytes = MAX_MESSAGE_BYTES): Promise<HttpServerHandle> {
  const ctx = createContext(context);
  setLogging(ctx.env.DEEP_RESEARCH_LOG !== 'off');
  const mcp = createMcpHandler(() => createServerFor(ctx), {
    legacy: 'stateless',
    maxRequestBodySize: maxBytes,
    onerror: (err) => log({ event: 'error', transport: 'http', message: err.message }),
  });
  let port = o.port;
  const server = http.createServer((req, res) => {
    void handle(req, res).catch(() => refuse(res, { status: 500, message: 'The server could not answer this request; it is still running. Try the call again.' }, -32603));
  });
  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    const declared = req.headers['content-length'];
    const refusal = checkRequest(
      {
        method: req.method ?? 'GET',
        path: url.pathname,
        host: req.headers.host,
        origin: typeof req.headers.origin === 'string' ? req.headers.origin : undefined,
        authorization: req.headers.authorization,
        contentLength: declared !== undefined && /^\d+$/.test(declared) ? Number(declared) : undefined,
      },
      o,
      port,
      maxBytes,
    );
    if (refusal) {
      req.resume();
      refuse(res, refusal);
      return;
    }
    const body = await readBody(req, maxBytes);
    if (!Buffer.isBuffer(body)) return refuse(res, body);
    try {
      JSON.parse(body.toString('utf8'));
    } catch {
      return refuse(res, { status: 400, message: 'Parse error: the body must be one JSON-RPC message (or a batch) as JSON.' }, PARSE_ERROR);
    }
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const answer = await mcp.fetch(new Request(`http://${req.headers.host ?? 'localhost'}${url.pathname}`, { method: 'POST', headers, body, signal: abort.signal }));
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    if (!answer.body) return void res.end();
    // SSE answers stream: progress notifications reach the client before the result.
    Readable.fromWeb(answer.body as import('node:stream/web').ReadableStream).pipe(res);
  }
  // Calls queue behind one another as they do over stdio, so a burst can wait minutes for its headers to be
  // read; Node's 60 s header and 300 s request timeouts would reset them. Each tool call bounds its own work.
  server.headersTimeout = 15 * 60_000;
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // A burst of clients (a team's agents starting at once) queues instead of being reset.
    server.listen({ port: o.port, host: o.host.replace(/^\[|\]$/g, ''), backlog: 4096 }, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const shown = o.host.includes(':') && !o.host.startsWith('[') ? `[${o.host}]` : o.host;
  const url = `http://${shown}:${port}/mcp`;
  log({ event: 'ready', transport: 'http', url });
  return {
    url,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        void mcp.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
