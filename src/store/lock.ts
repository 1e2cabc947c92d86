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

// proper-lockfile is not fair: a process with a queue of its own would re-take the lock at once while
// another process sleeps between retries. After a run of back-to-back takes it pauses longer than that
// retry sleep; a lone caller with gaps between calls never pauses.
const FAIR_EVERY = 8;
const FAIR_PAUSE_MS = 60;
const streaks = new Map<string, { n: number; releasedAt: number }>();

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
  const last = streaks.get(runDir);
  const n = last && performance.now() - last.releasedAt < 2 ? last.n + 1 : 1;
  if (n > FAIR_EVERY) {
    await new Promise((r) => setTimeout(r, FAIR_PAUSE_MS));
    streaks.set(runDir, { n: 0, releasedAt: 0 });
  }
  const release = await lockfile.lock(runDir, {
    lockfilePath: lockPath,
    realpath: false,
    stale: 10_000,
    // Up to about two minutes of waiting before a call gives up.
    retries: { retries: 2_500, minTimeout: 5, maxTimeout: 50, factor: 1.3 },
  });
  try {
    return await fn();
  } finally {
    await release();
    streaks.set(runDir, { n: n > FAIR_EVERY ? 0 : n, releasedAt: performance.now() });
  }
}
