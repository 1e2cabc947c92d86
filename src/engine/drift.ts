// Drift (SPEC 4.1): is a fetched result about this thread at all, before any fact is taken from it?
import { countriesMentioned, expandRegions } from './gazetteer.js';
import { isStopWord, terms } from './text.js';
import type { DriftSignal } from './types.js';

export { terms } from './text.js';

export { DRIFT_STREAK_LIMIT, driftAction, nextDriftStreak } from './drift-streak.js';

/** Temporal drift from mentioned years needs them this many years clear of the period. */
const YEAR_SLACK = 5;

const letters = (t: string): number => (t.match(/\p{L}/gu) ?? []).length;

/** Sub-question words of 4+ letters that are not English stop words, deduplicated. */
export function keyTerms(subQuestions: readonly string[]): string[] {
  const out = new Set<string>();
  for (const q of subQuestions) for (const t of terms(q)) if (letters(t) >= 4 && !isStopWord(t)) out.add(t);
  return [...out];
}

export interface DriftInput {
  text: string;
  title?: string;
  /** Publication year, when the page states one. */
  published?: number;
  subjects: readonly string[];
  subQuestions: readonly string[];
  include: readonly string[];
  exclude: readonly string[];
  scope?: { regions?: readonly string[]; period?: { from: number; to: number } };
}

export interface DriftResult {
  drift: boolean;
  signals: DriftSignal[];
}

/** Positions of every term, so each phrase is counted without rescanning the page. */
function indexTerms(words: readonly string[]): Map<string, number[]> {
  const index = new Map<string, number[]>();
  words.forEach((w, at) => {
    const list = index.get(w);
    if (list) list.push(at);
    else index.set(w, [at]);
  });
  return index;
}

/** Whole-word occurrences of a phrase (its terms in sequence), case-insensitive. */
function occurrences(words: readonly string[], index: Map<string, number[]>, phrase: readonly string[]): number {
  const first = phrase[0];
  if (first === undefined) return 0;
  let n = 0;
  for (const at of index.get(first) ?? []) {
    if (phrase.every((t, k) => words[at + k] === t)) n++;
  }
  return n;
}

function isYear(t: string): boolean {
  return /^(19|20)\d\d$/.test(t);
}

export function assessDrift(i: DriftInput): DriftResult {
  const words = terms(i.title === undefined ? i.text : `${i.title}\n${i.text}`);
  const index = indexTerms(words);
  const count = (phrases: readonly string[]): number =>
    phrases.reduce((sum, p) => sum + occurrences(words, index, terms(p)), 0);
  const signals: DriftSignal[] = [];

  // With nothing to look for there is nothing to miss, so an empty thread never drifts on subject.
  const wanted = [...i.subjects, ...i.include, ...keyTerms(i.subQuestions)].filter((p) => terms(p).length > 0);
  if (wanted.length > 0 && count(wanted) === 0) signals.push('subject');

  if (i.exclude.length > 0 && count(i.exclude) > count(i.include)) signals.push('domain');

  const period = i.scope?.period;
  if (period) {
    if (i.published !== undefined) {
      if (i.published < period.from || i.published > period.to) signals.push('temporal');
    } else {
      const years = words.filter(isYear).map(Number);
      const farOutside = (y: number): boolean => y < period.from - YEAR_SLACK || y > period.to + YEAR_SLACK;
      if (years.length > 0 && years.every(farOutside)) signals.push('temporal');
    }
  }

  const regions = i.scope?.regions;
  if (regions && regions.length > 0) {
    const inScope = expandRegions(regions);
    // Scope regions the gazetteer cannot place give nothing to compare against; no signal then.
    if (inScope.size > 0) {
      const named = [...countriesMentioned(i.title === undefined ? i.text : `${i.title}\n${i.text}`)];
      if (named.length > 0 && !named.some((c) => inScope.has(c))) signals.push('geographic');
    }
  }

  return { drift: signals.length > 0, signals };
}
