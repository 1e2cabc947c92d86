/**
 * HTML extraction off the main thread, under a time and heap limit, as PDFs are read (pdf/read.ts): a page
 * that still takes long holds neither the server's other calls nor its own call past the deadline. A page
 * the thread does not finish in time (or that exhausts its heap) is stored as its tag-stripped text
 * (method 'text'), made on this thread in one linear pass, so the call still stores the page whole.
 *
 * Up to MAX_THREADS pages are extracted at once, each on its own thread; more wait their turn, and their
 * wait counts against their own deadline. Threads are kept warm between pages (loading linkedom,
 * Readability and turndown and optimising them costs more than most pages), ended after IDLE_MS without
 * work or on any breach, and unref'd, so they never keep the process alive.
 */
import { Worker } from 'node:worker_threads';
import { workerEntry } from '../worker-entry.js';
import { markupChars, MAX_MARKUP_CHARS } from './dom.js';
import type { ExtractAnswer, ExtractRequest } from './off-thread-types.js';
import { strippedPage } from './strip.js';
import { passthrough } from './text.js';
import type { Extracted } from './types.js';

export type { ExtractRequest };

export const DEFAULT_EXTRACT_TIMEOUT_MS = 20_000;
/** The busiest page under MAX_MARKUP_CHARS peaks far below this; a hostile one ends the thread, not the server. */
const THREAD_HEAP_MB = 384;
const MAX_THREADS = 2;
const IDLE_MS = 30_000;

interface Slot {
  worker: Worker;
  job?: Running;
  idle?: NodeJS.Timeout;
}

interface Running {
  id: number;
  req: ExtractRequest;
  resolve: (e: Extracted) => void;
  timer: NodeJS.Timeout;
}

interface Waiting {
  req: ExtractRequest;
  deadline: number;
  resolve: (e: Extracted) => void;
}

const slots: Slot[] = [];
const queue: Waiting[] = [];
let nextId = 1;
let idleMs = IDLE_MS;

/**
 * The page's extraction (`extractReadable`, or `extractFullText` with `full`), made on a worker thread.
 * Never rejects: past `timeoutMs` (from now, waiting included) or on a crash it answers the tag-stripped
 * text. Bodies that need no DOM (not HTML, or too much markup to parse) are answered here at once.
 */
export function extractOffThread(req: ExtractRequest, opts: { timeoutMs?: number } = {}): Promise<Extracted> {
  const type = req.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== 'text/html' && type !== 'application/xhtml+xml') {
    return Promise.resolve(passthrough(req.body, req.url));
  }
  if (markupChars(req.body) > MAX_MARKUP_CHARS) return Promise.resolve(strippedPage(req.body, req.url));
  const deadline = Date.now() + (opts.timeoutMs ?? DEFAULT_EXTRACT_TIMEOUT_MS);
  return new Promise((resolve) => {
    queue.push({ req, deadline, resolve });
    pump();
  });
}

/** Starts a thread and has it load the extraction code while a page is still downloading. */
export function prewarmExtraction(): void {
  if (slots.length > 0) return;
  const s = start();
  s.idle = setTimeout(() => retire(s), idleMs).unref();
  s.worker.postMessage({ warm: true });
}

/** For tests: live threads and how long an idle one is kept. */
export function extractionThreads(): number {
  return slots.length;
}
export function setExtractionIdleMs(ms: number): void {
  idleMs = ms;
}

function pump(): void {
  while (queue.length > 0) {
    let slot = slots.find((s) => !s.job);
    if (!slot && slots.length < MAX_THREADS) slot = start();
    if (!slot) return;
    const w = queue.shift()!;
    const left = w.deadline - Date.now();
    if (left <= 0) {
      w.resolve(strippedPage(w.req.body, w.req.url));
      continue;
    }
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = undefined;
    const id = nextId++;
    const s = slot;
    const timer = setTimeout(() => fail(s), left);
    s.job = { id, req: w.req, resolve: w.resolve, timer };
    s.worker.postMessage({ id, ...w.req });
  }
}

function start(): Slot {
  const entry = workerEntry(import.meta.url, './worker.ts', 'extract-worker.js');
  const worker = new Worker(entry.file, {
    eval: entry.eval,
    resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    stdout: true,
    stderr: true,
  });
  const s: Slot = { worker };
  worker.on('message', (m: ExtractAnswer) => {
    const job = s.job;
    if (!job || job.id !== m.id) return;
    clearTimeout(job.timer);
    s.job = undefined;
    job.resolve('extracted' in m ? m.extracted : strippedPage(job.req.body, job.req.url));
    if (queue.length === 0) s.idle = setTimeout(() => retire(s), idleMs).unref();
    pump();
  });
  worker.on('error', () => fail(s));
  worker.on('exit', () => fail(s));
  worker.unref();
  slots.push(s);
  return s;
}

/** A thread past its time or heap, or gone: its page is answered stripped, and the thread ends. */
function fail(s: Slot): void {
  const job = s.job;
  s.job = undefined;
  retire(s);
  if (job) {
    clearTimeout(job.timer);
    job.resolve(strippedPage(job.req.body, job.req.url));
  }
  pump();
}

function retire(s: Slot): void {
  const i = slots.indexOf(s);
  if (i === -1) return;
  slots.splice(i, 1);
  if (s.idle) clearTimeout(s.idle);
  s.idle = undefined;
  void s.worker.terminate();
}
