// Serialises mutations of one run: an in-process queue (cheap, keeps 20 parallel threads fair) in front
// of a cross-process lock (two CLI sessions on one run). The cross-process lock is proper-lockfile's
// mkdir lock, whose folder carries an owner record (pid, host, pid namespace, a random token), so that a
// lock left by a killed process is taken over as soon as a waiter sees its holder is gone (SPEC 7),
// rather than after a stale timeout. A holder that cannot be checked (another host or container) is
// judged by age: proper-lockfile refreshes the folder's mtime every second while the lock is held.
// (A server of a version before the owner record held a bare folder, refreshed every 5 s: running both
// on one run at once is not supported.)
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type lockfileModule from 'proper-lockfile';
import { InputError } from '../errors.js';
import { lazyLibrary } from '../lazy-library.js';

let lockfile: typeof lockfileModule | undefined;

const queues = new Map<string, Promise<unknown>>();

export async function withRunLock<T>(runDir: string, fn: () => T | Promise<T>): Promise<T> {
  const key = path.resolve(runDir);
  const prev = queues.get(key) ?? Promise.resolve();
  const run = prev.catch(() => undefined).then(() => crossProcess(key, fn));
  const tail = run.catch(() => undefined);
  queues.set(key, tail);
  try {
    return await run;
  } finally {
    if (queues.get(key) === tail) queues.delete(key);
  }
}

const WAIT_LIMIT_MS = 120_000;
/** A lock whose holder cannot be checked is abandoned once its mtime is this old (10 missed refreshes). */
export const STALE_MS = 10_000;
/** A lock folder without an owner record was left by a holder killed as it made or removed it. */
const ORPHAN_MS = 1_000;
const REFRESH_MS = 1_000;
const OWNER_FILE = 'owner.json';

interface Owner {
  pid: number;
  host: string;
  /** The pid namespace (Linux), so that a pid is only ever checked in the namespace it belongs to. */
  ns: string;
  token: string;
}

const SELF = { pid: process.pid, host: os.hostname(), ns: pidNamespace() };

function pidNamespace(): string {
  try {
    return fs.readlinkSync('/proc/self/ns/pid');
  } catch {
    return '';
  }
}

// The fs proper-lockfile works through: its lock folder gets the owner record as it is made (before
// proper-lockfile first reads the folder's mtime, which the record's creation changes), and loses it just
// before the folder is removed (proper-lockfile removes the folder with rmdir). Both pairs of calls are
// synchronous, back to back: between two callbacks a kill could land while other work runs, leaving a
// folder without a record, which only its age can clear. proper-lockfile's own stale takeover is
// switched off (stale: NEVER): every takeover goes through clearIfAbandoned below.
const lockFs = {
  ...fs,
  mkdir(p: string, cb: (err: NodeJS.ErrnoException | null) => void) {
    try {
      fs.mkdirSync(p);
    } catch (err) {
      return process.nextTick(cb, err as NodeJS.ErrnoException);
    }
    try {
      // 'wx': never through a symlink planted in the fresh folder.
      fs.writeFileSync(path.join(p, OWNER_FILE), JSON.stringify({ ...SELF, token: randomUUID() }), { flag: 'wx' });
    } catch {
      // Still a valid lock, judged by age alone if its holder dies.
    }
    process.nextTick(cb, null);
  },
  rmdir(p: string, cb: (err: NodeJS.ErrnoException | null) => void) {
    try {
      lockFs.rmdirSync(p);
    } catch (err) {
      return process.nextTick(cb, err as NodeJS.ErrnoException);
    }
    process.nextTick(cb, null);
  },
  rmdirSync(p: string) {
    fs.rmSync(path.join(p, OWNER_FILE), { force: true });
    fs.rmdirSync(p);
  },
};
const NEVER = 2 ** 31 - 1;

async function crossProcess<T>(runDir: string, fn: () => T | Promise<T>): Promise<T> {
  fs.mkdirSync(runDir, { recursive: true });
  const lockPath = path.join(runDir, '.lock');
  try {
    if (fs.lstatSync(lockPath).isSymbolicLink()) {
      throw new InputError(`the .lock in ${path.basename(runDir)} is a symlink; remove it (it is a lock folder the server creates and deletes itself)`);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const release = await acquire(runDir, lockPath);
  try {
    return await fn();
  } finally {
    await release();
  }
}

/**
 * Our own retry loop around single attempts: proper-lockfile's `retries` option builds its whole
 * timeout table on every call, which costs more than the lock itself on the per-round path.
 */
async function acquire(runDir: string, lockPath: string): Promise<() => Promise<void>> {
  const deadline = performance.now() + WAIT_LIMIT_MS;
  let delay = 2;
  const lib = (lockfile ??= lazyLibrary<typeof lockfileModule>('properLockfile'));
  for (;;) {
    try {
      return await lib.lock(runDir, { lockfilePath: lockPath, realpath: false, stale: NEVER, update: REFRESH_MS, retries: 0, fs: lockFs });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED' || performance.now() > deadline) throw err;
    }
    if (clearIfAbandoned(lockPath)) continue;
    // Jitter keeps two waiting processes from retrying in lockstep.
    await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
    delay = Math.min(delay * 1.5, 50);
  }
}

interface Seen {
  owner?: Owner;
  mtimeMs: number;
}

function inspect(lockPath: string): Seen | undefined {
  let mtimeMs: number;
  try {
    const st = fs.lstatSync(lockPath);
    if (!st.isDirectory()) return undefined;
    mtimeMs = st.mtimeMs;
  } catch {
    return undefined;
  }
  try {
    const file = path.join(lockPath, OWNER_FILE);
    const st = fs.lstatSync(file);
    if (!st.isFile() || st.size > 4096) return { mtimeMs };
    const o = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Owner>;
    const owner =
      Number.isSafeInteger(o.pid) && typeof o.host === 'string' && typeof o.ns === 'string' && typeof o.token === 'string' ? (o as Owner) : undefined;
    return owner ? { owner, mtimeMs } : { mtimeMs };
  } catch {
    // No record yet (its holder is between mkdir and write) or a torn one (killed mid-write).
    return { mtimeMs };
  }
}

/**
 * Gone: a holder of this host and pid namespace that no longer runs; a folder without a readable
 * record that is over a second old (a live holder is without one only between two back-to-back system
 * calls, so it was killed there); else one whose mtime has not been refreshed for STALE_MS.
 */
function abandoned(seen: Seen, now = Date.now()): boolean {
  const o = seen.owner;
  if (!o) return now - seen.mtimeMs > ORPHAN_MS;
  if (o.host === SELF.host && o.ns === SELF.ns && o.pid !== SELF.pid && !running(o.pid)) return true;
  return now - seen.mtimeMs > STALE_MS;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it runs, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A zombie (killed, not yet reaped by its parent) holds nothing.
  try {
    return !/^\d+ \(.*\) Z /s.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/**
 * Removes the lock at lockPath if its holder is gone; true when it did. Two waiters may judge the same
 * dead lock at once, and the first to clear it may take a new lock straight away: so clearing is
 * serialised by a second mkdir lock, and under it the lock is removed only if it is still the one judged
 * abandoned (same owner token, or for an owner-less folder, the same old mtime). Only the holder itself
 * or a clearer under this guard ever removes a lock folder.
 */
function clearIfAbandoned(lockPath: string): boolean {
  const seen = inspect(lockPath);
  if (!seen || !abandoned(seen)) return false;
  const guard = `${lockPath}.takeover`;
  try {
    fs.mkdirSync(guard);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return false;
    // A clearer holds the guard for a few system calls; one that old died holding it.
    try {
      if (Date.now() - fs.lstatSync(guard).mtimeMs > STALE_MS) fs.rmdirSync(guard);
    } catch {
      // Gone meanwhile, or not ours to judge: wait and look again.
    }
    return false;
  }
  try {
    const again = inspect(lockPath);
    if (!again || again.owner?.token !== seen.owner?.token || (!again.owner && again.mtimeMs !== seen.mtimeMs) || !abandoned(again)) return false;
    lockFs.rmdirSync(lockPath);
    return true;
  } catch {
    return false;
  } finally {
    try {
      fs.rmdirSync(guard);
    } catch {
      // Judged stale and removed by another waiter: nothing left to release.
    }
  }
}
