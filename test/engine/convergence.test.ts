import { describe, expect, it } from 'vitest';
import { convergence, untargetedSubjectsHolding } from '../../src/engine/convergence.js';

type Input = Parameters<typeof convergence>[0];
const met: Input = {
  subQuestions: [
    { status: 'ANSWERED', confidence: 'VERIFIED' },
    { status: 'ANSWERED', confidence: 'PLAUSIBLE' },
  ],
  subjectRounds: [1, 2],
  openHighContradictions: 0,
  plateauL3: false,
  roundsCompleted: 2,
  roundBudget: 5,
};
const c = (over: Partial<Input>) => convergence({ ...met, ...over });

describe('convergence', () => {
  it('CRITERIA_MET when all answered at ≥ PLAUSIBLE, all subjects covered, no open HIGH contradiction', () => {
    expect(c({})).toBe('CRITERIA_MET');
    expect(c({ subjectRounds: [] })).toBe('CRITERIA_MET');
  });

  it('each missing criterion blocks CRITERIA_MET', () => {
    expect(c({ subQuestions: [{ status: 'ANSWERED', confidence: 'VERIFIED' }, { status: 'PARTIAL', confidence: 'VERIFIED' }] })).toBeUndefined();
    expect(c({ subQuestions: [{ status: 'ANSWERED', confidence: 'UNVERIFIED' }] })).toBeUndefined();
    expect(c({ subQuestions: [{ status: 'ANSWERED' }] })).toBeUndefined();
    expect(c({ subjectRounds: [1, 0] })).toBeUndefined();
    expect(c({ openHighContradictions: 1 })).toBeUndefined();
    expect(c({ subQuestions: [] })).toBeUndefined();
  });

  it('PLATEAU_STOPPED on L3, BUDGET_EXHAUSTED when the budget is spent', () => {
    expect(c({ subjectRounds: [0], plateauL3: true })).toBe('PLATEAU_STOPPED');
    expect(c({ subjectRounds: [0], roundsCompleted: 5 })).toBe('BUDGET_EXHAUSTED');
    expect(c({ subjectRounds: [0], roundsCompleted: 4 })).toBeUndefined();
  });

  it('gives the first reason in SPEC order when several hold', () => {
    expect(c({ plateauL3: true, roundsCompleted: 5 })).toBe('CRITERIA_MET');
    expect(c({ openHighContradictions: 2, plateauL3: true, roundsCompleted: 5 })).toBe('PLATEAU_STOPPED');
    expect(c({ openHighContradictions: 2, roundsCompleted: 6 })).toBe('BUDGET_EXHAUSTED');
  });
});

describe('untargetedSubjectsHolding', () => {
  const u = (over: Partial<Input>) => untargetedSubjectsHolding({ ...met, ...over });
  it('names the subjects with no round when they alone hold the thread open', () => {
    expect(u({ subjectRounds: [1, 0, 0] })).toEqual([1, 2]);
    expect(c({ subjectRounds: [1, 0, 0] })).toBeUndefined();
  });
  it('names none when the criteria are met or something else holds the thread', () => {
    expect(u({})).toEqual([]);
    expect(u({ subjectRounds: [0], openHighContradictions: 1 })).toEqual([]);
    expect(u({ subjectRounds: [0], heldAnswers: 1 })).toEqual([]);
    expect(u({ subjectRounds: [0], subQuestions: [{ status: 'PARTIAL', confidence: 'VERIFIED' }] })).toEqual([]);
  });
});
