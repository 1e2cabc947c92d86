// A span of a long PDF read as its own source (fetch_source `pages`): the range's spelling in urls and keys,
// and its limits. No imports: canonical-url.ts, in the server's start graph, uses it.

/**
 * Pages one call may read. refman.pdf (R's reference manual) parses at about 50 pages a second on a
 * loaded two-core machine, so a span this long stays well inside the parse time limit.
 */
export const MAX_RANGE_PAGES = 50;

export interface PageRange {
  from: number;
  to: number;
}

/** `#pages=FROM-TO` at the end of a url or key names a range source; any other fragment is no range. */
const FRAGMENT = /#pages=([1-9][0-9]{0,5})-([1-9][0-9]{0,5})$/;

export function rangeOf(urlOrKey: string): PageRange | undefined {
  const m = FRAGMENT.exec(urlOrKey);
  return m ? { from: Number(m[1]), to: Number(m[2]) } : undefined;
}

/** The url or key without its range fragment. */
export function withoutRange(urlOrKey: string): string {
  return urlOrKey.replace(FRAGMENT, '');
}

/** The url or key of the range source; any fragment the url had is replaced. */
export function withRange(urlOrKey: string, r: PageRange): string {
  return `${withoutRange(urlOrKey).replace(/#.*$/s, '')}#pages=${r.from}-${r.to}`;
}

/** Why a requested range cannot be read, said so the caller can fix it; undefined when it can. */
export function rangeProblem(r: PageRange): string | undefined {
  if (r.to < r.from) return `pages: "to" (${r.to}) is before "from" (${r.from}); give from ≤ to, e.g. {from: ${r.to}, to: ${r.from}}`;
  const n = r.to - r.from + 1;
  if (n > MAX_RANGE_PAGES) return `pages: ${r.from}-${r.to} is ${n} pages, more than the ${MAX_RANGE_PAGES} one call reads; ask for {from: ${r.from}, to: ${r.from + MAX_RANGE_PAGES - 1}} and read on from there`;
  return undefined;
}

/**
 * A span source's title: what a reviewer reads in the report's Sources list. The first heading on a span's
 * first page is whatever section of a help topic the span starts in ("See Also", "Value": trial 10), so the
 * title names the document, the pages, and the outline entries (help topics) that start in them.
 */
export function spanTitle(document: string, r: PageRange, outline: readonly string[]): string {
  const topics = outline
    .map((e) => /^\s*(.*?)\s*\(p\. (\d+)\)$/.exec(e))
    .filter((m): m is RegExpExecArray => m !== null && Number(m[2]) >= r.from && Number(m[2]) <= r.to)
    .map((m) => m[1] as string)
    .filter((t) => t !== '');
  const shown = topics.slice(0, 3).join(', ') + (topics.length > 3 ? ', …' : '');
  return `${document}, pages ${r.from}–${r.to}${shown ? `: ${shown}` : ''}`;
}
