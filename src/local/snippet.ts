// The passage of a document that a search result shows: the window where most of the query's words meet.

const WINDOW = 320;

function words(q: string): string[] {
  return [...new Set(q.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1))];
}

/** About WINDOW characters of `text` around the densest cluster of the query's words, whitespace collapsed. */
export function snippetOf(text: string, query: string): string {
  const terms = words(query);
  const lower = text.toLowerCase();
  const hits: { at: number; term: number }[] = [];
  terms.forEach((t, term) => {
    for (let at = lower.indexOf(t), n = 0; at !== -1 && n < 200; at = lower.indexOf(t, at + t.length), n++) hits.push({ at, term });
  });
  hits.sort((a, b) => a.at - b.at);
  let best = 0;
  let bestScore = -1;
  // Two pointers over the sorted hits: the start whose window holds the most distinct words.
  for (let i = 0, j = 0; i < hits.length; i++) {
    while (j < hits.length && hits[j]!.at < hits[i]!.at + WINDOW - 80) j++;
    const distinct = new Set(hits.slice(i, j).map((h) => h.term)).size;
    if (distinct > bestScore) {
      bestScore = distinct;
      best = hits[i]!.at;
    }
  }
  let start = Math.max(0, best - 60);
  let end = Math.min(text.length, start + WINDOW);
  if (start > 0) start = text.lastIndexOf(' ', start) + 1 || start;
  if (end < text.length) end = Math.max(text.indexOf(' ', end) === -1 ? end : text.indexOf(' ', end), end);
  const body = text.slice(start, Math.min(end, start + WINDOW + 40)).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}
