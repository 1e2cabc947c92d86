// Serialises mutations of one run: an in-process queue (cheap, keeps 20 parallel threads fair) in front
// of a cross-process lock (two CLI sessions on one run). proper-lockfile's mkdir lock survives crashes
// through its stale timeout, which a hand-rolled O_EXCL file would not.
import lockfile from 'proper-lockfile';
import * as fs from 'node:fs';
import * as path from 'node:path';

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

async function crossProcess<T>(runDir: string, fn: () => T | Promise<T>): Promise<T> {
  fs.mkdirSync(runDir, { recursive: true });
  const release = await lockfile.lock(runDir, {
    lockfilePath: path.join(runDir, '.lock'),
    realpath: false,
    stale: 10_000,
    retries: { retries: 400, minTimeout: 5, maxTimeout: 50, factor: 1.3 },
  });
  try {
    return await fn();
  } finally {
    await release();
  }
}
