/**
 * Runs in a worker thread (see read.ts): for each request, opens one PDF with pdf.js (through unpdf),
 * collects the raw text items of each page, the document outline and its title, and posts back the
 * markdown layout.ts makes of them. Layout decisions are plain functions with unit tests there; this file
 * only talks to pdf.js. Laying out here keeps the ~50,000 items of a long PDF off the main thread (no
 * copy across, no garbage there) and puts the layout pass under the same time and memory limits. The thread stays up between requests (read.ts ends it when idle or past a limit), so pdf.js is
 * loaded and its code optimised once rather than per PDF; each document is destroyed after its reply. For a
 * long document read.ts may ask two threads at once, a primary and a helper (see types.ts, split).
 */
import { parentPort } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { pdfToMarkdown } from './layout.js';
import type { PdfItem, PdfRaw, PeerPages, WorkerJob, WorkerReply, WorkerRequest, WorkerWarm } from './types.js';

/** Outline entries read; refman.pdf has 1,426 (one per help topic), and they are the map of pages past the cap. */
const MAX_OUTLINE = 5_000;

/** Undefined for a helper, whose pages go to the primary (see types.ts). */
async function main(req: WorkerRequest): Promise<WorkerReply | undefined> {
  if (!req.split) return open(req);
  const peer = req.split.peer;
  if (req.split.role === 'primary') {
    try {
      return await open(req);
    } finally {
      // Closing either end closes the channel; the primary is the end that finishes last.
      peer.close();
    }
  }
  try {
    await open(req);
  } catch {
    // Whatever went wrong, the primary must not wait for pages that will not come: it reads them itself.
    peer.postMessage({ failed: true } satisfies PeerPages);
  }
  return undefined;
}

async function open(req: WorkerRequest): Promise<WorkerReply | undefined> {
  const { getDocumentProxy } = await import('unpdf');
  let doc: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    doc = await getDocumentProxy(req.data, { isEvalSupported: false, disableFontFace: true, stopAtErrors: false, verbosity: 0 });
  } catch (err) {
    // A helper's primary opens the same bytes, fails the same way and says why.
    if (req.split?.role === 'helper') throw err;
    const name = (err as { name?: string }).name ?? '';
    if (name === 'PasswordException') return { ok: false, kind: 'encrypted' };
    return { ok: false, kind: 'invalid', detail: String((err as Error).message ?? err).slice(0, 200) };
  }
  try {
    return await readDocument(doc, req);
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}

async function readDocument(doc: Awaited<ReturnType<typeof import('unpdf').getDocumentProxy>>, req: WorkerRequest): Promise<WorkerReply | undefined> {
  const total = doc.numPages;
  const first = req.firstPage ?? 1;
  if (first > total) {
    if (req.split?.role === 'helper') {
      req.split.peer.postMessage({ pages: [] } satisfies PeerPages);
      return undefined;
    }
    return { ok: false, kind: 'out-of-range', total };
  }
  const last = Math.min(total, first + req.maxPages - 1);
  const read = last - first + 1;
  const split = req.split && read >= req.split.splitMin ? req.split : undefined;
  // Interleaved rather than halves: page cost varies along a document (front matter, index), and odd and
  // even pages balance the two threads better.
  const mine = (n: number): boolean => !split || (n % 2 === 1) === (split.role === 'primary');
  if (req.split?.role === 'helper' && !split) {
    req.split.peer.postMessage({ pages: [] } satisfies PeerPages);
    return undefined;
  }
  const fromPeer = split?.role === 'primary' ? peerPages(split.peer) : undefined;
  const pages: PdfItem[][] = new Array<PdfItem[]>(read);
  for (let n = first; n <= last; n++) {
    if (!mine(n)) continue;
    pages[n - first] = await pageItems(doc, n);
  }
  if (split?.role === 'helper') {
    const mineOnly: Array<[number, PdfItem[]]> = [];
    for (let n = first; n <= last; n++) if (mine(n)) mineOnly.push([n, pages[n - first]!]);
    split.peer.postMessage({ pages: mineOnly } satisfies PeerPages);
    return undefined;
  }
  if (fromPeer) {
    const peer = await fromPeer;
    if ('pages' in peer) for (const [n, items] of peer.pages) if (n >= first && n <= last && !mine(n)) pages[n - first] = items;
  }
  // Pages the helper did not deliver (it could not open the file) are read here.
  for (let n = first; n <= last; n++) if (pages[n - first] === undefined) pages[n - first] = await pageItems(doc, n);
  return finish(doc, req, total, first, pages);
}

function peerPages(peer: MessagePort): Promise<PeerPages> {
  return new Promise((resolve) => peer.once('message', (m: PeerPages) => resolve(m)));
}

async function pageItems(doc: Awaited<ReturnType<typeof import('unpdf').getDocumentProxy>>, n: number): Promise<PdfItem[]> {
  const page = await doc.getPage(n);
  // layout.ts applies NFKC to each assembled line, a superset of pdf.js's own normalisation, so pdf.js need not
  // normalise every item first (about a tenth of the parse).
  const content = await page.getTextContent({ disableNormalization: true });
  const items: PdfItem[] = [];
  for (const it of content.items as Array<{ str?: string; transform?: number[]; width?: number; height?: number; hasEOL?: boolean }>) {
    if (typeof it.str !== 'string') continue;
    const t = it.transform ?? [1, 0, 0, 1, 0, 0];
    // The font size is the length of the text matrix's vertical axis (pdf.js reports height 0 for spaces).
    const size = Math.hypot(t[2] ?? 0, t[3] ?? 0) || it.height || 0;
    items.push([it.str, round(t[4] ?? 0), round(t[5] ?? 0), round(size), round(it.width ?? 0), it.hasEOL === true]);
  }
  page.cleanup();
  return items;
}

async function finish(doc: Awaited<ReturnType<typeof import('unpdf').getDocumentProxy>>, req: WorkerRequest, total: number, first: number, pages: PdfItem[][]): Promise<WorkerReply> {
  const outline: PdfRaw['outline'] = [];
  try {
    const tree = (await doc.getOutline()) ?? [];
    // Depth-first, in document order, without recursion: a hostile outline can nest arbitrarily deep.
    const walk = tree
      .slice()
      .reverse()
      .map((item) => ({ item, depth: 0 }));
    while (walk.length > 0 && outline.length < MAX_OUTLINE) {
      const { item, depth } = walk.pop()!;
      outline.push({ title: String(item.title ?? ''), depth: Math.min(depth, 6), page: await pageOf(doc, item.dest) });
      const kids = item.items ?? [];
      if (depth < 32) for (let i = kids.length - 1; i >= 0; i--) walk.push({ item: kids[i]!, depth: depth + 1 });
    }
  } catch {
    // An outline pdf.js cannot read is no reason to refuse the text.
  }
  let title = '';
  try {
    const meta = await doc.getMetadata();
    const info = meta.info as { Title?: unknown } | undefined;
    if (typeof info?.Title === 'string') title = info.Title;
  } catch {
    // Same: the title falls back to the URL.
  }
  return { ok: true, md: pdfToMarkdown({ total, first, pages, outline, title }, req.maxPages) };
}

async function pageOf(doc: { getDestination(id: string): Promise<unknown[] | null>; getPageIndex(ref: unknown): Promise<number> }, dest: unknown): Promise<number | undefined> {
  try {
    const explicit = typeof dest === 'string' ? await doc.getDestination(dest) : dest;
    if (!Array.isArray(explicit) || explicit.length === 0) return undefined;
    const ref = explicit[0];
    if (typeof ref === 'number') return ref + 1;
    return (await doc.getPageIndex(ref)) + 1;
  } catch {
    return undefined;
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

const port = parentPort;
if (port) {
  // The parent never reads this thread's stdout or stderr (see read.ts): pdf.js or a dependency writing
  // there would only pile up, so writes are dropped at the source.
  const silent = (): void => undefined;
  for (const k of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) console[k] = silent;
  process.stdout.write = (() => true) as typeof process.stdout.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  // read.ts sends one job at a time and waits for its reply, so jobs never overlap here.
  port.on('message', (job: WorkerJob | WorkerWarm) => {
    if ('warm' in job) {
      import('unpdf').catch(() => undefined);
      return;
    }
    main(job).then(
      (reply) => port.postMessage(reply === undefined ? { id: job.id, helperDone: true } : { id: job.id, reply }),
      (err: unknown) => port.postMessage({ id: job.id, reply: { ok: false, kind: 'invalid', detail: String((err as Error)?.message ?? err).slice(0, 200) } }),
    );
  });
}
