import { describe, expect, it } from 'vitest';
import { PHASE_CAPS, nextPhase, phaseOrder } from '../../src/engine/phases.js';
import { PHASES, type Phase, type Saturation } from '../../src/engine/types.js';

const ALL = phaseOrder();
const step = (phase: Phase, roundsInPhase: number, saturation: Saturation = 'LOW', forceAdvance = false, order = ALL) =>
  nextPhase({ order, phase, roundsInPhase, saturation, forceAdvance });

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

describe('nextPhase caps', () => {
  it('has caps 2 / 3 / 2 and none for VERIFY', () => {
    expect(PHASE_CAPS).toEqual({ SURVEY: 2, EXTRACT: 3, DIVERSIFY: 2, VERIFY: undefined });
  });

  it('SURVEY stays after 1 round and advances after 2', () => {
    expect(step('SURVEY', 1)).toEqual({
      next: 'SURVEY',
      advanced: false,
      reason: 'stay: 1 of 2 rounds in SURVEY',
      isLast: false,
    });
    expect(step('SURVEY', 2)).toEqual({
      next: 'EXTRACT',
      advanced: true,
      reason: '2 rounds in SURVEY (cap 2)',
      isLast: false,
    });
  });

  it('EXTRACT stays after 2 rounds and advances after 3', () => {
    expect(step('EXTRACT', 2, 'MEDIUM')).toMatchObject({ next: 'EXTRACT', advanced: false });
    expect(step('EXTRACT', 3, 'MEDIUM')).toMatchObject({ next: 'DIVERSIFY', advanced: true });
  });

  it('DIVERSIFY stays after 1 round and advances after 2', () => {
    expect(step('DIVERSIFY', 1)).toMatchObject({ next: 'DIVERSIFY', advanced: false });
    expect(step('DIVERSIFY', 2)).toMatchObject({ next: 'VERIFY', advanced: true });
  });
});

describe('nextPhase triggers', () => {
  it('advances on HIGH saturation before the cap', () => {
    expect(step('EXTRACT', 1, 'HIGH')).toEqual({
      next: 'DIVERSIFY',
      advanced: true,
      reason: 'saturation HIGH',
      isLast: false,
    });
    expect(step('EXTRACT', 1, 'MEDIUM').advanced).toBe(false);
  });

  it('advances on plateau L2 and names it', () => {
    const s = step('SURVEY', 1, 'HIGH', true);
    expect(s).toMatchObject({ next: 'EXTRACT', advanced: true });
    expect(s.reason).toMatch(/^plateau L2/);
  });

  it('never advances past VERIFY, and says it is the last phase', () => {
    for (const [sat, force] of [
      ['LOW', false],
      ['HIGH', false],
      ['HIGH', true],
    ] as const) {
      const s = step('VERIFY', 9, sat, force);
      expect(s.next).toBe('VERIFY');
      expect(s.advanced).toBe(false);
      expect(s.isLast).toBe(true);
      expect(s.reason).toContain('last phase');
    }
  });
});

describe('nextPhase with a strategy that omits phases', () => {
  const order = phaseOrder(['VERIFY', 'SURVEY']);

  it('starts in SURVEY and advances straight to VERIFY', () => {
    expect(order[0]).toBe('SURVEY');
    expect(step('SURVEY', 1, 'LOW', false, order)).toMatchObject({ next: 'SURVEY', advanced: false });
    expect(step('SURVEY', 2, 'LOW', false, order)).toMatchObject({ next: 'VERIFY', advanced: true, isLast: false });
    expect(step('VERIFY', 1, 'HIGH', false, order)).toMatchObject({ next: 'VERIFY', advanced: false, isLast: true });
  });

  it('treats the last listed phase as last even when it has a cap', () => {
    const short = phaseOrder(['SURVEY', 'EXTRACT']);
    const s = step('EXTRACT', 3, 'HIGH', false, short);
    expect(s).toMatchObject({ next: 'EXTRACT', advanced: false, isLast: true });
    expect(s.reason).toContain('EXTRACT is the last phase');
  });

  it('refuses a phase outside the order (a caller bug)', () => {
    expect(() => step('EXTRACT', 1, 'LOW', false, order)).toThrow(/not in the thread's order/);
  });
});
