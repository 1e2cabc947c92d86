/**
 * The fetch stack's single entry point. Import it lazily (`await import('../fetch/pipeline.js')`): it
 * pulls in undici, linkedom, Readability and turndown, which a server that never fetches should not load.
 * url-guard, passages and untrusted stay importable on their own. The PDF reader is a further lazy step.
 */
import { extractFullText, extractReadable } from './extract.js';
import type { Extracted } from './extract.js';
import { DEFAULT_EXTRACT_TIMEOUT_MS, extractOffThread, prewarmExtraction } from './extract/off-thread.js';
import { DEFAULT_TOTAL_TIMEOUT_MS, fetchPage } from './http-fetch.js';
import type { FetchFail, FetchFailKind, FetchOk, FetchOptions } from './http-fetch.js';
import { sanitizeText } from './untrusted.js';
import type { PageRange } from '../engine/page-range.js';
import type { PdfMarkdown } from './pdf/layout.js';

export { extractFullText, extractOffThread, extractReadable, fetchPage };
export type { Extracted, FetchFail, FetchFailKind, FetchOptions };
export type { FetchOk, LookupFunction } from './http-fetch.js';

/** Readable text shorter than this is "not a source" (SPEC §4.1): an error page, a paywall, a JS shell. */
export const MIN_READABLE_CHARS = 200;

/** What reading a source yields, from the web or a local folder: its text and what is known of its shape. */
export interface ReadText {
  /** Sanitised (see untrusted.ts), as is `markdown`. */
  title: string;
  markdown: string;
  /** `content_type` as fetch_source reports it. */
  kind: 'html' | 'text' | 'pdf';
  /** For a PDF: pages stored, and pages of the file not read (past the cap, or outside the range asked for). */
  pages?: { stored: number; not_read: number; from?: number };
  /** For a PDF: its own outline (bookmarks) with page numbers, else one line per page. Sanitised. */
  outline?: string[];
  /** For a PDF read from page 1: its outline entries past the page cap. Sanitised. */
  pastCap?: string[];
  /** HTML only, when the markdown holds noticeably less than the page shows (see extract.ts). Sanitised. */
  kept?: number;
  leftOut?: string[];
  /** The page's whole visible text was asked for (`full`). */
  full?: boolean;
}

export interface ReadOk extends ReadText {
  ok: true;
  finalUrl: string;
  status: number;
  contentType: string;
  bytes: number;
  attempts: number;
  usedFallback: boolean;
  method: Extracted['method'] | 'pdf';
}

export interface ReadFail extends Omit<FetchFail, 'kind'> {
  kind: FetchFailKind | 'not-a-source';
}

/**
 * Fetches `url` (see fetchPage for the guards), extracts its readable content as markdown, strips
 * invisible characters, and refuses pages whose readable text is under 200 characters.
 */
export async function readPage(url: string, opts: FetchOptions, o: { full?: boolean; extractTimeoutMs?: number; pages?: PageRange } = {}): Promise<ReadOk | ReadFail> {
  const started = Date.now();
  // The extraction thread starts while the page downloads.
  prewarmExtraction();
  const res = await fetchPage(url, opts);
  if (!res.ok) return res;
  const left = (opts.totalTimeoutMs ?? DEFAULT_TOTAL_TIMEOUT_MS) - (Date.now() - started);
  if (res.raw !== undefined) {
    // The parse shares the call's deadline, with a few seconds at least once the bytes are in.
    return readPdfPage(res, opts, Math.max(left, 5_000), o.pages);
  }
  if (o.pages) {
    // The caller's mistake, not the site's: it does not count toward degraded mode.
    return { ok: false, kind: 'content-type', message: `${res.shownUrl} is not a PDF (${res.contentType}), and pages reads a span of a PDF: leave pages out`, status: res.status, attempts: res.attempts, reachedNetwork: false };
  }
  // Off the main thread and inside what is left of the call's deadline (see extract/off-thread.ts).
  const extracted = await extractOffThread(
    { body: res.body, contentType: res.contentType, url: res.finalUrl, ...(o.full ? { full: true } : {}) },
    { timeoutMs: Math.min(o.extractTimeoutMs ?? DEFAULT_EXTRACT_TIMEOUT_MS, Math.max(left, 2_000)) },
  );
  const markdown = sanitizeText(extracted.markdown);
  const title = sanitizeText(extracted.title).trim() || res.finalUrl;
  const readable = readableLength(markdown);
  if (readable < MIN_READABLE_CHARS) {
    return {
      ok: false,
      kind: 'not-a-source',
      message: `${res.shownUrl} has only ${readable} characters of readable text (under ${MIN_READABLE_CHARS}): probably an error page, a paywall or a page that needs JavaScript. It cannot be used as a source; skip it and read another result.`,
      status: res.status,
      attempts: res.attempts,
      reachedNetwork: true,
    };
  }
  return {
    ok: true,
    finalUrl: res.finalUrl,
    title,
    markdown,
    status: res.status,
    contentType: res.contentType,
    bytes: res.bytes,
    attempts: res.attempts,
    usedFallback: extracted.usedFallback,
    method: extracted.method,
    kind: res.contentType === 'text/html' || res.contentType === 'application/xhtml+xml' ? 'html' : 'text',
    ...(extracted.kept !== undefined ? { kept: extracted.kept, leftOut: (extracted.leftOut ?? []).map((h) => sanitizeText(h)) } : {}),
    ...(o.full ? { full: true } : {}),
  };
}

async function readPdfPage(res: FetchOk & { raw?: Uint8Array }, opts: FetchOptions, leftMs: number, range?: PageRange): Promise<ReadOk | ReadFail> {
  opts.onProgress?.(`Reading the PDF (${Math.round(res.bytes / 1024)} KiB)`);
  // The PDF reader (and pdf.js, inside its worker) load only when a PDF arrives.
  const { readPdf } = await import('./pdf/read.js');
  const where = res.shownUrl;
  const pdf = await readPdf(res.raw ?? new Uint8Array(), where, { leftMs, ...(opts.pdfTimeoutMs !== undefined ? { timeoutMs: opts.pdfTimeoutMs } : {}), ...rangeRead(range) });
  const base = { status: res.status, attempts: res.attempts, reachedNetwork: true } as const;
  if (!pdf.ok) return { ok: false, kind: 'content-type', message: pdf.message, ...base, ...(pdf.reason === 'out-of-range' ? { reachedNetwork: false } : {}) };
  const markdown = sanitizeText(pdf.markdown);
  const readable = readableLength(markdown.replace(/^<!-- page \d+ -->$/gm, ''));
  if (readable < MIN_READABLE_CHARS) {
    return {
      ok: false,
      kind: 'not-a-source',
      message: `${where} is a PDF of ${pdf.pages} page${pdf.pages === 1 ? '' : 's'} with only ${readable} characters of text (under ${MIN_READABLE_CHARS}): it has no text layer (scanned pages or images), so it cannot be read as a source. Skip it or find a text version.`,
      ...base,
    };
  }
  return {
    ok: true,
    finalUrl: res.finalUrl,
    title: sanitizeText(pdf.title).trim() || res.finalUrl,
    markdown,
    status: res.status,
    contentType: res.contentType,
    bytes: res.bytes,
    attempts: res.attempts,
    usedFallback: false,
    method: 'pdf',
    kind: 'pdf',
    ...pdfFields(pdf, sanitizeText),
  };
}

/** What readPdf is asked for a span of pages; nothing for a read from page 1 up to the cap. */
export function rangeRead(range: PageRange | undefined): { firstPage?: number; maxPages?: number } {
  return range ? { firstPage: range.from, maxPages: range.to - range.from + 1 } : {};
}

/** A read PDF's pages, outline and map past the cap as a source carries them (a web page's or a local file's). */
export function pdfFields(pdf: PdfMarkdown, sanitize: (s: string) => string): Pick<ReadOk, 'pages' | 'outline' | 'pastCap'> {
  return {
    pages: { stored: pdf.pages, not_read: pdf.notRead, ...(pdf.first !== 1 ? { from: pdf.first } : {}) },
    outline: pdf.outline.map((l) => sanitize(l)),
    ...(pdf.pastCap.length > 0 ? { pastCap: pdf.pastCap.map((l) => sanitize(l)) } : {}),
  };
}

/**
 * Characters a reader would see: images and link targets dropped, list, quote and heading markers,
 * emphasis and table pipes removed, whitespace runs collapsed. Line by line with bounded patterns, since
 * the text is whatever the page sent.
 */
export function readableLength(markdown: string): number {
  let total = 0;
  for (const raw of markdown.split('\n')) {
    let line = raw.length > 20_000 ? raw : raw.replace(/!\[[^\]\n]{0,1000}\]\([^)\n]{0,4096}\)/g, '').replace(/\[([^\]\n]{0,1000})\]\([^)\n]{0,4096}\)/g, '$1');
    line = line.trim().replace(/^(#{1,6}|[-*+]|\d{1,9}[.)]|>)(?=\s|$)/, '');
    if (/^[\s:|-]*$/.test(line)) continue; // blank lines, rules and table separators
    line = line.replace(/[*_`|\\]/g, '').replace(/\s+/g, ' ').trim();
    if (line === '') continue;
    total += Array.from(line).length + (total > 0 ? 1 : 0);
  }
  return total;
}
