// What an HTTP request must show before it reaches the MCP layer: the right path and method, a Host and
// Origin this server answers to (DNS-rebinding protection), the token when one is set, and a body within
// the stdio limit. Pure: the caller answers the refusal it returns.
import { timingSafeEqual, createHash } from 'node:crypto';
import { isLoopback, type HttpOptions } from './options.js';

export const MCP_PATH = '/mcp';

export interface RequestFacts {
  method: string;
  path: string;
  host?: string;
  origin?: string;
  authorization?: string;
  contentLength?: number;
}

export interface Refusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** Host header values that name this server: the bound address, and the loopback names when bound there. */
function hostsFor(o: HttpOptions, port: number): Set<string> {
  const names = isLoopback(o.host) ? ['127.0.0.1', 'localhost', '[::1]', o.host] : [o.host.includes(':') && !o.host.startsWith('[') ? `[${o.host}]` : o.host];
  return new Set(names.flatMap((n) => [`${n}:${port}`.toLowerCase(), ...(port === 80 ? [n.toLowerCase()] : [])]));
}

export function checkRequest(req: RequestFacts, o: HttpOptions, port: number, maxBytes: number): Refusal | undefined {
  if (req.path !== MCP_PATH) return { status: 404, message: `Not found: this server answers MCP at ${MCP_PATH} only.` };
  if (req.method !== 'POST')
    return { status: 405, message: `Method ${req.method} is not served: this server is stateless and takes each MCP message as a POST to ${MCP_PATH}.`, headers: { allow: 'POST' } };
  const wildcard = o.host === '0.0.0.0' || o.host === '::' || o.host === '[::]';
  if (!wildcard && (req.host === undefined || !hostsFor(o, port).has(req.host.toLowerCase())))
    return { status: 403, message: `Forbidden: the Host header must name this server (${[...hostsFor(o, port)][0]}); another name is refused as DNS rebinding.` };
  if (req.origin !== undefined) {
    const own = [...hostsFor(o, port)].map((h) => `http://${h}`);
    if (!own.includes(req.origin.toLowerCase()) && !o.allowOrigins.includes(req.origin))
      return { status: 403, message: `Forbidden: requests from a web page at another origin are refused; start the server with --allow-origin <origin> to allow one.` };
  }
  if (o.token !== undefined) {
    const given = /^Bearer\s+(.+)$/i.exec(req.authorization ?? '')?.[1]?.trim();
    if (given === undefined || !timingSafeEqual(digest(given), digest(o.token)))
      return { status: 401, message: 'Unauthorized: send the server\'s token as "Authorization: Bearer <token>".', headers: { 'www-authenticate': 'Bearer' } };
  }
  if (req.contentLength !== undefined && req.contentLength > maxBytes)
    return { status: 413, message: `Payload too large: a message is at most ${maxBytes} bytes.` };
  return undefined;
}
