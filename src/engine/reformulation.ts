import { isStopWord, terms } from './text.js';

export const REFORMULATION_MIN_CHANGE = 0.5;
export const REPEAT_SIMILARITY = 0.85;

/** A query's distinct content terms, in first-seen order: lower-cased, English stop words removed. */
export function queryTerms(q: string): string[] {
  return [...new Set(terms(q).filter((t) => !isStopWord(t)))];
}

/** 1 − |shared terms| / |terms of previous|; a previous query with no terms counts as fully changed. */
export function termChangeRatio(previous: string, next: string): number {
  const before = queryTerms(previous);
  if (before.length === 0) return 1;
  const after = new Set(queryTerms(next));
  const shared = before.filter((t) => after.has(t)).length;
  return 1 - shared / before.length;
}

/** Jaccard similarity of two queries' term sets; two queries without terms are identical. */
export function jaccard(a: string, b: string): number {
  const left = new Set(queryTerms(a));
  const right = new Set(queryTerms(b));
  if (left.size === 0 && right.size === 0) return 1;
  let shared = 0;
  for (const t of left) if (right.has(t)) shared++;
  return shared / (left.size + right.size - shared);
}

export interface QueryCheck {
  repeat: boolean;
  /** Term-change ratio against `reformulateFrom`, when a reformulation was required. */
  changeRatio?: number;
  reformulated?: boolean;
  warnings: string[];
}

// Rounded down, so a value just under a limit never prints as the limit itself.
const hundredths = (x: number): number => Math.floor(x * 100 + 1e-9);
const pct = (x: number): string => `${hundredths(x)}%`;
const ratioText = (x: number): string => (hundredths(x) / 100).toFixed(2);

/**
 * SPEC 4.1 reformulation check. Never refuses: a repeat or a too-small reformulation is only warned
 * about, and the caller records it.
 */
export function checkQuery(i: {
  query: string;
  earlierQueries: readonly string[];
  reformulateFrom?: string;
}): QueryCheck {
  const warnings: string[] = [];

  let closest: { query: string; similarity: number } | undefined;
  for (const earlier of i.earlierQueries) {
    const similarity = jaccard(i.query, earlier);
    if (similarity >= REPEAT_SIMILARITY && (!closest || similarity > closest.similarity)) {
      closest = { query: earlier, similarity };
    }
  }
  if (closest) {
    warnings.push(
      `query repeats the earlier query "${closest.query}" (${pct(closest.similarity)} of terms alike, ` +
        `limit ${pct(REPEAT_SIMILARITY)}): search with different terms`,
    );
  }

  const result: QueryCheck = { repeat: closest !== undefined, warnings };
  if (i.reformulateFrom !== undefined) {
    const ratio = termChangeRatio(i.reformulateFrom, i.query);
    result.changeRatio = ratio;
    result.reformulated = ratio >= REFORMULATION_MIN_CHANGE;
    if (!result.reformulated) {
      warnings.push(
        `reformulation required: term-change ratio ${ratioText(ratio)} against "${i.reformulateFrom}" ` +
          `(${pct(ratio)} of its terms changed, at least ${pct(REFORMULATION_MIN_CHANGE)} must): ` +
          `replace more of the previous query's terms`,
      );
    }
  }
  return result;
}
