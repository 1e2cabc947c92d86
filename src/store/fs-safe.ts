// Every write the server makes goes through here: inside the artifacts root, never through a symlink,
// and atomic (temp file in the same folder, fsync, rename), so a kill leaves the old or the new file.
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

/** Atomic write: temp file beside the target, fsync, rename. Never follows a symlink at the target. */
export function writeFileAtomic(root: string, file: string, content: string): void {
  writeBatch(root, [{ file, content }]);
}

/**
 * Several files that belong together (a report and the state it was rendered from): every target is
 * checked before the first is written, so a refusal leaves all of them as they were.
 */
export function writeBatch(root: string, entries: readonly { file: string; content: string }[]): void {
  for (const e of entries) preflight(root, e.file);
  for (const e of entries) renameInto(e.file, e.content);
  // The renames themselves survive a power loss only once their folders are synced.
  for (const dir of new Set(entries.map((e) => path.dirname(e.file)))) syncDir(dir);
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

function renameInto(file: string, content: string): void {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fd = fs.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o644);
  try {
    fs.writeSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
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

/** Reads a file under root, refusing symlinks at the file and folders that lead outside root; undefined when absent. */
export function readFileSafe(file: string, root?: string): string | undefined {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw err;
  }
  if (st.isSymbolicLink()) throw new InputError(`refusing to read "${path.basename(file)}": it is a symlink`);
  if (root !== undefined) assertRealInside(root, path.dirname(file));
  return fs.readFileSync(file, 'utf8');
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

export function readJson<T>(file: string, root?: string): T | undefined {
  const text = readFileSafe(file, root);
  return text === undefined ? undefined : (JSON.parse(text) as T);
}

export function writeJson(root: string, file: string, value: unknown): void {
  writeFileAtomic(root, file, `${JSON.stringify(value, null, 2)}\n`);
}
