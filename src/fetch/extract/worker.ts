/**
 * Runs in a worker thread (see off-thread.ts): extracts one page per request and posts the result back.
 * The thread stays up between requests, so linkedom, Readability and turndown load and warm up once.
 */
import { parentPort } from 'node:worker_threads';
import { extractFullText, extractReadable } from './readable.js';
import type { ExtractJob, ExtractAnswer } from './off-thread-types.js';

const port = parentPort;
if (port) {
  // The parent never reads this thread's stdout or stderr: nothing may pile up there.
  const silent = (): void => undefined;
  for (const k of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) console[k] = silent;
  process.stdout.write = (() => true) as typeof process.stdout.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  port.on('message', (job: ExtractJob | { warm: true }) => {
    if ('warm' in job) return;
    let answer: ExtractAnswer;
    try {
      const extracted = job.full ? extractFullText(job.body, job.contentType, job.url) : extractReadable(job.body, job.contentType, job.url);
      answer = { id: job.id, extracted };
    } catch (err) {
      answer = { id: job.id, error: String((err as Error)?.message ?? err).slice(0, 200) };
    }
    port.postMessage(answer);
  });
}
