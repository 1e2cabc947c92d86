// The passage of a document that a search result shows: the window where most of the query's words meet.

// About what a web search engine shows of a result (some 160 characters): enough to judge it, not to read it (fetch_source reads).
const WINDOW = 160;
const MAX_HITS = 400;
/** Matches looked at in all, hits or skipped: a long contents section cannot make a search scan the whole text. */
const MAX_SEEN = 4_000;
/** A contents entry's dot leader before its page number: ". . . . 124" or "....124". */
const LEADER = /(?:\.[ \t]?){4,}[ \t]*\d+[ \t]*$/;

function onLeaderLine(text: string, at: number): boolean {
  const from = text.lastIndexOf('\n', at) + 1;
  const nl = text.indexOf('\n', at);
  const line = text.slice(from, nl === -1 ? Math.min(text.length, at + 400) : Math.min(nl, at + 400));
  return LEADER.test(line);
}

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
    let seen = 0;
    for (let m = any.exec(text); m !== null && hits.length < MAX_HITS && seen < MAX_SEEN; m = any.exec(text)) {
      seen += 1;
      // A table of contents names every topic, so the first hits of a manual were all in it (trial 64's
      // policy.pdf snippet was dot leaders on every search): a line with a dot leader is no passage to show.
      if (onLeaderLine(text, m.index)) continue;
      hits.push({ at: m.index, term: terms.indexOf(m[0].toLowerCase()) });
    }
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
