import { describe, expect, it } from 'vitest';
import { isStale, staleStreak } from '../../src/engine/stale-round.js';

describe('stale rounds (issue 23)', () => {
  it('is stale only when every result was stored before the round began and no fact was new', () => {
    expect(isStale({ resultSourceIds: ['S1', 'S3'], storedBefore: 3, newFacts: 0 })).toBe(true);
    expect(isStale({ resultSourceIds: ['S1', 'S3'], storedBefore: 3, newFacts: 1 })).toBe(false);
    // S4 was read for the first time in this round: something new was reached.
    expect(isStale({ resultSourceIds: ['S1', 'S4'], storedBefore: 3, newFacts: 0 })).toBe(false);
    // A result never fetched is not stored.
    expect(isStale({ resultSourceIds: ['S1', undefined], storedBefore: 3, newFacts: 0 })).toBe(false);
    // No result, or no baseline (a thread started before the rule): not stale.
    expect(isStale({ resultSourceIds: [], storedBefore: 3, newFacts: 0 })).toBe(false);
    expect(isStale({ resultSourceIds: ['S1'], storedBefore: undefined, newFacts: 0 })).toBe(false);
  });

  it('is stale when the round read no page that was new to the run, whatever its results held', () => {
    expect(isStale({ resultSourceIds: ['S1', undefined], visitedSourceIds: [], storedBefore: 3, newFacts: 0 })).toBe(true);
    expect(isStale({ resultSourceIds: ['S1', undefined], visitedSourceIds: ['S2'], storedBefore: 3, newFacts: 0 })).toBe(true);
    expect(isStale({ resultSourceIds: ['S1', 'S4'], visitedSourceIds: ['S4'], storedBefore: 3, newFacts: 0 })).toBe(false);
    expect(isStale({ resultSourceIds: ['S1', undefined], visitedSourceIds: [undefined], storedBefore: 3, newFacts: 0 })).toBe(false);
    expect(isStale({ resultSourceIds: [undefined], visitedSourceIds: [], storedBefore: 3, newFacts: 1 })).toBe(false);
    expect(isStale({ resultSourceIds: [], visitedSourceIds: [], storedBefore: 3, newFacts: 0 })).toBe(false);
  });

  it('counts stale rounds in a row', () => {
    expect(staleStreak(1, true)).toBe(2);
    expect(staleStreak(1, false)).toBe(0);
  });
});
