/**
 * DEEP_RESEARCH_RESOLVE: test-only host resolution, like curl's `--resolve host:port:address`. Tests of
 * URL identity need real host names (arxiv.org, doi.org, a publisher) to reach a server on loopback. An
 * entry takes effect only when its `host:port` is also in DEEP_RESEARCH_ALLOW_HOSTS: the allow-list stays
 * the one switch that lets fetch_source reach a non-public address. Any other entry refuses every fetch,
 * with a message naming it, rather than being silently ignored.
 */
import dns from 'node:dns';
import type { LookupFunction } from './http-fetch.js';

export const RESOLVE_ENV = 'DEEP_RESEARCH_RESOLVE';

export type Resolve = { ok: true; lookup?: LookupFunction } | { ok: false; reason: string };

/** Entries are `host:port:address`, comma or whitespace separated; IPv6 addresses in brackets. */
export function parseResolve(env: string | undefined, allowHosts: ReadonlySet<string>): Resolve {
  if (!env || env.trim() === '') return { ok: true };
  const map = new Map<string, { address: string; family: number }>();
  for (const raw of env.split(/[\s,]+/).filter((e) => e !== '')) {
    const m = /^([a-z0-9.-]+):(\d{1,5}):(\[[0-9a-f:.]+\]|[0-9.]+)$/i.exec(raw.trim());
    if (!m) {
      return { ok: false, reason: `${RESOLVE_ENV} entry "${raw.slice(0, 100)}" is not host:port:address (e.g. arxiv.org:8443:127.0.0.1): fix or remove it.` };
    }
    const host = m[1]!.toLowerCase();
    if (!allowHosts.has(`${host}:${Number(m[2])}`)) {
      return {
        ok: false,
        reason: `${RESOLVE_ENV} maps ${host}:${Number(m[2])}, which is not in DEEP_RESEARCH_ALLOW_HOSTS; the mapping is refused. It is for tests: add ${host}:${Number(m[2])} to DEEP_RESEARCH_ALLOW_HOSTS or remove the entry.`,
      };
    }
    const address = m[3]!.replace(/^\[|\]$/g, '');
    map.set(host, { address, family: address.includes(':') ? 6 : 4 });
  }
  const lookup: LookupFunction = (hostname, options, callback) => {
    const hit = map.get(hostname.toLowerCase());
    if (!hit) return (dns.lookup as unknown as LookupFunction)(hostname, options, callback);
    // A mapped name on another port is not listed, so http-fetch still checks this address and refuses it.
    if (options.all) return callback(null, [hit]);
    return callback(null, hit.address, hit.family);
  };
  return { ok: true, lookup };
}
