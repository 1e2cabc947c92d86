/**
 * The worker's input and answer, and the raw text items it hands layout.ts. Arrays, not objects, for items:
 * a 300-page PDF has ~50,000 of them.
 */
import type { MessagePort } from 'node:worker_threads';
import type { PdfMarkdown } from './layout.js';

/** [text, x, y, font size, width, ends a line] in PDF user space (y grows upward). */
export type PdfItem = [string, number, number, number, number, boolean];

export interface PdfRaw {
  /** Pages in the file; `pages` holds up to `maxPages` of them from page `first`. */
  total: number;
  /** The number of `pages[0]` in the file (1 unless a range was asked for). */
  first?: number;
  pages: PdfItem[][];
  outline: Array<{ title: string; depth: number; page?: number }>;
  /** The document's own title (Info dictionary), often empty or a file name. */
  title: string;
}

export interface WorkerRequest {
  data: Uint8Array;
  maxPages: number;
  /** Read from this page (1-based) on: a span of a long document (fetch_source `pages`). */
  firstPage?: number;
  /**
   * One document read by two threads (see read.ts): each opens it, the helper reads the even pages and
   * posts their items to the primary through `peer`, the primary reads the odd ones, merges both in page
   * order and lays them out (running headers, footers and hyphen joins need every page together).
   * Documents under `splitMin` pages are read whole by the primary.
   */
  split?: { role: 'primary' | 'helper'; peer: MessagePort; splitMin: number };
}

/** What the helper posts to the primary: the items of its pages, or nothing when it could not open the file. */
export type PeerPages = { pages: Array<[number, PdfItem[]]> } | { failed: true };

export type WorkerReply = { ok: true; md: PdfMarkdown } | { ok: false; kind: 'encrypted' | 'invalid'; detail?: string } | { ok: false; kind: 'out-of-range'; total: number };

/** One request as posted to the long-lived worker, and its answer, matched by `id`. */
export type WorkerJob = WorkerRequest & { id: number };
/** Load pdf.js now, before the first job arrives (see read.ts, prewarmPdf); no answer. */
export interface WorkerWarm {
  warm: true;
}
export interface WorkerAnswer {
  id: number;
  /** The primary's (or a lone thread's) answer; a helper answers `{ id, helperDone: true }`. */
  reply?: WorkerReply;
  helperDone?: true;
}
