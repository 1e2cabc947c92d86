// Opening a file inside an allowed root without a window between the check and the read: the real path
// is resolved, the file opened without following a final symlink and without blocking (a FIFO would wait
// for a writer), and the open descriptor itself is checked: a regular file, the same file the real path
// names, inside the root.
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { decodeSegment, localKeyOf } from '../engine/local-key.js';
import { LOCAL_ROOTS_ENV, type LocalRoot } from './roots.js';

/** Larger local files are refused: a PDF reader or extractor should not hold more than this at once. */
export const MAX_LOCAL_BYTES = 64 * 1024 * 1024;

export interface LocalRef {
  root: LocalRoot;
  /** The path inside the root, `/`-separated, no `.` or `..` segments. */
  rel: string;
  /** `local:<root name>/<rel>`: url, canonical key and index id at once. */
  key: string;
}

export type Resolved = { ok: true; ref: LocalRef } | { ok: false; reason: string };

export function localKey(root: string, rel: string): string {
  return localKeyOf(root, rel);
}

/**
 * Where a given path points: `local:<root>/<path>` (as search_sources and stored sources name it),
 * `<root>/<path>`, or an absolute path inside a root. `..` is refused outright, whatever it would resolve
 * to, so a path means what it says.
 */
export function resolveLocal(roots: readonly LocalRoot[], given: string): Resolved {
  if (roots.length === 0) {
    return { ok: false, reason: `no local folder is allowed: the user names folders in ${LOCAL_ROOTS_ENV} or with "deep-research install --local-root DIR"; a model cannot add one. Use url for web pages` };
  }
  const names = roots.map((r) => r.name).join(', ');
  // A `local:` address has its segments percent-encoded (as keys and search results spell it).
  const raw = given.trim().replace(/\\/g, '/');
  const p = raw.startsWith('local:') ? raw.split('/').map(decodeSegment).join('/') : raw;
  if (p.split('/').includes('..')) return { ok: false, reason: `path ${shown(given)} contains "..": name a file inside an allowed folder (${names}) without ".."` };
  if (p.includes('\0')) return { ok: false, reason: 'path contains a NUL character' };
  let root: LocalRoot | undefined;
  let rest: string;
  if (path.isAbsolute(given)) {
    const abs = path.resolve(given);
    root = roots.find((r) => abs === r.dir || abs.startsWith(r.dir + path.sep));
    if (!root) return { ok: false, reason: `path ${shown(given)} is outside every allowed folder (${names}): only files inside them can be read` };
    rest = path.relative(root.dir, abs).split(path.sep).join('/');
  } else {
    const body = p.startsWith('local:') ? p.slice('local:'.length) : p;
    const slash = body.indexOf('/');
    const name = slash === -1 ? body : body.slice(0, slash);
    root = roots.find((r) => r.name === name);
    if (!root) return { ok: false, reason: `path ${shown(given)} names no allowed folder: give local:<folder>/<file> with one of ${names}` };
    rest = slash === -1 ? '' : body.slice(slash + 1);
  }
  const rel = rest.split('/').filter((s) => s !== '' && s !== '.').join('/');
  if (rel === '') return { ok: false, reason: `path ${shown(given)} names the folder ${root.name} itself, not a file in it` };
  return { ok: true, ref: { root, rel, key: localKey(root.name, rel) } };
}

export type Opened = { ok: true; bytes: Uint8Array; size: number; mtimeMs: number } | { ok: false; reason: string };

/** Reads a file of a root, refusing symlinks out, non-regular files and files over the cap, by name. */
export function readLocalFile(ref: LocalRef, maxBytes = MAX_LOCAL_BYTES): Opened {
  const shown = ref.key;
  const joined = path.join(ref.root.dir, ...ref.rel.split('/'));
  let real: string;
  try {
    real = realpathSync(joined);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === 'ENOENT' ? `${shown} does not exist` : code === 'ELOOP' ? `${shown} is a symlink loop` : `${shown} cannot be read (${code ?? 'error'})` };
  }
  if (!inside(real, ref.root.dir)) return { ok: false, reason: `${shown} is a symlink that points outside the folder ${ref.root.name}: it is refused` };
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === 'ELOOP' ? `${shown} was replaced by a symlink while being opened: it is refused` : `${shown} cannot be opened (${code ?? 'error'})` };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { ok: false, reason: `${shown} is ${kindOf(st)}, not a regular file: only regular files are read` };
    // The descriptor must be the file the checked real path names now: a swap of a parent folder for a
    // symlink between realpath and open is caught here.
    let again: string;
    try {
      again = realpathSync(joined);
    } catch {
      return { ok: false, reason: `${shown} changed while being opened; try again` };
    }
    const now = statSync(again);
    if (!inside(again, ref.root.dir) || now.ino !== st.ino || now.dev !== st.dev) {
      return { ok: false, reason: `${shown} changed while being opened (it now points elsewhere): it is refused` };
    }
    if (st.size > maxBytes) return { ok: false, reason: `${shown} is ${Math.round(st.size / 1024 / 1024)} MiB, over the ${maxBytes / 1024 / 1024} MiB a local source may have` };
    const buf = Buffer.alloc(st.size);
    let off = 0;
    while (off < st.size) {
      const n = readSync(fd, buf, off, st.size - off, off);
      if (n === 0) break;
      off += n;
    }
    const bytes = new Uint8Array(buf.buffer, buf.byteOffset, off);
    if (!gzipped(ref.rel)) return { ok: true, bytes, size: st.size, mtimeMs: st.mtimeMs };
    const inflated = gunzipCapped(bytes, maxBytes, shown);
    return inflated.ok ? { ok: true, bytes: inflated.bytes, size: st.size, mtimeMs: st.mtimeMs } : inflated;
  } finally {
    closeSync(fd);
  }
}

export function inside(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);
}

function kindOf(st: import('node:fs').Stats): string {
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isDirectory()) return 'a folder';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** The given path in quotes, except an absolute one: a reply names no path of the machine (SPEC 7). */
function shown(given: string): string {
  if (path.isAbsolute(given) || /^[A-Za-z]:[\\/]/.test(given)) return '(the absolute path given)';
  return `"${given.length > 200 ? `${given.slice(0, 200)}…` : given}"`;
}

/** Whether a file of a root is stored gzipped, by its name: it is read as its name without `.gz`. */
export function gzipped(rel: string): boolean {
  return rel.toLowerCase().endsWith('.gz');
}

/** A gzipped file's content, refused past the cap a local file may have (a gzip bomb) or when it is no gzip data. */
function gunzipCapped(bytes: Uint8Array, maxBytes: number, key: string): { ok: true; bytes: Uint8Array } | { ok: false; reason: string } {
  try {
    const out = gunzipSync(bytes, { maxOutputLength: maxBytes });
    return { ok: true, bytes: new Uint8Array(out.buffer, out.byteOffset, out.byteLength) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ERR_BUFFER_TOO_LARGE'
      ? { ok: false, reason: `${key} inflates to more than the ${maxBytes / 1024 / 1024} MiB a local source may have: it is refused` }
      : { ok: false, reason: `${key} is named .gz but is not readable gzip data (damaged or another format): read another file` };
  }
}
