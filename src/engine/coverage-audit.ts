// The coverage audit (SPEC 11.1): the passages of the run's stored sources that answer a sub-question and
// that no sentence of the report states. Pure: the caller ranks the passages (the same index as
// fetch_source's focus and the claim audit) and supplies the report's sentences.
import { isNearCopy } from './near-copy.js';
import { stems } from './similarity.js';

// Words with which a sub-question speaks of its sources rather than its subject ("What does the git
// documentation say about …"): ranked, they pull up pages about writing documentation.
const ABOUT_SOURCES = new Set(
  'documentation documented document documents docs manual manuals official describe describes described say says said state states mention mentions advise advises'.split(' '),
);

/** The sub-question as the passage index should rank it: without the words that speak of sources. */
export function rankingQuestion(question: string): string {
  return question
    .split(/(\s+)/)
    .filter((w) => !ABOUT_SOURCES.has(w.toLowerCase().replace(/[^\p{L}]/gu, '')))
    .join('');
}

/** A ranked passage for one sub-question, as the passage index gives it. */
export interface CoverageCandidate {
  source_id: string;
  passage: string;
  score: number;
  /** Share of the sub-question's own words the passage's unit holds, 0–1. */
  share: number;
  /** The unit's identity: one unit (and one passage text) is shown once, under the first sub-question it answers. */
  unit: string;
}

export interface CoverageQuestion {
  thread: string;
  sub_question: string;
  /** Best first. */
  candidates: readonly CoverageCandidate[];
}

export interface CoverageItem {
  thread: string;
  sub_question: string;
  source_id: string;
  passage: string;
}

/**
 * What the critic is shown, chosen for cost (the whole audit must stay within a few thousand tokens of a
 * run): at most PER_QUESTION passages a sub-question, each holding at least MIN_SHARE of its words and
 * scoring at least MIN_RELATIVE of that sub-question's best passage, so a question the sources barely
 * touch shows nothing rather than noise.
 */
export const COVERAGE_LIMITS = { perQuestion: 2, minShare: 0.5, minRelative: 0.6 } as const;

/**
 * A report sentence states a passage sentence when it holds at least half of the passage sentence's stems
 * (and at least MIN_SHARED): a report sentence that sums up two sentences of a manual states both, and a
 * short generic one ("SQLite supports WAL mode") does not hide every passage of the WAL page.
 */
const STATED = { minShared: 3, ofPassage: 0.5 } as const;

/** Passage sentences of fewer stems than this say too little to be judged stated or not. */
const MIN_SENTENCE_STEMS = 3;

function sentencesOf(text: string): string[] {
  return text.split(/(?<=[.!?;:。！？])\s+/).filter((s) => s.trim() !== '');
}

function shared(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let n = 0;
  for (const t of a) if (b.has(t)) n += 1;
  return n;
}

/** Text as a quotation is compared: no markdown marks or escapes, one space, lower case. */
export function quoteForm(text: string): string {
  return text.replace(/[\\`*_]/g, '').replace(/[“”]/g, '"').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** Words a quotation must hold to mark its passage as taken up: a phrase, not a term. */
const QUOTE_MIN_WORDS = 6;

/** Whether a sentence (six words or more) lies inside one of the passages the audit took as support, in `quoteForm`. */
function inTaken(sentence: string, taken: readonly string[]): boolean {
  if (taken.length === 0) return false;
  const text = quoteForm(sentence).replace(/[.;:!?]+$/, '');
  return text.split(' ').length >= QUOTE_MIN_WORDS && taken.some((t) => t.includes(text));
}

/** The passages of SUPPORTED and PARTIAL verdicts on the report's current pairs, in `quoteForm`. */
export function takenPassages(verdicts: readonly { verdict: string; passage?: string }[]): string[] {
  return verdicts.flatMap((v) => (v.verdict !== 'UNSUPPORTED' && v.passage ? [quoteForm(v.passage)] : []));
}

/**
 * Before report.md exists, what the run already holds stands for it: the grounded facts' texts as sentences,
 * and their quotes (six words or more, `quoteForm`) as quotations and as taken passages. The critic's first
 * coverage call then lists what no fact captured, not every strong passage (trial 44's critic was shown 11
 * and could not tell which were gaps).
 */
export function factsAsStated(facts: readonly { fact: string; quote?: string }[]): { sentences: string[]; quotes: string[] } {
  const quotes = facts.flatMap((f) => {
    const q = f.quote === undefined ? '' : quoteForm(f.quote);
    return q.split(' ').length >= QUOTE_MIN_WORDS ? [q] : [];
  });
  return { sentences: facts.map((f) => f.fact), quotes: [...new Set(quotes)] };
}

/** The report's quotations of six words or more, in `quoteForm`: a passage one of them quotes is stated. */
export function reportQuotes(report: string): string[] {
  const out: string[] = [];
  for (const m of report.matchAll(/["“]([^"“”\n]+)["”]/g)) {
    const q = quoteForm(m[1] ?? '');
    if (q.split(' ').length >= QUOTE_MIN_WORDS) out.push(q);
  }
  return out;
}

// A sentence that binds: the requirements of a specification, manual or standard (RFC 2119's words, and
// the plain forms a manual uses). "may" is left out: it permits, and most prose uses it for "might".
const REQUIREMENT = /\b(?:must|shall|should|required|requires?|mandatory|may not|is not allowed|are not allowed|is forbidden|are forbidden)\b/i;

/** Whether a sentence states a requirement. */
export function isRequirement(sentence: string): boolean {
  return REQUIREMENT.test(sentence);
}

function sentenceStated(p: ReadonlySet<string>, report: readonly ReadonlySet<string>[]): boolean {
  return report.some((r) => {
    const n = shared(r, p);
    return n >= STATED.minShared && n >= STATED.ofPassage * p.size;
  });
}

/**
 * A passage is stated when the report quotes it (six words or more, verbatim: the writer took it up even
 * where the window around it carries other sentences), or when at least half of its sentences (those with
 * something to say) are each stated by one sentence of the report and none of its requirements is left
 * out: a manual's "must" beside a sentence the report does state is what a reader of the report misses.
 * A sentence inside a passage the claim audit recorded as supporting a statement of the report (`taken`)
 * is stated too, however the report paraphrased it (trial 12: a cited, audited sentence listed as left out).
 */
export function isStated(passage: string, report: readonly ReadonlySet<string>[], quotes: readonly string[] = [], taken: readonly string[] = []): boolean {
  if (quotes.length > 0) {
    const text = quoteForm(passage);
    if (quotes.some((q) => text.includes(q))) return true;
  }
  const parts = sentencesOf(passage)
    .map((s) => ({ text: s, stems: stems(s), requirement: isRequirement(s) }))
    .filter((s) => s.stems.size >= MIN_SENTENCE_STEMS);
  if (parts.length === 0) return false;
  const stated = parts.map((p) => sentenceStated(p.stems, report) || inTaken(p.text, taken));
  if (parts.some((p, i) => p.requirement && !stated[i])) return false;
  return stated.filter(Boolean).length * 2 >= parts.length;
}

/** A requirement weighs this much more than another sentence when a passage's sentence is picked. */
export const REQUIREMENT_WEIGHT = 2;

/**
 * How the coverage audit picks the sentence a passage is cut around (`sentenceWeight` of the passage
 * index): a sentence the report states or quotes weighs nothing, so the passage shows what it leaves out;
 * a requirement weighs REQUIREMENT_WEIGHT, so a manual's "must" is shown before the sentence that
 * introduces it.
 */
export function coverageWeight(report: readonly ReadonlySet<string>[], quotes: readonly string[] = [], taken: readonly string[] = []): (sentence: string) => number {
  return (sentence) => {
    const st = stems(sentence);
    if (st.size >= MIN_SENTENCE_STEMS && sentenceStated(st, report)) return 0;
    if (inTaken(sentence, taken)) return 0;
    if (quotes.length > 0) {
      const text = quoteForm(sentence);
      if (text.split(' ').length >= QUOTE_MIN_WORDS && quotes.some((q) => q.includes(text) || text.includes(q))) return 0;
    }
    return isRequirement(sentence) ? REQUIREMENT_WEIGHT : 1;
  };
}

/** The report's sentences as stem sets, ready for `isStated`. */
export function reportStems(sentences: readonly string[]): Set<string>[] {
  return sentences.map((s) => stems(s)).filter((s) => s.size > 0);
}

/**
 * The passages to show, grouped by sub-question in the order given (threads in run order, sub-questions in
 * definition order): for each, its strong candidates that the report does not state and that no earlier
 * sub-question showed.
 */
export function uncoveredPassages(questions: readonly CoverageQuestion[], report: readonly ReadonlySet<string>[], quotes: readonly string[] = [], taken: readonly string[] = []): CoverageItem[] {
  const shown = new Set<string>();
  const out: CoverageItem[] = [];
  for (const q of questions) {
    const top = q.candidates[0]?.score ?? 0;
    let count = 0;
    for (const c of q.candidates) {
      if (count >= COVERAGE_LIMITS.perQuestion) break;
      if (c.share < COVERAGE_LIMITS.minShare || c.score < COVERAGE_LIMITS.minRelative * top) continue;
      // Two copies of one page (a mirror under another URL) give the same passage: it is shown once. So do
      // two editions of one document (a Sphinx page and its .rst.txt: trial 30 was listed both).
      const text = c.passage.replace(/\s+/g, ' ').trim().toLowerCase();
      if (shown.has(c.unit) || shown.has(text) || out.some((o) => isNearCopy(o.passage, c.passage)) || isStated(c.passage, report, quotes, taken)) continue;
      shown.add(c.unit);
      shown.add(text);
      count += 1;
      out.push({ thread: q.thread, sub_question: q.sub_question, source_id: c.source_id, passage: c.passage });
    }
  }
  return out;
}
