// Serialises mutations of one run: an in-process queue (cheap, keeps 20 parallel threads fair) in front
// of a cross-process lock (two CLI sessions on one run). proper-lockfile's mkdir lock survives crashes
// through its stale timeout, which a hand-rolled O_EXCL file would not.
import lockfile from 'proper-lockfile';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { InputError } from '../errors.js';

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
  for (;;) {
    try {
      return await lockfile.lock(runDir, { lockfilePath: lockPath, realpath: false, stale: 10_000, retries: 0 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED' || performance.now() > deadline) throw err;
    }
    // Jitter keeps two waiting processes from retrying in lockstep.
    await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
    delay = Math.min(delay * 1.5, 50);
  }
}
