// Every write the server makes goes through here: inside the artifacts root, never through a symlink,
// and atomic (temp file in the same folder, fsync, rename), so a kill leaves the old or the new file.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { InputError } from '../errors.js';

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Joins slug-like segments under root; refuses anything that could name another place. */
export function safeJoin(root: string, ...segments: string[]): string {
  for (const s of segments) {
    if (!SEGMENT.test(s) || s.includes('..') || s.length > 200) {
      throw new InputError(`"${s.slice(0, 60)}" is not a safe file name; use letters, digits, dots and hyphens`);
    }
  }
  const full = path.resolve(root, ...segments);
  const rel = path.relative(path.resolve(root), full);
  if (rel.startsWith('..') || path.isAbsolute(rel)) throw new InputError('path escapes the artifacts folder');
  return full;
}

/** Creates dir (and parents up to root) refusing symlinked components, then checks its realpath. */
export function ensureDir(root: string, dir: string): void {
  const absRoot = path.resolve(root);
  fs.mkdirSync(absRoot, { recursive: true });
  const rel = path.relative(absRoot, path.resolve(dir));
  if (rel.startsWith('..') || path.isAbsolute(rel)) throw new InputError('path escapes the artifacts folder');
  let cur = absRoot;
  for (const part of rel.split(path.sep).filter(Boolean)) {
    cur = path.join(cur, part);
    let st: fs.Stats | undefined;
    try {
      st = fs.lstatSync(cur);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    if (st === undefined) {
      try {
        fs.mkdirSync(cur);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      st = fs.lstatSync(cur);
    }
    if (st.isSymbolicLink() || !st.isDirectory()) {
      throw new InputError(`refusing to write through "${path.relative(absRoot, cur)}": it is a symlink or not a folder`);
    }
  }
  const realRoot = fs.realpathSync(absRoot);
  const realDir = fs.realpathSync(dir);
  const realRel = path.relative(realRoot, realDir);
  if (realRel.startsWith('..') || path.isAbsolute(realRel)) throw new InputError('path escapes the artifacts folder');
}

/** Checks that file can be written: its folder is a real folder inside root and the file is no symlink. */
function preflight(root: string, file: string): void {
  ensureDir(root, path.dirname(file));
  try {
    if (fs.lstatSync(file).isSymbolicLink()) {
      throw new InputError(`refusing to replace "${path.basename(file)}": it is a symlink`);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/** Atomic write: temp file beside the target, written whole, fsync, rename. Never follows a symlink at the target. */
export function writeFileAtomic(root: string, file: string, content: string): void {
  writeBatch(root, [{ file, content }]);
}

/**
 * Several files that belong together (a report and the state it was rendered from): every target is
 * checked before the first is written, and every file is written whole and synced to its temp file
 * before the first rename. So a refusal or a full disk leaves all of them as they were, and no temp file
 * outlives the call. Renames go in the order given: callers put the state that points at the other
 * files last.
 */
export function writeBatch(root: string, entries: readonly { file: string; content: string }[]): void {
  for (const e of entries) preflight(root, e.file);
  const temps: string[] = [];
  try {
    for (const e of entries) temps.push(writeTemp(e.file, e.content));
  } catch (err) {
    for (const t of temps) removeQuietly(t);
    // Name the file the caller knows, not the temp file (a write's own error names none).
    const failed = entries[temps.length];
    if (failed && typeof (err as NodeJS.ErrnoException).code === 'string') Object.assign(err as Error, { path: failed.file });
    throw err;
  }
  const replaced: string[] = [];
  for (const [i, e] of entries.entries()) {
    try {
      io.renameSync(temps[i] as string, e.file);
    } catch (err) {
      for (const t of temps.slice(i)) removeQuietly(t);
      throw Object.assign(err as Error, { replaced });
    }
    replaced.push(e.file);
    callWrites.getStore()?.push(e.file);
  }
  // The renames themselves survive a power loss only once their folders are synced.
  for (const dir of new Set(entries.map((e) => path.dirname(e.file)))) syncDir(dir);
}

const callWrites = new AsyncLocalStorage<string[]>();

/**
 * Runs fn, collecting into `written` every file it replaced: a call that fails after an earlier write
 * of its own succeeded says which files that write stored, rather than "nothing was written".
 */
export function recordingWrites<T>(written: string[], fn: () => T): T {
  return callWrites.run(written, fn);
}

/**
 * The system calls a write makes. A test swaps in one that fills the disk (short writes, then ENOSPC),
 * so the behaviour on a full disk is tested on every machine, not only where a small filesystem can be
 * mounted.
 */
export interface WriteIo {
  openSync(file: string, flags: number, mode: number): number;
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number): number;
  fsyncSync(fd: number): void;
  closeSync(fd: number): void;
  renameSync(from: string, to: string): void;
}

const realIo: WriteIo = {
  openSync: (file, flags, mode) => fs.openSync(file, flags, mode),
  writeSync: (fd, buffer, offset, length) => fs.writeSync(fd, buffer, offset, length),
  fsyncSync: (fd) => fs.fsyncSync(fd),
  closeSync: (fd) => fs.closeSync(fd),
  renameSync: (from, to) => fs.renameSync(from, to),
};
let io: WriteIo = realIo;

/** Replaces the write layer (tests only); no argument restores the real one. */
export function setWriteIo(replacement?: WriteIo): void {
  io = replacement ?? realIo;
}

function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Some filesystems refuse fsync on a directory; the file contents are already synced.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

const TEMP = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/** Removes temp files a killed writer left in dir (never a live process's own). */
export function sweepTemps(dir: string): number {
  let removed = 0;
  let names: string[] = [];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const m = TEMP.exec(name);
    if (!m || isAlive(Number(m[1]))) continue;
    fs.rmSync(path.join(dir, name), { force: true });
    removed += 1;
  }
  return removed;
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Writes content whole to a fresh temp file beside file and syncs it; returns its path. A write that
 * stores fewer bytes than asked is not an error to the system (a nearly full disk does that): the rest
 * is written again, and a write that stores nothing is a full disk. Any failure removes the temp file.
 */
function writeTemp(file: string, content: string): string {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fd = io.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o644);
  let done = false;
  try {
    const bytes = Buffer.from(content, 'utf8');
    let at = 0;
    while (at < bytes.length) {
      const n = io.writeSync(fd, bytes, at, bytes.length - at);
      if (!(n > 0)) throw Object.assign(new Error(`ENOSPC: no space left on device, write ${tmp}`), { code: 'ENOSPC', path: file });
      at += n;
    }
    io.fsyncSync(fd);
    done = true;
  } finally {
    try {
      io.closeSync(fd);
    } catch (err) {
      // A close can report a failed delayed write (NFS, some FUSE filesystems): the file is not whole.
      if (done) {
        done = false;
        removeQuietly(tmp);
        throw err;
      }
    }
    if (!done) removeQuietly(tmp);
  }
  return tmp;
}

function removeQuietly(file: string): void {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // Unremovable (permissions changed under us): the sweep on the next load clears it.
  }
}

/** Refuses a folder whose real location is outside root (a symlinked run, state or sources folder). */
export function assertRealInside(root: string, dir: string): void {
  let real: string;
  try {
    real = fs.realpathSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const rel = path.relative(fs.realpathSync(root), real);
  if (rel.startsWith('..') || path.isAbsolute(rel)) {
    throw new InputError(`refusing to read through "${path.relative(root, dir)}": a symlink leads outside the artifacts folder`);
  }
}

/**
 * The most a file of a run may hold for the server or the CLI to read it. A stored source is at most a
 * few MiB (pages are capped at 5 MiB, PDFs at 300 pages); a larger file was not written by us.
 */
export const MAX_READ_BYTES = 32 * 1024 * 1024;

/** How a refusal names a file: relative to root when inside it, else its last two parts. */
export function fileLabel(file: string, root?: string): string {
  if (root !== undefined) {
    const rel = path.relative(root, file);
    if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return rel.split(path.sep).join('/');
  }
  return path.basename(path.dirname(file)) === '' ? path.basename(file) : `${path.basename(path.dirname(file))}/${path.basename(file)}`;
}

/**
 * Reads a file under root, refusing symlinks at the file and folders that lead outside root; undefined
 * when absent. Only a regular file is read: the type is checked on the open descriptor, which is opened
 * without blocking, so a FIFO or a device is refused by name instead of hanging the process (SPEC 7); and
 * a file over MAX_READ_BYTES is refused before it is read.
 */
export function readFileSafe(file: string, root?: string, label = fileLabel(file, root)): string | undefined {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw err;
  }
  if (st.isSymbolicLink()) throw new InputError(`refusing to read "${label}": it is a symlink`);
  if (root !== undefined) assertRealInside(root, path.dirname(file));
  if (!st.isFile()) throw new InputError(notRegular(label, st));
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw new InputError(`refusing to read "${label}": it is a symlink`);
    throw err;
  }
  try {
    const f = fs.fstatSync(fd);
    if (!f.isFile()) throw new InputError(notRegular(label, f));
    if (f.size > MAX_READ_BYTES) {
      throw new InputError(`refusing to read "${label}": it holds ${mib(f.size)}, over the ${mib(MAX_READ_BYTES)} a file of a run may hold; it was not written by deep-research`);
    }
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
}

function mib(n: number): string {
  return `${(n / (1024 * 1024)).toFixed(n >= 10 * 1024 * 1024 ? 0 : 1)} MiB`;
}

function notRegular(label: string, st: fs.Stats): string {
  const kind = st.isFIFO() ? 'a named pipe (FIFO)' : st.isDirectory() ? 'a folder' : st.isSocket() ? 'a socket' : st.isCharacterDevice() || st.isBlockDevice() ? 'a device' : 'not a regular file';
  return `refusing to read "${label}": it is ${kind}, not a regular file; replace it with the file deep-research wrote, or remove it`;
}

/** Lists a folder under root, refusing one whose real location is outside root; [] when absent. */
export function readdirSafe(dir: string, root: string): string[] {
  assertRealInside(root, dir);
  try {
    return fs.readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** A JSON file's value; a file that is not JSON is refused by name (its shape is the caller's to check). */
export function readJson<T>(file: string, root?: string): T | undefined {
  const label = fileLabel(file, root);
  const text = readFileSafe(file, root, label);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch (err) {
    throw new InputError(`"${label}" is not valid JSON (${(err as Error).message.split('\n')[0]?.slice(0, 120)}); restore it from git or remove it`);
  }
}

export function writeJson(root: string, file: string, value: unknown): void {
  writeFileAtomic(root, file, `${JSON.stringify(value, null, 2)}\n`);
}
