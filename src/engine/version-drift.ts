// Version drift (SPEC 11.1 drift, measured): when the run names the release it is about ("Python 3.11",
// "Git 2.39", "R 4.4"), a page whose opening names another release of that product is about that release:
// a 4.2.2 manual served under an r-release URL, the 3.4 release notes found for a 3.11 question.

/** A product name and release: a word, then optionally "version" / "release" / "v", then d.d[.d…]. */
const NAMED = /(?<![\p{L}\p{N}.])([\p{L}][\p{L}\p{N}+#-]*)[\s,:(]+(?:(?:version|release|ver\.?)\s+)?v?(\d+(?:\.\d+)+)(?![\p{N}]|\.\d)/giu;

/** How much of a page is its opening: its title, first heading and first lines say what it is about. */
const OPENING_CHARS = 600;

/** Words before a number that name no product ("in 3.11", "since 2.0", "Python version 3.11" is caught whole). */
const NOT_PRODUCTS = new Set(['in', 'since', 'to', 'from', 'and', 'or', 'of', 'the', 'than', 'version', 'versions', 'release', 'releases', 'ver', 'v', 'is', 'was', 'on', 'at', 'new', 'changed', 'deprecated', 'added', 'removed', 'page', 'section', 'chapter', 'figure', 'table', 'step', 'rfc', 'pep', 'before', 'after', 'until', 'by', 'for', 'with', 'as', 'between', 'through', 'vs', 'versus', 'current', 'latest', 'later', 'earlier', 'older', 'newer']);

/** Words that put a release in a page's history, just before its name ("What's New In" does not). */
const HISTORY_BEFORE = /\b(?:as of|since|from|until|till|before|after|prior to|starting (?:with|from|in)|up to|(?:added|deprecated|removed|changed|introduced|fixed) in)\s*$/i;

export interface Release {
  product: string;
  version: string;
}

function productKey(word: string): string {
  // A one- or two-letter name ("R", "Go") keeps its case: "r 4.4" in a path is not R.
  return word.length <= 2 ? word : word.toLowerCase();
}

/** The releases a text names, in order: "Python 3.11", "Git v2.39", "R, version 4.2.2". */
export function releasesNamed(text: string): (Release & { at: number })[] {
  const out: (Release & { at: number })[] = [];
  for (const m of text.matchAll(NAMED)) {
    const word = m[1] ?? '';
    if (NOT_PRODUCTS.has(word.toLowerCase())) continue;
    out.push({ product: productKey(word), version: m[2] ?? '', at: m.index ?? 0 });
  }
  return out;
}

/** The releases the run is about, by product; empty when it names none ("latest" alone names none). */
export function targetReleases(context: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const text of context) {
    for (const r of releasesNamed(text)) {
      const list = out.get(r.product) ?? [];
      if (!list.includes(r.version)) list.push(r.version);
      out.set(r.product, list);
    }
  }
  return out;
}

/** 3.11 matches 3.11.2 and 3; 3.11 does not match 3.4 or 3.1. */
export function sameRelease(a: string, b: string): boolean {
  const x = a.split('.');
  const y = b.split('.');
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (Number(x[i]) !== Number(y[i])) return false;
  return true;
}

/**
 * The page is about another release when the first release of a target product that its opening names
 * is not a target release; also when its opening is a manual's version stamp ("Version 4.2.2", on a line of
 * its own) and names a target product. Later mentions ("new in 3.4", a history section) do not count.
 */
export function otherRelease(text: string, targets: ReadonlyMap<string, readonly string[]>): Release | undefined {
  if (targets.size === 0) return undefined;
  const opening = text.slice(0, OPENING_CHARS);
  // A release named as history ("As of R 4.0.0 .Traceback contains…", on a span of a manual that opens
  // mid-page) dates a change; the page is not about that release (trial 25 was told to skip R 4.2.2's help).
  const first = releasesNamed(opening).find((r) => targets.has(r.product) && !HISTORY_BEFORE.test(opening.slice(Math.max(0, r.at - 24), r.at)));
  if (first) return (targets.get(first.product) ?? []).some((v) => sameRelease(v, first.version)) ? undefined : first;
  const stamp = /^\s*(?:version|release)\s+v?(\d+(?:\.\d+)+)/im.exec(opening);
  if (!stamp) return undefined;
  for (const [product, versions] of targets) {
    const named = new RegExp(`(?<![\\p{L}\\p{N}])${product.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, product.length <= 2 ? 'u' : 'iu');
    if (!named.test(opening)) continue;
    const version = stamp[1] ?? '';
    return versions.some((v) => sameRelease(v, version)) ? undefined : { product, version };
  }
  return undefined;
}
