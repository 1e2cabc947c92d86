import { describe, expect, it } from 'vitest';
import { PHASE_MAX, firstPhaseWithRounds, nextPhase, phaseAllowances, phaseOrder, phasePlan } from '../../src/engine/phases.js';
import { PHASES, type Phase, type Saturation } from '../../src/engine/types.js';

const ALL = phaseOrder();
const step = (phase: Phase, roundsInPhase: number, saturation: Saturation = 'LOW', forceAdvance = false, order = ALL, budget = 10) =>
  nextPhase({ order, allowances: phaseAllowances(order, budget), phase, roundsInPhase, saturation, forceAdvance });

describe('phaseOrder', () => {
  it('is all four phases when the strategy is absent or empty', () => {
    expect(phaseOrder()).toEqual([...PHASES]);
    expect(phaseOrder([])).toEqual([...PHASES]);
  });

  it('keeps canonical order and drops repeats whatever order the strategy lists', () => {
    expect(phaseOrder(['VERIFY', 'SURVEY'])).toEqual(['SURVEY', 'VERIFY']);
    expect(phaseOrder(['DIVERSIFY', 'EXTRACT', 'DIVERSIFY'])).toEqual(['EXTRACT', 'DIVERSIFY']);
  });
});

describe('phaseAllowances (the SPEC 4.1 table)', () => {
  const table: [number, Record<Phase, number>][] = [
    [2, { SURVEY: 1, EXTRACT: 0, DIVERSIFY: 0, VERIFY: 1 }],
    [3, { SURVEY: 1, EXTRACT: 1, DIVERSIFY: 0, VERIFY: 1 }],
    [4, { SURVEY: 1, EXTRACT: 1, DIVERSIFY: 1, VERIFY: 1 }],
    [5, { SURVEY: 2, EXTRACT: 1, DIVERSIFY: 1, VERIFY: 1 }],
    [7, { SURVEY: 2, EXTRACT: 2, DIVERSIFY: 2, VERIFY: 1 }],
    [10, { SURVEY: 2, EXTRACT: 3, DIVERSIFY: 2, VERIFY: 3 }],
  ];
  for (const [budget, expected] of table) {
    it(`B=${budget} → ${PHASES.map((p) => `${p[0]}${expected[p]}`).join(' ')}`, () => {
      expect(phaseAllowances(ALL, budget)).toEqual(expected);
    });
  }

  it('always deals exactly the budget, and never more than a maximum to an earlier phase', () => {
    for (const order of [ALL, phaseOrder(['SURVEY', 'VERIFY']), phaseOrder(['EXTRACT', 'DIVERSIFY']), phaseOrder(['DIVERSIFY'])]) {
      for (let b = 0; b <= 30; b++) {
        const a = phaseAllowances(order, b);
        expect(Object.values(a).reduce((n, x) => n + (x ?? 0), 0)).toBe(b);
        for (const p of order.slice(0, -1)) expect(a[p]).toBeLessThanOrEqual(PHASE_MAX[p]);
      }
    }
  });

  it('gives the one round of a budget of 1 to the last phase, where the thread then starts', () => {
    expect(phaseAllowances(ALL, 1)).toEqual({ SURVEY: 0, EXTRACT: 0, DIVERSIFY: 0, VERIFY: 1 });
    expect(firstPhaseWithRounds(ALL, phaseAllowances(ALL, 1))).toBe('VERIFY');
    expect(firstPhaseWithRounds(ALL, phaseAllowances(ALL, 2))).toBe('SURVEY');
  });

  it('deals a strategy that omits phases over its own order', () => {
    expect(phaseAllowances(phaseOrder(['SURVEY', 'EXTRACT']), 5)).toEqual({ SURVEY: 2, EXTRACT: 3 });
  });
});

describe('nextPhase with allowances', () => {
  it('a standard thread with no early advance runs SURVEY, SURVEY, EXTRACT, DIVERSIFY, VERIFY', () => {
    const allowances = phaseAllowances(ALL, 5);
    const phases: Phase[] = [];
    let phase: Phase = 'SURVEY';
    let inPhase = 0;
    for (let round = 1; round <= 5; round++) {
      phases.push(phase);
      inPhase++;
      const s = nextPhase({ order: ALL, allowances, phase, roundsInPhase: inPhase, saturation: 'MEDIUM', forceAdvance: false });
      if (s.advanced) inPhase = 0;
      phase = s.next;
    }
    expect(phases).toEqual(['SURVEY', 'SURVEY', 'EXTRACT', 'DIVERSIFY', 'VERIFY']);
  });

  it('stays while the allowance lasts and says how far it is', () => {
    expect(step('SURVEY', 1)).toEqual({ next: 'SURVEY', advanced: false, reason: 'stay: 1 of 2 rounds in SURVEY', isLast: false });
    expect(step('SURVEY', 2)).toEqual({
      next: 'EXTRACT',
      advanced: true,
      reason: 'allowance used: 2 of 2 rounds in SURVEY; advance to EXTRACT',
      isLast: false,
    });
    expect(step('EXTRACT', 2, 'MEDIUM')).toMatchObject({ next: 'EXTRACT', advanced: false });
    expect(step('EXTRACT', 3, 'MEDIUM')).toMatchObject({ next: 'DIVERSIFY', advanced: true });
  });

  it('skips a phase whose allowance is 0 and names it', () => {
    const s = step('SURVEY', 1, 'LOW', false, ALL, 2);
    expect(s).toMatchObject({ next: 'VERIFY', advanced: true });
    expect(s.reason).toContain('EXTRACT, DIVERSIFY skipped');
  });

  it('advances early on HIGH saturation and on L2, naming the trigger', () => {
    expect(step('EXTRACT', 1, 'HIGH')).toMatchObject({ next: 'DIVERSIFY', advanced: true });
    expect(step('EXTRACT', 1, 'HIGH').reason).toMatch(/^saturation HIGH/);
    expect(step('EXTRACT', 1, 'MEDIUM').advanced).toBe(false);
    const l2 = step('SURVEY', 1, 'HIGH', true);
    expect(l2).toMatchObject({ next: 'EXTRACT', advanced: true });
    expect(l2.reason).toMatch(/^plateau L2/);
  });

  it('never leaves the last phase, and says so', () => {
    for (const [sat, force] of [
      ['LOW', false],
      ['HIGH', false],
      ['HIGH', true],
    ] as const) {
      const s = step('VERIFY', 9, sat, force);
      expect(s).toMatchObject({ next: 'VERIFY', advanced: false, isLast: true });
      expect(s.reason).toContain('last phase');
    }
    const short = phaseOrder(['SURVEY', 'EXTRACT']);
    expect(step('EXTRACT', 3, 'HIGH', false, short)).toMatchObject({ next: 'EXTRACT', advanced: false, isLast: true });
  });

  it('refuses a phase outside the order (a caller bug)', () => {
    expect(() => step('EXTRACT', 1, 'LOW', false, phaseOrder(['VERIFY', 'SURVEY']))).toThrow(/not in the thread's order/);
  });
});

describe('phasePlan', () => {
  it('shows spent rounds for phases left, the deal ahead, and the rest for the last phase', () => {
    // Standard budget; SURVEY left early after 1 round (HIGH saturation): its unused round goes to VERIFY.
    const plan = phasePlan({ order: ALL, budget: 5, phase: 'EXTRACT', roundsByPhase: { SURVEY: 1 }, converged: false });
    expect(plan).toEqual([
      { phase: 'SURVEY', rounds: 1, allowance: 1, state: 'done' },
      { phase: 'EXTRACT', rounds: 0, allowance: 1, state: 'now' },
      { phase: 'DIVERSIFY', rounds: 0, allowance: 1, state: 'ahead' },
      { phase: 'VERIFY', rounds: 0, allowance: 2, state: 'ahead' },
    ]);
  });

  it('marks phases with no round as skipped', () => {
    const plan = phasePlan({ order: ALL, budget: 2, phase: 'SURVEY', roundsByPhase: {}, converged: false });
    expect(plan.map((r) => `${r.phase} ${r.allowance} ${r.state}`)).toEqual(['SURVEY 1 now', 'EXTRACT 0 skipped', 'DIVERSIFY 0 skipped', 'VERIFY 1 ahead']);
  });
});
