// Drift (SPEC 4.1, and 11.1 drift, measured: bench/drift.ts): is a fetched result about this thread, and
// about the release the run names, before any fact is taken from it?
import { countriesMentioned, expandRegions } from './gazetteer.js';
import { plainTextProjection } from './grounding.js';
import { isStopWord, terms } from './text.js';
import type { DriftSignal } from './types.js';
import { otherRelease, targetReleases } from './version-drift.js';
import { upperBound } from './sorted.js';

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
  /**
   * Where the run names the release it is about: the question, the brief's assumptions, known facts and
   * include terms, the thread's subjects and sub-questions ("Python 3.11", "Git 2.39", "R 4.4").
   */
  versionContext?: readonly string[];
}

export interface DriftResult {
  drift: boolean;
  signals: DriftSignal[];
  /** With a domain signal: how often the page names each excluded term, and the thread's own terms. */
  excluded?: { term: string; count: number }[];
  stated?: number;
}

/**
 * A subject or include phrase is stated where all its words (in any order) fall within this many words of
 * each other: "maintainer scripts" in "the scripts a maintainer ships", "git rebase" in "rebase … with
 * git". Matching the phrase only as written missed such pages; matching any one word of it let a page on
 * something else through on a common word ("scripts", "branches").
 */
const PHRASE_WINDOW = 8;

interface Page {
  /** The words, lower-cased, in text order. */
  words: string[];
  /** The words as written, for words of 1–2 letters, which match only in the case written ("R"). */
  raw: string[];
  /** Where each word starts in the text, ascending. */
  starts: number[];
  at: Map<string, number[]>;
  text: string;
}

function readPage(text: string): Page {
  const raw: string[] = [];
  const starts: number[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    raw.push(m[0]);
    starts.push(m.index ?? 0);
  }
  const words = raw.map((t) => t.toLowerCase());
  const at = new Map<string, number[]>();
  words.forEach((w, i) => {
    const list = at.get(w);
    if (list) list.push(i);
    else at.set(w, [i]);
  });
  return { words, raw, starts, at, text };
}

/**
 * A phrase's words to look for: its content words (all of them when it has none, "The Who"). A word
 * joined by dots or underscores ("read.csv", "wal_autocheckpoint") is a name and is looked for whole.
 */
function phraseWords(phrase: string): string[] {
  const words = phrase
    .split(/\s+/)
    .flatMap((w) => {
      const t = w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
      return /^[\p{L}\p{N}]+(?:[._][\p{L}\p{N}]+)+$/u.test(t) ? [t] : t.split(/[^\p{L}\p{N}]+/u);
    })
    .filter((t) => t.length > 0);
  const content = words.filter((w) => !isStopWord(w.toLowerCase()));
  return [...new Set(content.length > 0 ? content : words)];
}

/** The word places where `w` stands: as written or as its plural ("timeout" → "timeouts"), never the reverse. */
function placesOf(page: Page, w: string): number[] {
  if (/[._]/.test(w)) {
    // A dotted name: where the text holds it whole, case-insensitively, not inside a longer name.
    const escaped = w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // A release ("3.11") is stated by its point releases too ("3.11.2").
    const after = /^[\d.]+$/.test(w) ? '(?:\\.\\d+)*(?![\\p{L}\\p{N}]|[._][\\p{L}\\p{N}])' : '(?![\\p{L}\\p{N}]|[._][\\p{L}\\p{N}])';
    const out: number[] = [];
    for (const m of page.text.matchAll(new RegExp(`(?<![\\p{L}\\p{N}._])${escaped}${after}`, 'giu'))) {
      out.push(upperBound(page.starts, m.index ?? 0) - 1);
    }
    return out;
  }
  const lower = w.toLowerCase();
  // "requests" is not "request": a name that ends in s is looked for as written.
  const all = [...(page.at.get(lower) ?? []), ...(page.at.get(`${lower}s`) ?? []), ...(page.at.get(`${lower}es`) ?? [])].sort((a, b) => a - b);
  // A word of one or two letters ("R", "Go") is a name only in the case written.
  return w.length <= 2 ? all.filter((i) => page.raw[i] === w) : all;
}

/** Places where the phrase is stated: each place of its rarest word with every other word within reach. */
function occurrences(page: Page, phrase: string): number {
  const words = phraseWords(phrase);
  if (words.length === 0) return 0;
  const places = words.map((w) => placesOf(page, w));
  places.sort((a, b) => a.length - b.length);
  const [anchor, ...rest] = places;
  if (!anchor) return 0;
  let n = 0;
  for (const i of anchor) if (rest.every((list) => near(list, i))) n++;
  return n;
}

/** Whether the sorted list holds a place within PHRASE_WINDOW of i. */
function near(sorted: readonly number[], i: number): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < i - PHRASE_WINDOW) lo = mid + 1;
    else hi = mid;
  }
  const x = sorted[lo];
  return x !== undefined && x <= i + PHRASE_WINDOW;
}

function isYear(t: string): boolean {
  return /^(19|20)\d\d$/.test(t);
}

export function assessDrift(i: DriftInput): DriftResult {
  const whole = i.title === undefined ? i.text : `${i.title}\n${i.text}`;
  // Link targets and markup are no part of what a page says: "docs.python.org/3.11/…" names no subject.
  const plain = plainTextProjection(whole);
  const page = readPage(plain);
  const count = (phrases: readonly string[]): number => phrases.reduce((sum, p) => sum + occurrences(page, p), 0);
  const signals: DriftSignal[] = [];

  // The thread's subjects and include terms say what it is about; a sub-question's words ("default",
  // "change", "behaviour") are on nearly every page. They stand in only for a thread that names neither.
  // With nothing to look for there is nothing to miss, so an empty thread never drifts on subject.
  const named = [...i.subjects, ...i.include].filter((p) => terms(p).length > 0);
  const wanted = named.length > 0 ? named : keyTerms(i.subQuestions);
  const stated = count(wanted);
  if (wanted.length > 0 && stated === 0) signals.push('subject');

  // A page on the subject may name what the run excludes (an FAQ comparing frameworks): only a page that
  // names excluded terms more often than the thread's own is about them. Each word of the thread's phrases
  // counts too, at half weight: an exclude term built on the subject's own word ("Build-Depends" for a
  // thread on "Depends and Pre-Depends") must not outnumber a chapter that is about the subject (trial 9).
  // A word inside an excluded phrase ("week" in "school week") is no mention of the thread's subject.
  const excluded = i.exclude.length > 0 ? count(i.exclude) : 0;
  if (excluded > 0 && excluded > stated && excluded > wordPlaces(page, wanted, i.exclude) / 2) signals.push('domain');

  const period = i.scope?.period;
  if (period) {
    if (i.published !== undefined) {
      if (i.published < period.from || i.published > period.to) signals.push('temporal');
    } else {
      const years = page.words.filter(isYear).map(Number);
      const farOutside = (y: number): boolean => y < period.from - YEAR_SLACK || y > period.to + YEAR_SLACK;
      if (years.length > 0 && years.every(farOutside)) signals.push('temporal');
    }
  }

  const regions = i.scope?.regions;
  if (regions && regions.length > 0) {
    const inScope = expandRegions(regions);
    // Scope regions the gazetteer cannot place give nothing to compare against; no signal then.
    if (inScope.size > 0) {
      const countries = [...countriesMentioned(whole)];
      if (countries.length > 0 && !countries.some((c) => inScope.has(c))) signals.push('geographic');
    }
  }

  if (i.versionContext && otherRelease(whole, targetReleases(i.versionContext))) signals.push('version');

  return {
    drift: signals.length > 0,
    signals,
    ...(signals.includes('domain') ? { excluded: i.exclude.map((term) => ({ term, count: count([term]) })).filter((e) => e.count > 0), stated } : {}),
  };
}

/** Places where any content word of the phrases stands, each place once, outside the excluded phrases. */
function wordPlaces(page: Page, phrases: readonly string[], excluded: readonly string[]): number {
  const inside = new Set<number>();
  for (const e of excluded) {
    const words = phraseWords(e);
    if (words.length < 2) continue;
    const places = words.map((w) => placesOf(page, w));
    // A place of one of its words with every other word right beside it (within the phrase's length).
    for (const [k, list] of places.entries()) {
      for (const p of list) if (places.every((other, j) => j === k || other.some((q) => Math.abs(q - p) < words.length))) inside.add(p);
    }
  }
  const at = new Set<number>();
  for (const w of new Set(phrases.flatMap(phraseWords))) for (const i of placesOf(page, w)) if (!inside.has(i)) at.add(i);
  return at.size;
}
