import { describe, expect, it } from 'vitest';
import { contradictionsOf, heldAnswers, keyOrNone, nextContradictionId, runContradictions, standsIn, withHolds, type RunContradiction } from '../../src/engine/contradictions.js';
import type { StoredFact, SubQuestionState } from '../../src/engine/thread-state.js';

const keyOf = (u: string) => u.replace(/^https?:\/\//, '');
const fact = (over: Partial<StoredFact> = {}): StoredFact => ({
  round: 1, fact: 'Output per hour rose by 1% in the pilot group.', url: 'https://a.org/x', canonical_key: 'a.org/x', confidence: 'PLAUSIBLE', sub_questions: ['SQ-1'], is_new: true, grounded: true, ...over,
});
const c = (over: Partial<RunContradiction> = {}): RunContradiction => ({
  id: 'C1', claim: 'How much output per hour rose', source_a: 'Output rose by 1%', url_a: 'https://a.org/x', source_b: 'Output rose by 2%', url_b: 'https://b.org/y', status: 'OPEN', severity: 'HIGH', round: 1, thread: 'B', ...over,
});
const answered: SubQuestionState[] = [{ id: 'SQ-1', question: 'q', status: 'ANSWERED', confidence: 'PLAUSIBLE' }];

describe('run-wide contradictions (issue 24)', () => {
  it('numbers past every thread’s ids and lists them in id order', () => {
    expect(nextContradictionId(['C1', 'C7', 'C3'])).toBe('C8');
    expect(nextContradictionId([])).toBe('C1');
    const all = runContradictions([{ name: 'A', contradictions: [c({ id: 'C2' })] }, { name: 'B', contradictions: [c({ id: 'C1' })] }]);
    expect(all.map((x) => `${x.id} ${x.thread}`)).toEqual(['C1 B', 'C2 A']);
  });

  it('a fact stands in a contradiction on its own page or a page of its also, when it says what that side says', () => {
    expect(standsIn(fact(), c(), keyOf)).toBe(true);
    expect(standsIn(fact({ canonical_key: 'c.org/z' }), c(), keyOf)).toBe(false);
    expect(standsIn(fact({ canonical_key: 'c.org/z', also: [{ url: 'https://b.org/y', quote: 'output per hour rose by 2%' }] }), c(), keyOf)).toBe(true);
    // Another fact of the same page is not contested by it.
    expect(standsIn(fact({ fact: 'Workers in the pilot group reported less stress.' }), c(), keyOf)).toBe(false);
  });

  it('one option’s contradiction does not contest every fact of the manual that documents it (trial 71)', () => {
    const refman = { url: 'https://cran.r-project.org/refman.pdf#pages=405-409', canonical_key: 'cran.r-project.org/refman.pdf#pages=405-409' };
    const ppsize = c({
      claim: 'Default and maximum of --max-ppsize',
      source_a: 'An Introduction to R (4.2.2): defaults to 10000, maximum accepted 100000',
      url_a: 'https://cran.r-project.org/R-intro.pdf',
      source_b: 'Memory help page (4.2.2): defaults to 50000, maximum accepted 500000',
      url_b: refman.url,
    });
    const keys = (u: string) => u.replace(/^https?:\/\//, '');
    const env = fact({ ...refman, fact: 'The maximal vector heap size can be set with the environment variable R_MAX_VSIZE.', quote: 'The maximal vector heap size can be set with the environment variable R_MAX_VSIZE' });
    const stack = fact({ ...refman, fact: 'The Memory help page says --max-ppsize controls the maximum size of the pointer protection stack, defaulting to 50000.', quote: '--max-ppsize ... default 50000' });
    expect(standsIn(env, ppsize, keys)).toBe(false);
    expect(standsIn(stack, ppsize, keys)).toBe(true);
    expect(heldAnswers(answered, [env], [ppsize], keys)).toEqual([]);
    expect(heldAnswers(answered, [stack], [ppsize], keys).map((h) => h.id)).toEqual(['SQ-1']);
  });

  it('shows another thread’s contradiction only when it touches a grounded fact of this thread', () => {
    expect(contradictionsOf('A', [fact()], [c()], keyOf)).toHaveLength(1);
    expect(contradictionsOf('A', [fact({ grounded: false })], [c()], keyOf)).toHaveLength(0);
    expect(contradictionsOf('B', [], [c()], keyOf)).toHaveLength(1);
  });

  it('holds ANSWERED at PARTIAL only for an OPEN HIGH contradiction on a grounded linked fact', () => {
    expect(heldAnswers(answered, [fact()], [c()], keyOf).map((h) => h.id)).toEqual(['SQ-1']);
    expect(withHolds(answered, heldAnswers(answered, [fact()], [c()], keyOf))[0]!.status).toBe('PARTIAL');
    expect(heldAnswers(answered, [fact()], [c({ severity: 'MEDIUM' })], keyOf)).toEqual([]);
    expect(heldAnswers(answered, [fact()], [c({ status: 'RESOLVED' })], keyOf)).toEqual([]);
    expect(heldAnswers(answered, [fact({ grounded: false })], [c()], keyOf)).toEqual([]);
    expect(heldAnswers(answered, [fact({ sub_questions: [] })], [c()], keyOf)).toEqual([]);
  });
});

describe('keyOrNone', () => {
  it('asks for each URL once and answers undefined for a URL without a key', () => {
    let calls = 0;
    const keyOf = keyOrNone((url) => {
      calls += 1;
      if (!url.startsWith('http')) throw new Error('no key');
      return url.toLowerCase();
    });
    // A deep run asked for both sides of every contradiction once per fact: thousands of URL parses a round.
    for (let i = 0; i < 100; i++) expect(keyOf('https://Example.org/A')).toBe('https://example.org/a');
    expect(keyOf('mailto:x')).toBeUndefined();
    expect(keyOf('mailto:x')).toBeUndefined();
    expect(calls).toBe(2);
  });
});
