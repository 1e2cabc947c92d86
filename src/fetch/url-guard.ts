/**
 * Outbound address policy for fetch_source (SPEC §7). Pure and light: no network, no heavy imports, so the
 * tool layer can pre-check a URL without loading the fetch stack.
 *
 * Policy:
 * - http and https only; user info (`user@host`) is refused outright, because `http://example.com@10.0.0.1/`
 *   is a classic way to make a private host look public.
 * - An IP literal (in any spelling the WHATWG URL parser accepts: decimal, hex, octal, short forms,
 *   IPv4-mapped IPv6) must classify as ipaddr.js 'unicast'; everything else (loopback, private, link-local,
 *   CGNAT, unique-local, multicast, reserved, NAT64, 6to4, Teredo…) is refused, plus a few public-looking
 *   cloud metadata addresses.
 * - Host names are checked again at connect time, on every address DNS returns (see http-fetch.ts).
 * - The only way through is `DEEP_RESEARCH_ALLOW_HOSTS`: entries are `host:port`, and an entry matches only
 *   when the URL spells the host exactly as listed (already canonical, e.g. `127.0.0.1`) and the port matches.
 *   `http://127.1:PORT/` or `http://0x7f.1:PORT/` name the same socket but are still refused, so an allow-list
 *   for a test server never turns into "any spelling of loopback".
 *   A listed host name is trusted with whatever its DNS returns; an address reached through an unlisted
 *   name is checked as if nothing were listed.
 */
import ipaddr from 'ipaddr.js';

export const ALLOW_HOSTS_ENV = 'DEEP_RESEARCH_ALLOW_HOSTS';

const EMPTY: ReadonlySet<string> = new Set();

/** Public-looking addresses that serve instance metadata or platform secrets. */
const METADATA_ADDRESSES = new Set(['168.63.129.16']);

/**
 * Reads `host:port` entries (comma or whitespace separated) from `env`, default the
 * `DEEP_RESEARCH_ALLOW_HOSTS` environment variable. Entries without a valid port are ignored: a bare host
 * would allow every port on it. IPv6 entries are written `[::1]:8080`.
 */
export function parseAllowHosts(env: string | undefined = process.env[ALLOW_HOSTS_ENV]): Set<string> {
  const out = new Set<string>();
  if (!env) return out;
  for (const raw of env.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    const m = /^(\[[0-9a-f:.]+\]|[^:[\]\s]+):(\d{1,5})$/.exec(entry);
    if (!m) continue;
    const port = Number(m[2]);
    if (port < 1 || port > 65535) continue;
    out.add(`${m[1]}:${port}`);
  }
  return out;
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * Decides whether `raw` may be fetched. A passing host name still has to pass the connect-time DNS check;
 * an IP literal is fully decided here, because Node skips the lookup hook for literals.
 */
export function checkUrl(raw: string, allow: ReadonlySet<string>): UrlCheck {
  // The WHATWG parser drops tabs and newlines anywhere and trims C0 controls and spaces; do the same so
  // the literal authority we compare against the allow-list is the one the parser saw.
  const input = trimC0(raw.replace(/[\t\n\r]/g, ''));
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, reason: `"${clip(raw)}" is not an absolute URL: pass the full http(s) address of the page.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      ok: false,
      reason: `only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, '')}: use the page's web address.`,
    };
  }
  const literal = literalAuthority(input);
  if (url.username !== '' || url.password !== '' || literal === undefined || literal.includes('@')) {
    return {
      ok: false,
      reason: 'URLs with user info (user@host) are refused, since they can disguise the real host: pass the URL without it.',
    };
  }
  const port = effectivePort(url);
  const host = url.hostname.toLowerCase();
  if (hostLiteral(literal) === host && allow.has(`${host}:${port}`)) return { ok: true, url };

  const ip = ipLiteral(host);
  if (ip !== undefined) {
    const reason = checkAddress(ip, port, EMPTY);
    return reason === undefined ? { ok: true, url } : { ok: false, reason };
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host === 'localhost.') {
    return { ok: false, reason: `${host} is a loopback name; only public web pages can be fetched.` };
  }
  return { ok: true, url };
}

/**
 * Returns why `ip` may not be connected to, or undefined when it may. `allow` is consulted for the exact
 * `ip:port` (IPv6 as `[addr]:port`); pass an empty set when the address came from DNS for a host name that
 * is not itself on the allow-list, or a listed IP could be reached through any name that resolves to it.
 */
export function checkAddress(ip: string, port: number, allow: ReadonlySet<string>): string | undefined {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (!ipaddr.isValid(bare)) return `${clip(ip)} is not an IP address.`;
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // process() turns IPv4-mapped IPv6 (::ffff:127.0.0.1) into the IPv4 address it really reaches.
    addr = ipaddr.process(bare);
  } catch {
    return `${clip(ip)} is not an IP address.`;
  }
  const canonical = addr.kind() === 'ipv6' ? `[${addr.toString()}]` : addr.toString();
  if (allow.has(`${canonical}:${port}`)) return undefined;

  const range = addr.range();
  if (range !== 'unicast') {
    return `${ip} is a ${describeRange(range)} address; only public web pages can be fetched.`;
  }
  if (addr.kind() === 'ipv4' && METADATA_ADDRESSES.has(addr.toString())) {
    return `${ip} is a cloud metadata address; only public web pages can be fetched.`;
  }
  if (addr.kind() === 'ipv6') {
    const parts = (addr as ipaddr.IPv6).parts;
    // ::/96 "IPv4-compatible" addresses are deprecated and ipaddr.js calls them unicast, but some stacks
    // still route them to the embedded IPv4 address.
    if (parts.slice(0, 6).every((p) => p === 0)) {
      return `${ip} is an IPv4-compatible IPv6 address; only public web pages can be fetched.`;
    }
  }
  return undefined;
}

/** The port a connection to `url` would use. */
export function effectivePort(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** True when `url`'s host:port is on the allow-list exactly as spelled in `raw`. */
export function isAllowListed(raw: string, url: URL, allow: ReadonlySet<string>): boolean {
  const literal = literalAuthority(trimC0(raw.replace(/[\t\n\r]/g, '')));
  if (literal === undefined || literal.includes('@')) return false;
  const host = url.hostname.toLowerCase();
  return hostLiteral(literal) === host && allow.has(`${host}:${effectivePort(url)}`);
}

/**
 * The authority exactly as written in a special-scheme URL: after `scheme:` and any run of slashes or
 * backslashes (the WHATWG parser treats both alike), up to the first `/`, `\`, `?` or `#`.
 */
function literalAuthority(input: string): string | undefined {
  const m = /^[a-z][a-z0-9+.-]*:[/\\]*([^/\\?#]*)/i.exec(input);
  return m?.[1];
}

/** Trims C0 controls and spaces from both ends, as the URL parser does (a loop: `[…]+$` backtracks). */
function trimC0(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && s.charCodeAt(start) <= 0x20) start++;
  while (end > start && s.charCodeAt(end - 1) <= 0x20) end--;
  return s.slice(start, end);
}

function hostLiteral(authority: string): string {
  const a = authority.toLowerCase();
  if (a.startsWith('[')) {
    const end = a.indexOf(']');
    return end === -1 ? a : a.slice(0, end + 1);
  }
  const colon = a.lastIndexOf(':');
  return colon === -1 ? a : a.slice(0, colon);
}

/** The address inside a parsed URL hostname, if it is one (the WHATWG parser has already normalised it). */
function ipLiteral(hostname: string): string | undefined {
  if (hostname.startsWith('[') && hostname.endsWith(']')) return hostname.slice(1, -1);
  if (/^[0-9.]+$/.test(hostname) || /^[0-9a-fx.]+$/.test(hostname)) {
    // Defensive: a parser that left a legacy numeric form unnormalised must not slip past as a "name".
    if (ipaddr.isValid(hostname)) return hostname;
  }
  return undefined;
}

function describeRange(range: string): string {
  switch (range) {
    case 'loopback':
      return 'loopback';
    case 'private':
      return 'private-network';
    case 'linkLocal':
      return 'link-local (cloud metadata lives here)';
    case 'carrierGradeNat':
      return 'carrier-grade NAT (shared, non-public)';
    case 'uniqueLocal':
      return 'unique-local (private IPv6)';
    case 'unspecified':
      return 'unspecified (0.0.0.0 / ::, which reaches this machine)';
    default:
      return `non-public (${range})`;
  }
}

function clip(s: string): string {
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}
