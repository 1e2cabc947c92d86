// The passage of a document that a search result shows: the window where most of the query's words meet.

// About what a web search engine shows of a result (some 160 characters): enough to judge it, not to read it (fetch_source reads).
const WINDOW = 160;
const MAX_HITS = 400;

function words(q: string): string[] {
  return [...new Set(q.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1))];
}

/** About WINDOW characters of `text` around the densest cluster of the query's words, whitespace collapsed. */
export function snippetOf(text: string, query: string): string {
  const terms = words(query);
  const hits: { at: number; term: number }[] = [];
  if (terms.length > 0) {
    // One case-insensitive pass over the text, stopping at MAX_HITS: no lower-cased copy of a long document.
    const any = new RegExp(terms.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'giu');
    for (let m = any.exec(text); m !== null && hits.length < MAX_HITS; m = any.exec(text)) hits.push({ at: m.index, term: terms.indexOf(m[0].toLowerCase()) });
  }
  let best = 0;
  let bestScore = -1;
  // Two pointers over the sorted hits: the start whose window holds the most distinct words.
  for (let i = 0, j = 0; i < hits.length; i++) {
    while (j < hits.length && hits[j]!.at < hits[i]!.at + WINDOW - 50) j++;
    const distinct = new Set(hits.slice(i, j).map((h) => h.term)).size;
    if (distinct > bestScore) {
      bestScore = distinct;
      best = hits[i]!.at;
    }
  }
  let start = Math.max(0, best - 40);
  let end = Math.min(text.length, start + WINDOW);
  if (start > 0) start = text.lastIndexOf(' ', start) + 1 || start;
  if (end < text.length) end = Math.max(text.indexOf(' ', end) === -1 ? end : text.indexOf(' ', end), end);
  const body = text.slice(start, Math.min(end, start + WINDOW + 30)).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}
