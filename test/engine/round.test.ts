// The round composer on its own: the interplay of the single rules that record_round reports.
import { describe, expect, it } from 'vitest';
import { decideRound, type RoundContext, type RoundInput } from '../../src/engine/round.js';
import { newThreadState, type ThreadState } from '../../src/engine/thread-state.js';
import { ESCAPE_STRATEGIES, type Phase } from '../../src/engine/types.js';
import { InputError } from '../../src/errors.js';

const ctx: RoundContext = {
  grounding: true,
  timestamp: '2026-01-01T00:00:00.000Z',
  canonicalKey: (u) => {
    if (!/^https?:\/\//.test(u)) throw new InputError('not an http(s) URL');
    return u.replace(/^https?:\/\//, '');
  },
  storedText: () => ({ source_id: 'S1', title: 'T', markdown: 'the stored page says output rose' }),
};

// x.org speaks for the thread first-hand unless a test says otherwise, so its quotes can be VERIFIED.
function thread(o: { budget?: number; strategy?: Phase[]; subjects?: string[]; primary?: string[] } = {}): ThreadState {
  return newThreadState({
    definition: {
      name: 'T',
      sub_questions: [{ id: 'SQ-1', question: 'Did output rise?' }],
      subjects: o.subjects ?? [],
      primary_origins: o.primary ?? ['x.org'],
      ...(o.strategy ? { source_strategy: o.strategy } : {}),
    },
    slug: 't-000000',
    critic: false,
    roundBudget: o.budget ?? 10,
    resultsPerRound: 5,
  });
}
const input = (urls: string[], facts: number, over: Partial<RoundInput> = {}): RoundInput => ({
  query: `query ${Math.random()}`,
  urls_visited: urls,
  facts: Array.from({ length: facts }, (_, i) => ({ fact: `fact ${Math.random()} ${i}`, url: urls[0] ?? 'https://x.org/a', quote: 'output rose', confidence: 'PLAUSIBLE' as const })),
  summary: 's',
  ...over,
});

describe('decideRound', () => {
  it('L3 (overlap with nothing new) stops even when L2 also holds', () => {
    let s = thread();
    s = decideRound(s, input(['https://x.org/a'], 0), ctx).state; // streak 1
    const { decision } = decideRound(s, input(['https://x.org/a'], 0), ctx); // overlap 1, streak 2
    expect(decision).toMatchObject({ plateau_level: 3, action: 'STOP', converged: true, convergence_reason: 'PLATEAU_STOPPED' });
    expect(decision.escape_strategy).toBeUndefined();
    expect(decision.next).toBeUndefined();
  });

  it('L2 in the last phase gets the next escape and REFORMULATE, not ADVANCE_PHASE', () => {
    let s = thread({ strategy: ['VERIFY'] });
    s = decideRound(s, input(['https://x.org/a'], 0), ctx).state;
    const { decision } = decideRound(s, input(['https://x.org/b'], 0), ctx);
    expect(decision).toMatchObject({ plateau_level: 2, action: 'REFORMULATE', escape_strategy: 'query reformulation', phase: 'VERIFY', next_phase: 'VERIFY' });
    expect(decision.next?.reformulate_from).toBeDefined();
  });

  it('with all six escapes used, a plateau becomes L3', () => {
    const s = { ...thread(), escapes_used: [...ESCAPE_STRATEGIES] };
    const prev = decideRound(s, input(['https://x.org/a'], 2), ctx).state;
    const { decision } = decideRound(prev, input(['https://x.org/a'], 1), ctx); // L1 wanted, ladder empty
    expect(decision).toMatchObject({ plateau_level: 3, action: 'STOP', convergence_reason: 'PLATEAU_STOPPED' });
    expect(decision.warnings.join()).toMatch(/every escape strategy/);
  });

  it('ANSWERED sub-questions, covered subjects and no open HIGH contradiction converge as CRITERIA_MET, which outranks the budget', () => {
    const s = thread({ budget: 1, subjects: ['Iceland'] });
    const { decision } = decideRound(
      s,
      input(['https://x.org/a'], 1, {
        facts: [{ fact: 'Output rose.', url: 'https://x.org/a', quote: 'output rose', confidence: 'VERIFIED', sub_questions: ['SQ-1'] }],
        sub_question_updates: [{ id: 'SQ-1', status: 'ANSWERED' }],
        targeted_subjects: ['Iceland'],
      }),
      ctx,
    );
    expect(decision).toMatchObject({ converged: true, convergence_reason: 'CRITERIA_MET', action: 'STOP' });
  });

  it('with every sub-question ANSWERED, a subject no round targeted holds the thread, and the warning names it (trial 44)', () => {
    const s = thread({ subjects: ['Iceland', 'Utah'] });
    const fact = { fact: 'Output rose.', url: 'https://x.org/a', quote: 'output rose', confidence: 'VERIFIED' as const, sub_questions: ['SQ-1'] };
    const first = decideRound(s, input(['https://x.org/a'], 1, { facts: [fact], sub_question_updates: [{ id: 'SQ-1', status: 'ANSWERED' }], targeted_subjects: ['Iceland'] }), ctx);
    expect(first.decision.converged).toBe(false);
    expect(first.decision.warnings).toContain('every sub-question is ANSWERED, but no round has targeted subject "Utah" yet: the thread stops once a round names it in targeted_subjects');
    const second = decideRound(first.state, input(['https://x.org/b'], 0, { targeted_subjects: ['Utah'] }), ctx);
    expect(second.decision).toMatchObject({ converged: true, convergence_reason: 'CRITERIA_MET' });
    expect(second.decision.warnings.join('\n')).not.toMatch(/no round has targeted/);
  });

  it('an open HIGH contradiction blocks CRITERIA_MET until it is resolved', () => {
    const s = thread({ subjects: [] });
    const facts = [{ fact: 'Output rose.', url: 'https://x.org/a', quote: 'output rose', confidence: 'VERIFIED' as const, sub_questions: ['SQ-1'] }];
    const c = { claim: 'output', source_a: 'rose', url_a: 'https://x.org/a', source_b: 'fell', url_b: 'https://x.org/b', status: 'OPEN' as const, severity: 'HIGH' as const };
    const r1 = decideRound(s, input(['https://x.org/a'], 1, { facts, sub_question_updates: [{ id: 'SQ-1', status: 'ANSWERED' }], contradictions: [c] }), ctx);
    expect(r1.decision.converged).toBe(false);
    expect(r1.state.contradictions[0]?.id).toBe('C1');
    const r2 = decideRound(r1.state, input(['https://x.org/c'], 1, { contradictions: [{ ...c, id: 'C1', status: 'RESOLVED' }] }), ctx);
    expect(r2.decision).toMatchObject({ converged: true, convergence_reason: 'CRITERIA_MET' });
    expect(r2.state.contradictions).toHaveLength(1);
  });

  it('never changes the state it was given', () => {
    const s = thread();
    const frozen = JSON.stringify(s);
    decideRound(s, input(['https://x.org/a'], 2, { targeted_subjects: [] }), ctx);
    expect(JSON.stringify(s)).toBe(frozen);
  });

  describe('overlap on search results', () => {
    const spellings = ['https://x.org/a', 'https://x.org/b/', 'https://x.org/c'];
    const others = ['http://x.org/a#top', 'https://x.org/b', 'https://x.org/c/'];
    // A canonicaliser that treats scheme, fragment and trailing slash as spelling, like the real one.
    const spellingCtx: RoundContext = { ...ctx, canonicalKey: (u) => u.replace(/^https?:\/\//, '').replace(/#.*$/, '').replace(/\/$/, '') };

    it('the same search results in other spellings give overlap 1 and L1, although the pages read are disjoint', () => {
      let s = thread({ strategy: ['EXTRACT', 'VERIFY'] });
      s = decideRound(s, input(['https://x.org/a'], 2, { search_results: spellings }), spellingCtx).state;
      const { decision } = decideRound(s, input(['https://x.org/b'], 2, { search_results: others }), spellingCtx);
      expect(decision).toMatchObject({ url_overlap: 1, overlap_on: 'search_results', plateau_level: 1, action: 'REFORMULATE', escape_strategy: 'query reformulation' });
    });

    it('with 0 new facts the same results are L3 and STOP, with no escape strategy', () => {
      let s = thread();
      s = decideRound(s, input(['https://x.org/a'], 2, { search_results: spellings }), spellingCtx).state;
      const { decision } = decideRound(s, input(['https://x.org/b'], 0, { search_results: others }), spellingCtx);
      expect(decision).toMatchObject({ url_overlap: 1, plateau_level: 3, action: 'STOP', convergence_reason: 'PLATEAU_STOPPED' });
      expect(decision.escape_strategy).toBeUndefined();
    });

    it('falls back to urls_visited for a round that sends no search results, with a warning', () => {
      let s = thread();
      s = decideRound(s, input(['https://x.org/a'], 2, { search_results: spellings }), spellingCtx).state;
      const { decision } = decideRound(s, input(['https://x.org/a', 'https://x.org/z'], 2), spellingCtx);
      expect(decision).toMatchObject({ url_overlap: 0.5, overlap_on: 'urls_visited' });
      expect(decision.warnings.join()).toMatch(/no search_results sent/);
    });

    it('refuses a search result that is not a URL, naming it', () => {
      expect(() => decideRound(thread(), input([], 0, { search_results: ['https://x.org/a', 'nope'] }), ctx)).toThrow(/search_results\[1\]/);
    });

    it('keeps the extra queries of the round', () => {
      const { state } = decideRound(thread(), input([], 0, { queries: ['second search', 'third search'] }), ctx);
      expect(state.rounds[0]?.queries).toEqual(['second search', 'third search']);
    });
  });

  describe('one action per round', () => {
    it('a phase change always comes with ADVANCE_PHASE and a phase_reason saying why', () => {
      let s = thread({ budget: 5 });
      const r1 = decideRound(s, input(['https://x.org/a'], 3), ctx);
      expect(r1.decision).toMatchObject({ action: 'CONTINUE', phase: 'SURVEY', next_phase: 'SURVEY', phase_reason: 'stay: 1 of 2 rounds in SURVEY' });
      s = r1.state;
      const r2 = decideRound(s, input(['https://x.org/b'], 3), ctx);
      expect(r2.decision).toMatchObject({ action: 'ADVANCE_PHASE', phase: 'SURVEY', next_phase: 'EXTRACT' });
      expect(r2.decision.phase_reason).toMatch(/^allowance used: 2 of 2 rounds in SURVEY/);
      const r3 = decideRound(r2.state, input(['https://x.org/c'], 1), ctx);
      expect(r3.decision).toMatchObject({ action: 'ADVANCE_PHASE', saturation: 'HIGH', phase: 'EXTRACT', next_phase: 'DIVERSIFY' });
      expect(r3.decision.phase_reason).toMatch(/^saturation HIGH/);
    });

    it('L1 together with a phase change is ADVANCE_PHASE, and the reformulation still shows in next', () => {
      let s = thread({ budget: 5 });
      s = decideRound(s, input(['https://x.org/a'], 3), ctx).state;
      const { decision } = decideRound(s, input(['https://x.org/a'], 3, { query: 'the old query' }), ctx);
      expect(decision).toMatchObject({ plateau_level: 1, action: 'ADVANCE_PHASE', escape_strategy: 'query reformulation', next_phase: 'EXTRACT' });
      expect(decision.next?.reformulate_from).toBe('the old query');
    });

    it('across many random rounds: STOP never has an escape strategy, CONTINUE never has one, phase changes are ADVANCE_PHASE', () => {
      for (let trial = 0; trial < 40; trial++) {
        let s = thread({ budget: 1 + (trial % 10) });
        const pool = ['https://x.org/a', 'https://x.org/b', 'https://x.org/c'];
        for (let r = 0; r < 12 && !s.converged; r++) {
          const urls = pool.filter(() => Math.random() < 0.6);
          const { state, decision } = decideRound(s, input(urls, Math.floor(Math.random() * 4)), ctx);
          if (decision.action === 'STOP' || decision.action === 'CONTINUE') expect(decision.escape_strategy).toBeUndefined();
          if (decision.next_phase !== decision.phase) expect(decision.action).toBe('ADVANCE_PHASE');
          if (decision.action === 'ADVANCE_PHASE') expect(decision.next_phase).not.toBe(decision.phase);
          expect(decision.phase_reason.length).toBeGreaterThan(0);
          s = state;
        }
      }
    });

    it('a drift streak makes the action REFORMULATE', () => {
      const s = { ...thread(), drift_streak: 3 };
      const { decision } = decideRound(s, input(['https://x.org/a'], 3, { query: 'drifting query' }), ctx);
      expect(decision).toMatchObject({ action: 'REFORMULATE' });
      expect(decision.escape_strategy).toBeUndefined();
      expect(decision.next?.reformulate_from).toBe('drifting query');
    });
  });

  it('echoes every sub-question with its resulting status and confidence, capped at the proposal', () => {
    const s = newThreadState({
      definition: { name: 'T', sub_questions: [{ id: 'SQ-1', question: 'a?' }, { id: 'SQ-2', question: 'b?' }], subjects: [] },
      slug: 't',
      critic: false,
      roundBudget: 5,
      resultsPerRound: 5,
    });
    const { decision } = decideRound(
      s,
      input(['https://x.org/a'], 0, {
        facts: [{ fact: 'Output rose.', url: 'https://x.org/a', quote: 'output rose', confidence: 'VERIFIED', sub_questions: ['SQ-1'] }],
        sub_question_updates: [{ id: 'SQ-1', status: 'PARTIAL', confidence: 'PLAUSIBLE' }],
      }),
      ctx,
    );
    expect(decision.sub_questions).toEqual([
      { id: 'SQ-1', status: 'PARTIAL', confidence: 'PLAUSIBLE', origins: 1 },
      { id: 'SQ-2', status: 'OPEN', origins: 0 },
    ]);
  });
});
