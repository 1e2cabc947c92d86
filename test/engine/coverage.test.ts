import { describe, expect, it } from 'vitest';
import { forcedSubject } from '../../src/engine/coverage.js';

const subjects = ['Iceland', 'Spain', 'Japan'];
const force = (completedRounds: number, roundBudget: number, roundsBySubject: Record<string, number> = { Iceland: 1 }) =>
  forcedSubject({ subjects, roundsBySubject, completedRounds, roundBudget });

describe('forcedSubject', () => {
  it('budget 5: forced after 3 completed rounds, not after 2', () => {
    expect(force(2, 5)).toBeUndefined();
    expect(force(3, 5)).toBe('Spain');
  });

  it('budget 4: strictly more than half, so 3 forces and 2 does not', () => {
    expect(force(2, 4)).toBeUndefined();
    expect(force(3, 4)).toBe('Spain');
  });

  it('budget 10: 6 forces, 5 does not', () => {
    expect(force(5, 10)).toBeUndefined();
    expect(force(6, 10)).toBe('Spain');
  });

  it('picks the first uncovered subject in brief order, counting explicit zeros as uncovered', () => {
    expect(force(4, 5, { Iceland: 0, Spain: 2 })).toBe('Iceland');
    expect(force(4, 5, { Spain: 1 })).toBe('Iceland');
    expect(force(4, 5, { Iceland: 1, Spain: 1 })).toBe('Japan');
  });

  it('is undefined when every subject has a round, or there are no subjects', () => {
    expect(force(5, 5, { Iceland: 1, Spain: 3, Japan: 1 })).toBeUndefined();
    expect(forcedSubject({ subjects: [], roundsBySubject: {}, completedRounds: 5, roundBudget: 5 })).toBeUndefined();
  });

  it('does not read inherited object members as round counts', () => {
    expect(
      forcedSubject({ subjects: ['constructor', 'toString'], roundsBySubject: {}, completedRounds: 3, roundBudget: 4 }),
    ).toBe('constructor');
  });
});
