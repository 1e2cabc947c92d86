/**
 * The fetch stack's single entry point. Import it lazily (`await import('../fetch/pipeline.js')`): it
 * pulls in undici, linkedom, Readability and turndown, which a server that never fetches should not load.
 * url-guard, passages and untrusted stay importable on their own.
 */
import { extractReadable } from './extract.js';
import type { Extracted } from './extract.js';
import { fetchPage } from './http-fetch.js';
import type { FetchFail, FetchFailKind, FetchOptions } from './http-fetch.js';
import { sanitizeText } from './untrusted.js';

export { extractReadable, fetchPage };
export type { Extracted, FetchFail, FetchFailKind, FetchOptions };
export type { FetchOk, LookupFunction } from './http-fetch.js';

/** Readable text shorter than this is "not a source" (SPEC §4.1): an error page, a paywall, a JS shell. */
export const MIN_READABLE_CHARS = 200;

export interface ReadOk {
  ok: true;
  finalUrl: string;
  /** Sanitised (see untrusted.ts), as is `markdown`. */
  title: string;
  markdown: string;
  status: number;
  contentType: string;
  bytes: number;
  attempts: number;
  usedFallback: boolean;
  method: Extracted['method'];
}

export interface ReadFail extends Omit<FetchFail, 'kind'> {
  kind: FetchFailKind | 'not-a-source';
}

/**
 * Fetches `url` (see fetchPage for the guards), extracts its readable content as markdown, strips
 * invisible characters, and refuses pages whose readable text is under 200 characters.
 */
export async function readPage(url: string, opts: FetchOptions): Promise<ReadOk | ReadFail> {
  const res = await fetchPage(url, opts);
  if (!res.ok) return res;
  const extracted = extractReadable(res.body, res.contentType, res.finalUrl);
  const markdown = sanitizeText(extracted.markdown);
  const title = sanitizeText(extracted.title).trim() || res.finalUrl;
  const readable = readableLength(markdown);
  if (readable < MIN_READABLE_CHARS) {
    return {
      ok: false,
      kind: 'not-a-source',
      message: `${res.finalUrl} has only ${readable} characters of readable text (under ${MIN_READABLE_CHARS}): probably an error page, a paywall or a page that needs JavaScript. It cannot be used as a source; skip it and read another result.`,
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
