/**
 * Word-level scoring shared by the extraction benchmark and its tests: lower-cased, split on anything
 * that is not a Unicode letter or digit, compared as multisets.
 */
export function words(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
}

export interface WordScore {
  recall: number;
  precision: number;
  f1: number;
}

export function wordScore(output: string, expected: string): WordScore {
  const want = new Map<string, number>();
  for (const w of words(expected)) want.set(w, (want.get(w) ?? 0) + 1);
  const got = words(output);
  let overlap = 0;
  for (const w of got) {
    const n = want.get(w) ?? 0;
    if (n > 0) {
      overlap++;
      want.set(w, n - 1);
    }
  }
  const expectedCount = words(expected).length;
  const recall = expectedCount === 0 ? 1 : overlap / expectedCount;
  const precision = got.length === 0 ? (expectedCount === 0 ? 1 : 0) : overlap / got.length;
  const f1 = recall + precision === 0 ? 0 : (2 * recall * precision) / (recall + precision);
  return { recall, precision, f1 };
}

/**
 * What a reader sees of a markdown string: link and image targets removed, so that neither pipeline is
 * charged for URLs the ground truth never contains.
 */
export function visibleText(markdown: string): string {
  return markdown
    .replace(/!\[([^\]]*)\]\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)/g, '$1')
    .replace(/\]\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)/g, ']')
    .replace(/<https?:[^>\s]*>/g, ' ');
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}
