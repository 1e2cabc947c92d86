// Which fact a completion report shows as a Key Finding (SPEC 6): a grounded fact that answers the
// sub-question, or that names the subject. Computed from state, so a caller's summary never stands in for
// evidence and a fact about one subject is never shown as another's.
import type { Confidence } from './types.js';
import { jaccard, stems } from './similarity.js';
import { isStopWord, terms } from './text.js';
import { numbersNotInQuote } from './facts.js';

export interface FindingFact {
  round: number;
  fact: string;
  confidence: Confidence;
  grounded: boolean;
  sub_questions: readonly string[];
}

const RANK: Record<Confidence, number> = { VERIFIED: 2, PLAUSIBLE: 1, UNVERIFIED: 0 };

// A plural "trials" in a subject name still matches "trial" in a fact, and the reverse.
const stem = (t: string) => (t.length > 3 && t.endsWith('s') && !t.endsWith('ss') ? t.slice(0, -1) : t);

/**
 * The best grounded fact linked to the sub-question: highest confidence first; among those, the one that
 * shares the most words with the investigator's own `key_finding` for it, when it gave one (real runs
 * showed the latest fact, often a side detail, where the investigator had named the finding); then the
 * latest. The caller's words choose among grounded facts and are never shown themselves.
 */
export function subQuestionKeyFinding<F extends FindingFact>(id: string, facts: readonly F[], proposed?: string): F | undefined {
  return best(facts, (f) => f.sub_questions.includes(id), closeness(proposed));
}

/**
 * How close a fact is to the investigator's own words for the finding: the Jaccard overlap of their
 * stop-word-free stems, so that a long fact does not win by sheer length. With confidence computed,
 * most facts tie on it, and this decides.
 */
function closeness<F extends FindingFact>(proposed: string | undefined): (f: F) => number {
  if (!proposed) return () => 0;
  const wanted = stems(proposed);
  return (f) => jaccard(wanted, stems(f.fact));
}

/** A fact names a subject when every content word of the subject's name is a word of the fact. */
export function namesSubject(subject: string, text: string): boolean {
  const words = terms(subject).filter((t) => !isStopWord(t));
  const wanted = (words.length > 0 ? words : terms(subject)).map(stem);
  if (wanted.length === 0) return false;
  const have = new Set(terms(text).map(stem));
  return wanted.every((w) => have.has(w));
}

/** The fact opens with the subject: its first content words are the subject's, in order ("dpkg-gensymbols …" does not open with "dpkg-shlibdeps"). */
function opensWith(subject: string, text: string): boolean {
  const content = (t: string) => terms(t).filter((w) => !isStopWord(w)).map(stem);
  const wanted = content(subject);
  const head = content(text).slice(0, wanted.length);
  return wanted.length > 0 && wanted.every((w, i) => head[i] === w);
}

/**
 * The best grounded fact that names the subject, ranked as for sub-questions. Among ties on confidence, the
 * fact that is about the subject wins: one that opens with it, then one that names none of the thread's
 * `others` subjects (trial 43 showed "Listing a package in LinkingTo suffices …; not in Depends or
 * Imports" as the finding of Imports, the latest fact that merely mentioned it), then one closest to the
 * subject's `evidence`. A subject whose facts name it in part ("WAL" and "checkpoint" for "WAL
 * checkpoint starvation") does not show `—`: when no fact names every content word, the fact naming the
 * largest share of them wins, if that is more than half; a fact from a round that targeted the subject
 * first among equals. A fact that names none of the subject's words is never shown as its finding, whatever round
 * it came from.
 */
export function subjectKeyFinding<F extends FindingFact>(
  subject: string,
  facts: readonly F[],
  o: { evidence?: string | undefined; targetedRounds?: readonly number[]; others?: readonly string[] } = {},
): F | undefined {
  const near = closeness<F>(o.evidence);
  const others = (o.others ?? []).filter((x) => x !== subject);
  const about = (f: F) => (opensWith(subject, f.fact) ? 4 : 0) + (others.some((x) => namesSubject(x, f.fact)) ? 0 : 2) + near(f);
  const named = best(facts, (f) => namesSubject(subject, f.fact), about);
  if (named) return named;
  const rounds = new Set(o.targetedRounds ?? []);
  return best(
    facts,
    // More than half of its words: "pilot" alone is not "UK pilot", not even in a round that targeted it.
    (f) => share(subject, f.fact) > 0.5,
    (f) => share(subject, f.fact) * 4 + (rounds.has(f.round) ? 2 : 0) + near(f),
  );
}

/** The share of the subject's content words that the text names. */
function share(subject: string, text: string): number {
  const words = terms(subject).filter((t) => !isStopWord(t)).map(stem);
  if (words.length === 0) return 0;
  const have = new Set(terms(text).map(stem));
  return words.filter((w) => have.has(w)).length / words.length;
}

function best<F extends FindingFact>(facts: readonly F[], fits: (f: F) => boolean, affinity: (f: F) => number = () => 0): F | undefined {
  let top: F | undefined;
  let topAffinity = 0;
  for (const f of facts) {
    if (!f.grounded || !fits(f)) continue;
    const a = affinity(f);
    const rank = top === undefined ? 1 : Math.sign(RANK[f.confidence] - RANK[top.confidence]) || Math.sign(a - topAffinity);
    // Facts are in record order, so among equals the later one wins.
    if (!top || rank > 0 || (rank === 0 && f.round >= top.round)) {
      top = f;
      topAffinity = a;
    }
  }
  return top;
}

/** The share of an investigator's key finding's content words that one grounded fact must state to support it. */
export const SUPPORT_SHARE = 0.5;

/**
 * The grounded fact linked to the sub-question that best supports the investigator's own key finding:
 * the fact with its quote states at least SUPPORT_SHARE of the finding's content words and every number
 * the finding gives. The completion report shows the finding as written only with such a fact beside it.
 */
export function supportingFact<F extends FindingFact & { quote?: string | undefined }>(id: string, facts: readonly F[], finding: string | undefined): F | undefined {
  if (!finding?.trim()) return undefined;
  const wanted = stems(finding);
  if (wanted.size === 0) return undefined;
  let top: F | undefined;
  let topShare = 0;
  for (const f of facts) {
    if (!f.grounded || !f.sub_questions.includes(id)) continue;
    const text = `${f.fact} ${f.quote ?? ''}`;
    const have = stems(text);
    let shared = 0;
    for (const w of wanted) if (have.has(w)) shared += 1;
    const s = shared / wanted.size;
    if (s >= SUPPORT_SHARE && numbersNotInQuote(finding, text).length === 0 && (top === undefined || s > topShare || (s === topShare && RANK[f.confidence] > RANK[top.confidence]))) {
      top = f;
      topShare = s;
    }
  }
  return top;
}
