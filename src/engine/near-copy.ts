/**
 * Whether two snippets are the same text in two editions of one document: a Sphinx page and its
 * `_sources/*.rst.txt`, an HTML manual and its PDF (trial 15: eight search results held four documents).
 * Compared as sets of words, so markup (``code``, *emphasis*, escapes) does not tell them apart; by the
 * share of the smaller set, since each snippet is a window that may start and end a few words apart.
 */
const SAME_WORDS = 0.8;

function words(s: string): Set<string> {
  return new Set(s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

export function isNearCopy(a: string, b: string): boolean {
  const x = words(a);
  const y = words(b);
  if (x.size === 0 || y.size === 0) return false;
  let both = 0;
  for (const w of x) if (y.has(w)) both += 1;
  return both / Math.min(x.size, y.size) >= SAME_WORDS;
}

/**
 * Which edition of one document a result list keeps: a rendered page (HTML) over its PDF, and either over
 * a source text (`_sources/*.rst.txt`, plain text), which has no title or structure to read by (trial 21
 * was given the reST source of the chapter it asked for and had to guess the page's path). Lower is better.
 */
export function editionRank(url: string): number {
  const path = url.replace(/[?#].*$/s, '').toLowerCase().replace(/\.gz$/, '');
  if (/\.x?html?$/.test(path)) return 0;
  if (path.endsWith('.pdf')) return 1;
  return 2;
}

/** A document's name without folders and extensions: `ch-sharedlibs` for `…/ch-sharedlibs.html` and `…/_sources/ch-sharedlibs.rst.txt`. */
export function documentStem(url: string): string {
  const last = url.replace(/[?#].*$/s, '').split('/').pop() ?? '';
  return last.replace(/\..*$/s, '').toLowerCase();
}

/**
 * The stored sources that are a lesser edition of another stored one: same origin, same document name, a
 * worse edition by `editionRank`, and near-copy text. Passages ranked over both would show each twice in
 * other markup (trial 30's coverage listed a Policy chapter's HTML and its .rst.txt side by side).
 */
export function lesserEditions(sources: readonly { id: string; url: string; origin: string; markdown: string }[]): Set<string> {
  const out = new Set<string>();
  for (const a of sources) {
    for (const b of sources) {
      if (a === b || out.has(b.id) || a.origin !== b.origin || documentStem(a.url) !== documentStem(b.url) || documentStem(a.url) === '') continue;
      if (editionRank(a.url) <= editionRank(b.url)) continue;
      if (isNearCopy(a.markdown, b.markdown)) {
        out.add(a.id);
        break;
      }
    }
  }
  return out;
}
