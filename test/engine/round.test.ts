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

function thread(o: { budget?: number; strategy?: Phase[]; subjects?: string[] } = {}): ThreadState {
  return newThreadState({
    definition: { name: 'T', sub_questions: [{ id: 'SQ-1', question: 'Did output rise?' }], subjects: o.subjects ?? [], ...(o.strategy ? { source_strategy: o.strategy } : {}) },
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

  it('a cap or HIGH saturation moves the phase without changing the action', () => {
    let s = thread();
    const r1 = decideRound(s, input(['https://x.org/a'], 3), ctx);
    expect(r1.decision).toMatchObject({ action: 'CONTINUE', next_phase: 'SURVEY' });
    s = r1.state;
    const r2 = decideRound(s, input(['https://x.org/b'], 3), ctx);
    expect(r2.decision).toMatchObject({ action: 'CONTINUE', phase: 'SURVEY', next_phase: 'EXTRACT' });
    const r3 = decideRound(r2.state, input(['https://x.org/c'], 1), ctx);
    expect(r3.decision).toMatchObject({ action: 'CONTINUE', saturation: 'HIGH', phase: 'EXTRACT', next_phase: 'DIVERSIFY' });
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
});
