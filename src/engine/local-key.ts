// Identity of a local source (SPEC 11.1): `local:<root name>/<path in root>`. The key is its own URL and
// canonical form, and `local:<root name>` is its origin, so a root can be named in primary_origins.
import { InputError } from '../errors.js';

const LOCAL = /^local:([a-z0-9][a-z0-9._-]{0,63})\/(.+)$/;

export function isLocalKey(s: string): boolean {
  return s.trim().toLowerCase().startsWith('local:');
}

/** The canonical form of a `local:` address; InputError when it is not one. */
export function localCanonicalKey(raw: string): string {
  const m = LOCAL.exec(raw.trim());
  const rel = m?.[2]?.split('/').filter((s) => s !== '' && s !== '.');
  if (!m || !rel || rel.length === 0 || rel.includes('..')) {
    throw new InputError(`"${raw.slice(0, 200)}" is not a local source address: it has the form local:<folder>/<path in the folder>, as fetch_source and search_sources return it`);
  }
  return `local:${m[1]}/${rel.join('/')}`;
}

/** `local:<root name>` of a local address. */
export function localOrigin(raw: string): string {
  const key = localCanonicalKey(raw);
  return key.slice(0, key.indexOf('/'));
}
