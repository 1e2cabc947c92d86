/**
 * The worker's input and answer, and the raw text items it hands layout.ts. Arrays, not objects, for items:
 * a 300-page PDF has ~50,000 of them.
 */
import type { PdfMarkdown } from './layout.js';

/** [text, x, y, font size, width, ends a line] in PDF user space (y grows upward). */
export type PdfItem = [string, number, number, number, number, boolean];

export interface PdfRaw {
  /** Pages in the file; `pages` holds the first `min(total, maxPages)`. */
  total: number;
  pages: PdfItem[][];
  outline: Array<{ title: string; depth: number; page?: number }>;
  /** The document's own title (Info dictionary), often empty or a file name. */
  title: string;
}

export interface WorkerRequest {
  data: Uint8Array;
  maxPages: number;
}

export type WorkerReply = { ok: true; md: PdfMarkdown } | { ok: false; kind: 'encrypted' | 'invalid'; detail?: string };

/** One request as posted to the long-lived worker, and its answer, matched by `id`. */
export type WorkerJob = WorkerRequest & { id: number };
export interface WorkerAnswer {
  id: number;
  reply: WorkerReply;
}
