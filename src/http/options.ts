// `deep-research serve --http` options: parsed and checked before anything listens, so a risky bind is
// refused with what to type instead.
import ipaddr from 'ipaddr.js';

export interface HttpOptions {
  host: string;
  port: number;
  /** Bearer token every request must carry; undefined when none was asked for. */
  token?: string;
  /** Origins a browser page may call from, besides the server's own loopback origins. */
  allowOrigins: string[];
}

export const DEFAULT_PORT = 8787;
const USAGE = 'deep-research serve --http [--port N] [--host H] [--token T] [--allow-origin URL]...';

export class HttpOptionsError extends Error {}

/** True for 127.0.0.0/8, ::1 and the name localhost: addresses no other machine can reach. */
export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  const bare = host.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return false;
  const addr = ipaddr.process(bare);
  return addr.range() === 'loopback';
}

export function parseHttpOptions(argv: readonly string[], env: NodeJS.ProcessEnv = {}): HttpOptions {
  const out: HttpOptions = { host: '127.0.0.1', port: DEFAULT_PORT, allowOrigins: [] };
  let sawHttp = false;
  let sawHost = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new HttpOptionsError(`${arg} needs a value (${USAGE})`);
      return v;
    };
    switch (arg) {
      case '--http':
        sawHttp = true;
        break;
      case '--port': {
        const raw = value();
        const n = Number(raw);
        if (!/^\d+$/.test(raw) || n < 0 || n > 65535) throw new HttpOptionsError(`--port takes a number from 0 to 65535 (0 picks a free port), not "${raw}"`);
        out.port = n;
        break;
      }
      case '--host':
        out.host = value();
        sawHost = true;
        break;
      case '--token':
        out.token = value();
        break;
      case '--allow-origin': {
        const raw = value();
        let origin: string;
        try {
          origin = new URL(raw).origin;
        } catch {
          throw new HttpOptionsError(`--allow-origin takes an origin such as https://example.org, not "${raw}"`);
        }
        if (origin === 'null') throw new HttpOptionsError(`--allow-origin takes an http(s) origin, not "${raw}"`);
        out.allowOrigins.push(origin);
        break;
      }
      default:
        throw new HttpOptionsError(`unknown option "${arg}" (${USAGE})`);
    }
  }
  if (!sawHttp) throw new HttpOptionsError(`serve speaks Streamable HTTP only; stdio is the default entry (node dist/server.js). Usage: ${USAGE}`);
  out.token ??= env.DEEP_RESEARCH_HTTP_TOKEN || undefined;
  if (!sawHost && env.DEEP_RESEARCH_HTTP_HOST) out.host = env.DEEP_RESEARCH_HTTP_HOST;
  if (out.token !== undefined && out.token.length < 16) throw new HttpOptionsError('the token must be at least 16 characters (e.g. openssl rand -hex 24)');
  if (!isLoopback(out.host)) {
    // Another machine can reach this address: only a deliberate --host, and never without a token.
    if (!sawHost) throw new HttpOptionsError(`refusing to listen on ${out.host} (from DEEP_RESEARCH_HTTP_HOST): a non-loopback address must be named on the command line with --host`);
    if (out.token === undefined)
      throw new HttpOptionsError(`refusing to listen on ${out.host} without a token: other machines could call every tool. Add --token T (or set DEEP_RESEARCH_HTTP_TOKEN), or bind 127.0.0.1`);
  }
  return out;
}
