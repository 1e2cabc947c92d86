/**
 * Reads a fetched PDF into markdown (SPEC 4.1 "PDF text"). Loaded lazily by the fetch pipeline only when a
 * response is a PDF, and pdf.js itself loads only inside the worker thread, so neither server start nor an
 * HTML fetch pays for it.
 *
 * Library: unpdf (MIT; pdf.js packaged as one dependency-free module that runs on Node 20 without the
 * canvas or DOMMatrix polyfills pdfjs-dist's Node build wants): same text engine and speed as pdfjs-dist
 * (Apache-2.0), 1.7 MB instead of 38 MB installed (pdfjs-dist pulls in a native canvas), and its latest
 * releases need Node 22.
 *
 * Each parse runs under a wall-clock limit and a heap limit, so a PDF built to stall or exhaust the parser
 * costs at most that time, and the server answers the next call.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel, Worker } from 'node:worker_threads';
import { workerEntry } from '../worker-entry.js';
import { MAX_PAGES } from './layout.js';
import type { PdfMarkdown } from './layout.js';
import type { WorkerAnswer, WorkerJob, WorkerReply, WorkerRequest, WorkerWarm } from './types.js';

export const DEFAULT_PDF_TIMEOUT_MS = 20_000;
/** Heap for one parse; the largest fixture (193 pages) peaks near 60 MiB. */
const WORKER_HEAP_MB = 192;
/**
 * pdf.js decodes streams into typed arrays, which live outside the V8 heap that resourceLimits caps: a
 * small file whose stream inflates to gigabytes would grow the process unchecked. The main thread watches
 * the process's RSS while the worker runs and ends the parse past this much growth.
 */
const MAX_GROWTH_MB = 200;
const WATCH_MS = 25;

export type PdfReadResult = ({ ok: true } & PdfMarkdown) | { ok: false; reason: 'encrypted' | 'truncated' | 'invalid' | 'timeout' | 'too-complex' | 'out-of-range'; message: string };

export interface PdfReadOptions {
  timeoutMs?: number;
  /** What is left of the whole call's deadline (ms): the parse gets no more than this. */
  leftMs?: number;
  maxPages?: number;
  /** Read from this page on (1-based), at most maxPages of them. */
  firstPage?: number;
}

export async function readPdf(bytes: Uint8Array, where: string, opts: PdfReadOptions = {}): Promise<PdfReadResult> {
  const timeoutMs = Math.min(opts.timeoutMs ?? DEFAULT_PDF_TIMEOUT_MS, opts.leftMs ?? Infinity);
  const maxPages = opts.maxPages ?? MAX_PAGES;
  // pdf.js recovers a cut-off file by scanning for objects and returns whatever pages it finds, which would
  // store part of a document as if it were all of it. A complete file ends with %%EOF.
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset + Math.max(0, bytes.byteLength - 2048), Math.min(bytes.byteLength, 2048));
  if (tail.indexOf('%%EOF', 0, 'latin1') === -1) {
    return { ok: false, reason: 'truncated', message: `${where} is a truncated PDF (it has no end-of-file marker): the download was cut short or the file is damaged. Skip it or find another copy.` };
  }
  const { inflatedSize, MAX_INFLATED_BYTES } = await import('./bomb.js');
  if ((await inflatedSize(bytes)) > MAX_INFLATED_BYTES) {
    return {
      ok: false,
      reason: 'too-complex',
      message: `${where} is a PDF whose compressed text streams inflate to more than ${MAX_INFLATED_BYTES / 1024 / 1024} MiB: a decompression bomb, not a document to read. Skip it or find an HTML version.`,
    };
  }
  const reply = await runWorker({ data: bytes, maxPages, ...(opts.firstPage !== undefined ? { firstPage: opts.firstPage } : {}) }, timeoutMs);
  if ('failure' in reply) {
    if (reply.failure === 'timeout') {
      return { ok: false, reason: 'timeout', message: `${where} is a PDF that took longer than ${(timeoutMs / 1000).toFixed(0)} s to parse, so it was abandoned: it is unusually complex or built to stall readers. Skip it or find an HTML version.` };
    }
    if (reply.detail !== undefined) {
      return { ok: false, reason: 'invalid', message: `${where} is a PDF the reader failed on (${reply.detail}). Skip it or find an HTML version.` };
    }
    return { ok: false, reason: 'too-complex', message: `${where} is a PDF that the reader could not parse within its memory limit: it is unusually complex or built to exhaust readers. Skip it or find an HTML version.` };
  }
  if (!reply.ok) {
    if (reply.kind === 'out-of-range') {
      return { ok: false, reason: 'out-of-range', message: `${where} has ${reply.total} page${reply.total === 1 ? '' : 's'}, so pages from ${opts.firstPage} on do not exist: ask for pages between 1 and ${reply.total}.` };
    }
    if (reply.kind === 'encrypted') {
      return { ok: false, reason: 'encrypted', message: `${where} is an encrypted PDF that needs a password to open. Skip it or find an open copy.` };
    }
    return { ok: false, reason: 'invalid', message: `${where} is not a readable PDF (${reply.detail ?? 'the parser rejected it'}). Skip it or find another copy.` };
  }
  return { ok: true, ...reply.md };
}

type RunReply = WorkerReply | { failure: 'timeout' | 'crashed'; detail?: string };

/**
 * One worker thread kept warm between parses: starting a thread and loading pdf.js costs tens of ms, and
 * pdf.js runs its first document several times slower than later ones while V8 optimises it, so a fresh
 * thread per PDF paid both every time. A second thread, kept the same way, helps with long documents
 * (SPLIT_MIN_PAGES). Jobs run one at a time (one parse at a time bounds memory); a job's time limit and
 * RSS watch cover both its threads. A thread is ended after IDLE_MS without work, after MAX_PARSES parses
 * (pdf.js keeps some caches across documents), and on any breach (time, heap, RSS growth, crash) with the
 * job's other thread; the next job starts new ones. Threads are unref'd, so they never keep the process
 * alive.
 */
const IDLE_MS = 30_000;
const MAX_PARSES = 50;
/**
 * A document of at least this many pages is read by two threads at once when the machine has two cores
 * (see types.ts, WorkerRequest.split): each thread opens it and reads every other page, so the parse takes
 * about half the time at the cost of a second thread's memory. Shorter ones are not worth the second open.
 */
const SPLIT_MIN_PAGES = 64;

interface Job {
  req: WorkerRequest;
  timeoutMs: number;
  resolve: (r: RunReply) => void;
}

interface Warm {
  worker: Worker;
  parses: number;
  idle?: NodeJS.Timeout;
}

/** The job on the threads, with what ends it: answers still awaited (the helper's and the reply). */
interface Running {
  id: number;
  job: Job;
  threads: Warm[];
  awaiting: number;
  reply?: WorkerReply;
  timer: NodeJS.Timeout;
  watch: NodeJS.Timeout;
}

/** [primary, helper]: the helper runs only for split jobs. */
const pool: Array<Warm | undefined> = [undefined, undefined];
let running: Running | undefined;
const queue: Job[] = [];
let nextId = 1;
let idleMs = IDLE_MS;
/**
 * DEEP_RESEARCH_PDF_THREADS: '1' never splits (less memory), '2' always does; unset, long documents split
 * on a machine with two or more cores. Measured on two cores under a load average near 4 (same run,
 * alternated): two threads took 3.3-3.8x pdftotext's time per page on the 193-page fixture where one took
 * 4.6-4.8x in three runs of four, and cost about 45 MiB more peak RSS. A choice by the machine's load as
 * the parse starts (tried) kept to one thread nearly always there and lost that gain.
 */
let split = process.env.DEEP_RESEARCH_PDF_THREADS === '1' ? false : process.env.DEEP_RESEARCH_PDF_THREADS === '2' || availableParallelism() >= 2;

/** For tests: the primary thread's id (undefined when none is alive), its parses, and how many threads are alive. */
export function pdfWorkerState(): { threadId?: number; parses: number; threads: number } {
  const threads = pool.filter((w) => w !== undefined).length;
  return pool[0] ? { threadId: pool[0].worker.threadId, parses: pool[0].parses, threads } : { parses: 0, threads };
}

/** For tests: how long an idle thread is kept. */
export function setPdfWorkerIdleMs(ms: number): void {
  idleMs = ms;
}

/** For tests: whether long documents are read by two threads (see `split`). */
export function setPdfSplit(on: boolean): void {
  split = on;
}

/**
 * Starts the parse threads and has them load pdf.js while a PDF is still downloading (http-fetch.ts calls
 * this when a response's headers say PDF), so the parse does not wait for that too. Not at server start:
 * cold start must not grow, and most runs read no PDF. An unused thread ends when idle like any other.
 */
export function prewarmPdf(): void {
  if (running || queue.length > 0) return;
  for (let i = 0; i < (split ? 2 : 1); i++) {
    const w = slot(i);
    if (!w.idle) w.idle = setTimeout(() => retire(w), idleMs).unref();
    w.worker.postMessage({ warm: true } satisfies WorkerWarm);
  }
}

function runWorker(req: WorkerRequest, timeoutMs: number): Promise<RunReply> {
  return new Promise((resolve) => {
    queue.push({ req, timeoutMs, resolve });
    pump();
  });
}

function pump(): void {
  if (running || queue.length === 0) return;
  const job = queue.shift()!;
  const threads = split ? [slot(0), slot(1)] : [slot(0)];
  for (const w of threads) {
    if (w.idle) clearTimeout(w.idle);
    w.idle = undefined;
  }
  const id = nextId++;
  const baseline = process.memoryUsage.rss();
  const timer = setTimeout(() => fail({ failure: 'timeout' }), job.timeoutMs);
  // pdf.js decodes streams into typed arrays outside the heap that resourceLimits caps (see MAX_GROWTH_MB).
  const watch = setInterval(() => {
    if (process.memoryUsage.rss() - baseline > MAX_GROWTH_MB * 1024 * 1024) fail({ failure: 'crashed' });
  }, WATCH_MS);
  running = { id, job, threads, awaiting: threads.length, timer, watch };
  if (threads.length === 1) {
    threads[0]!.worker.postMessage({ id, ...job.req } satisfies WorkerJob);
    return;
  }
  const { port1, port2 } = new MessageChannel();
  threads[0]!.worker.postMessage({ id, ...job.req, split: { role: 'primary', peer: port1, splitMin: SPLIT_MIN_PAGES } } satisfies WorkerJob, [port1]);
  threads[1]!.worker.postMessage({ id, ...job.req, split: { role: 'helper', peer: port2, splitMin: SPLIT_MIN_PAGES } } satisfies WorkerJob, [port2]);
}

function slot(i: number): Warm {
  return pool[i] ?? start(i);
}

function start(i: number): Warm {
  const entry = workerEntry(import.meta.url, './worker.ts', 'pdf-worker.js');
  const worker = new Worker(entry.file, {
    eval: entry.eval,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    stdout: true,
    stderr: true,
  });
  // The thread's stdout and stderr are piped here (nothing may reach the server's stdout, the protocol
  // stream) and left unread: reading them would hold the process open; worker.ts writes nothing to them.
  const w: Warm = { worker, parses: 0 };
  worker.on('message', (m: WorkerAnswer) => {
    const r = running;
    if (r?.id !== m.id || !r.threads.includes(w)) return;
    // Only the primary's answer is the job's: a helper's is just that it is done.
    if (m.reply && w === r.threads[0]) r.reply = m.reply;
    if (--r.awaiting > 0) return;
    settle(r);
    for (const t of r.threads) {
      t.parses++;
      if (t.parses >= MAX_PARSES) retire(t);
      else if (queue.length === 0) t.idle = setTimeout(() => retire(t), idleMs).unref();
    }
    r.job.resolve(r.reply ?? { failure: 'crashed', detail: 'no reply from the parser' });
    pump();
  });
  worker.on('error', (err) => failIfRunning(w, { failure: 'crashed', ...((err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY' ? {} : { detail: String((err as Error)?.message ?? err).slice(0, 200) }) }));
  worker.on('exit', () => failIfRunning(w, { failure: 'crashed' }));
  // Never what keeps the process alive (after the listeners, which would ref it again): a running job's
  // time-limit timer does that while it runs.
  worker.unref();
  pool[i] = w;
  return w;
}

function settle(r: Running): void {
  clearTimeout(r.timer);
  clearInterval(r.watch);
  running = undefined;
}

/** A thread that crashed or exited: the job it was part of fails; an idle one is just dropped. */
function failIfRunning(w: Warm, reply: RunReply): void {
  if (running?.threads.includes(w)) fail(reply);
  else retire(w);
}

/** A breach or a crash: the running job fails, its threads go, and queued jobs get new ones. */
function fail(reply: RunReply): void {
  const r = running;
  if (!r) return;
  settle(r);
  for (const t of r.threads) retire(t);
  r.job.resolve(reply);
  pump();
}

function retire(w: Warm): void {
  const i = pool.indexOf(w);
  if (i !== -1) pool[i] = undefined;
  if (w.idle) clearTimeout(w.idle);
  w.idle = undefined;
  void w.worker.terminate();
}
