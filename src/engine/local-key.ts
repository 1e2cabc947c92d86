// Identity of a local source (SPEC 11.1): `local:<root name>/<path in root>`. The key is its own URL and
// canonical form, and `local:<root name>` is its origin, so a root can be named in primary_origins. Path
// segments are percent-encoded as in a URL (a space is %20), so a key is one token in markdown, in a
// report's Sources line and in an autolink.
import { InputError } from '../errors.js';

const LOCAL = /^local:([a-z0-9][a-z0-9._-]{0,63})\/(.+)$/;

export function isLocalKey(s: string): boolean {
  return s.trim().toLowerCase().startsWith('local:');
}

/** A path segment as written in a key; characters that end a URL or a markdown link are escaped too. */
function encodeSegment(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A segment as given: decoded when it decodes, else taken as written (a file name may hold a `%`). */
export function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The key of a file: root name and `/`-separated path in the root, as the file system spells them. */
export function localKeyOf(root: string, rel: string): string {
  return `local:${root}/${rel.split('/').map(encodeSegment).join('/')}`;
}

/** The canonical form of a `local:` address, encoded or not; InputError when it is not one. */
export function localCanonicalKey(raw: string): string {
  const m = LOCAL.exec(raw.trim());
  const rel = m?.[2]?.split('/').map(decodeSegment).filter((s) => s !== '' && s !== '.');
  if (!m || !rel || rel.length === 0 || rel.includes('..') || rel.some((s) => s.includes('/'))) {
    throw new InputError(`"${raw.slice(0, 200)}" is not a local source address: it has the form local:<folder>/<path in the folder>, as fetch_source and search_sources return it`);
  }
  return localKeyOf(m[1]!, rel.join('/'));
}

/** `local:<root name>` of a local address. */
export function localOrigin(raw: string): string {
  const key = localCanonicalKey(raw);
  return key.slice(0, key.indexOf('/'));
}
