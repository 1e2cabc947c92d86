// fetch_source's `pages`: a span of a long PDF read as its own source, and the reply's map of the pages a
// source does not hold (the PDF's outline entries past the cap, picked by focus).
import * as z from 'zod';
import { MAX_RANGE_PAGES, rangeOf, rangeProblem, withoutRange, withRange, type PageRange } from '../engine/page-range.js';
import type { StoredSource } from '../store/run-store.js';

/** Outline entries past the cap shown in one reply. */
const MAP_ENTRIES = 12;

// fetch_source's schemas call these on its first use (see defineTool).
const page = () => z.number().int().min(1);

export const pagesInput = () =>
  z
    .object({
      from: page(),
      to: page(),
    })
    .strict()
    .describe(`PDF: pages from–to (as p. N; max ${MAX_RANGE_PAGES}) as a source of their own.`);

export const morePagesOutput = () =>
  z
    .object({
      outline: z.string().optional(),
      entries: z.number().optional(),
      next_step: z.string(),
    })
    .optional();

export const pagesOutput = () => z.object({ stored: z.number(), not_read: z.number(), from: z.number().optional(), to: z.number().optional() }).optional();

export type Span = { range?: PageRange; url: string } | { problem: string };

/** The range asked for (`pages`, else a `#pages=` fragment of the url) and the url to fetch for it. */
export function spanOf(pages: PageRange | undefined, url: string): Span {
  const range = pages ?? rangeOf(url.trim());
  if (!range) return { url };
  const problem = rangeProblem(range);
  return problem ? { problem } : { range, url: withoutRange(url.trim()) };
}

/** The key of a range source; the key itself for a whole read. */
export function spanKey(key: string, range: PageRange | undefined): string {
  return range ? withRange(key, range) : key;
}

/** Why the range need not be read, judged from the source of the same PDF read from page 1; undefined when it must. */
export function alreadyHeld(main: StoredSource | undefined, r: PageRange): string | undefined {
  if (!main || main.content_type !== 'pdf' || main.page_from !== undefined) return undefined;
  const stored = main.pages ?? 0;
  const total = stored + (main.pages_not_read ?? 0);
  if (r.from > total) return `pages: the PDF has ${total} pages, so {from: ${r.from}} is past its end; ask for pages between 1 and ${total}`;
  if (r.to <= stored) return `pages ${r.from}-${r.to} are in ${main.id} already (it holds pages 1-${stored}): read them there with focus or start_index, and use pages for pages past ${stored}`;
  return undefined;
}

/** A PDF source's pages as the reply gives them. */
export function pagesOf(s: StoredSource): { stored: number; not_read: number; from?: number; to?: number } {
  const stored = s.pages ?? 0;
  const out: { stored: number; not_read: number; from?: number; to?: number } = { stored, not_read: s.pages_not_read ?? 0 };
  if (s.page_from !== undefined) Object.assign(out, { from: s.page_from, to: s.page_from + stored - 1 });
  return out;
}

/**
 * How to reach the pages a PDF source does not hold: for a read from page 1 past the cap, the outline
 * entries there that match focus (else the top-level ones), fenced as page text; for a span, where the rest is.
 * Only a focus changes the answer, so without one it comes on the reader's first read only (reply economy).
 */
export function morePages(s: StoredSource, o: { focus: string | undefined; first: boolean }, fence: (t: string) => string, match: (entries: readonly string[], focus: string | undefined, limit: number) => string[]): { outline?: string; entries?: number; next_step: string } | undefined {
  const focus = o.focus?.trim() ? o.focus : undefined;
  if (s.content_type !== 'pdf' || (!o.first && (focus === undefined || s.page_from !== undefined))) return undefined;
  const stored = s.pages ?? 0;
  const total = stored + (s.pages_not_read ?? 0);
  const how = `fetch_source with the same url and pages: {from, to}, at most ${MAX_RANGE_PAGES} pages a call, stores them as a source of their own`;
  if (s.page_from !== undefined) {
    return { next_step: `This source holds pages ${s.page_from}-${s.page_from + stored - 1} of ${total}. For others, ${how}.` };
  }
  if (stored >= total) return undefined;
  const entries = s.outline_past_cap ?? [];
  const picked = match(entries, focus, MAP_ENTRIES);
  const which = focus !== undefined ? (picked.length > 0 ? 'outline holds the entries there that match focus' : 'no outline entry there matches focus') : 'outline holds the top-level entries there; a focus picks the entries that match it';
  return {
    ...(picked.length > 0 ? { outline: fence(picked.join('\n')) } : {}),
    ...(entries.length > 0 ? { entries: entries.length } : {}),
    next_step: `Pages ${stored + 1}-${total} were not read (page cap)${entries.length > 0 ? `; ${which}` : ''}. To read a span, ${how}.`,
  };
}
