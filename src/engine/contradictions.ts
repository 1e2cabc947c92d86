// Run-wide contradictions (SPEC 11.1): ids unique in the run; a contradiction recorded by one thread
// against another's fact shows in both threads; a sub-question whose grounded linked fact stands in an
// OPEN contradiction of severity HIGH is not accepted as ANSWERED. Each contradiction is kept in the state
// of the thread that recorded it; the others see it through this module.
import { stems } from './similarity.js';
import type { Contradiction, StoredFact, SubQuestionState } from './thread-state.js';

/** A contradiction with the name of the thread that recorded it. */
export interface RunContradiction extends Contradiction {
  thread: string;
}

/**
 * A canonical-key function that answers undefined for a URL without a key, instead of throwing. It
 * remembers its answers: a round asks it for both sides of every contradiction of the run once per fact
 * (thousands of URL parses in a deep run, most of a record_round call's time).
 */
export function keyOrNone(canonicalKey: (url: string) => string): (url: string) => string | undefined {
  const known = new Map<string, string | undefined>();
  return (url) => {
    if (known.has(url)) return known.get(url);
    let key: string | undefined;
    try {
      key = canonicalKey(url);
    } catch {
      key = undefined;
    }
    // A long-lived server's instance sees every run's URLs: the memory stays bounded.
    if (known.size >= 10_000) known.clear();
    known.set(url, key);
    return key;
  };
}

export function idNumber(id: string): number {
  const m = /^C([1-9][0-9]*)$/.exec(id);
  return m ? Number(m[1]) : 0;
}

/** The next run-wide id: one past the highest id any thread has given. */
export function nextContradictionId(taken: readonly string[]): string {
  let top = 0;
  for (const id of taken) top = Math.max(top, idNumber(id));
  return `C${top + 1}`;
}

/** Every thread's contradictions, tagged with their thread, in id order (recording order within ties). */
export function runContradictions(threads: readonly { name: string; contradictions: readonly Contradiction[] }[]): RunContradiction[] {
  return threads
    .flatMap((t) => t.contradictions.map((c) => ({ ...c, thread: t.name })))
    .sort((a, b) => idNumber(a.id) - idNumber(b.id) || a.round - b.round);
}

/**
 * A fact stands in a contradiction when its page, or a page of its `also`, is one side of it and the fact
 * says what that side is about: its text and quote hold at least CONTESTED_SHARE of the words of the
 * contradiction's claim and that side's statement. The page alone was too wide: a manual is one page, and
 * every fact from it was held by a contradiction about one option it documents (trial 71: a HIGH
 * contradiction on `--max-ppsize` held the answer on environment variables). Over the 53 contradictions
 * of earlier trial runs, the page alone contested 1,600 facts and this rule 320; 104 of their 106 sides
 * still contest at least one fact.
 */
export function standsIn(fact: Pick<StoredFact, 'canonical_key' | 'also' | 'fact' | 'quote'>, c: Pick<Contradiction, 'url_a' | 'url_b' | 'claim' | 'source_a' | 'source_b'>, keyOf: (url: string) => string | undefined): boolean {
  const a = keyOf(c.url_a);
  const b = keyOf(c.url_b);
  const readings: [string | undefined, string][] = [[fact.canonical_key, `${fact.fact} ${fact.quote ?? ''}`], ...(fact.also ?? []).map((x): [string | undefined, string] => [keyOf(x.url), `${fact.fact} ${x.quote}`])];
  return readings.some(([key, text]) => key !== undefined && ((key === a && says(text, `${c.claim} ${c.source_a}`)) || (key === b && says(text, `${c.claim} ${c.source_b}`))));
}

/** Share of a side's words (stop-word-free stems) a fact must hold, and at least two of them. */
export const CONTESTED_SHARE = 0.3;

function says(fact: string, side: string): boolean {
  const theirs = stems(side);
  const ours = stems(fact);
  let shared = 0;
  for (const t of theirs) if (ours.has(t)) shared += 1;
  return shared >= 2 && shared >= CONTESTED_SHARE * theirs.size;
}

/** The contradictions a thread shows: those it recorded, and those of other threads that touch its grounded facts. */
export function contradictionsOf(thread: string, facts: readonly StoredFact[], all: readonly RunContradiction[], keyOf: (url: string) => string | undefined): RunContradiction[] {
  const grounded = facts.filter((f) => f.grounded);
  return all.filter((c) => c.thread === thread || grounded.some((f) => standsIn(f, c, keyOf)));
}

export interface HeldAnswer {
  id: string;
  contradiction: RunContradiction;
  url: string;
}

/**
 * The ANSWERED sub-questions held at PARTIAL: one of their grounded linked facts stands in an OPEN
 * contradiction of severity HIGH, of this thread or another. Computed whenever a status is shown, so the
 * hold lifts as soon as the contradiction is resolved or its severity lowered, in whichever thread.
 */
export function heldAnswers(subQuestions: readonly SubQuestionState[], facts: readonly StoredFact[], all: readonly RunContradiction[], keyOf: (url: string) => string | undefined): HeldAnswer[] {
  const open = all.filter((c) => c.status === 'OPEN' && c.severity === 'HIGH');
  if (open.length === 0) return [];
  const held: HeldAnswer[] = [];
  for (const q of subQuestions) {
    if (q.status !== 'ANSWERED') continue;
    for (const f of facts) {
      if (!f.grounded || !f.sub_questions.includes(q.id)) continue;
      const c = open.find((x) => standsIn(f, x, keyOf));
      if (c) {
        held.push({ id: q.id, contradiction: c, url: f.url });
        break;
      }
    }
  }
  return held;
}

/** The statuses as shown: ANSWERED becomes PARTIAL while held. */
export function withHolds(subQuestions: readonly SubQuestionState[], held: readonly HeldAnswer[]): SubQuestionState[] {
  const ids = new Set(held.map((h) => h.id));
  return subQuestions.map((q) => (ids.has(q.id) ? { ...q, status: 'PARTIAL' } : q));
}

export function holdWarning(h: HeldAnswer, thread: string): string {
  const c = h.contradiction;
  const where = c.thread === thread ? '' : ` (recorded by thread "${c.thread}")`;
  return `${h.id} held at PARTIAL, not ANSWERED: its fact from ${h.url} stands in the OPEN HIGH contradiction ${c.id}${where}; resolve it (status RESOLVED with a resolution, naming its id) or lower its severity`;
}
