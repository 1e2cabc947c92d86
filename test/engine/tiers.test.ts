import { describe, expect, it } from 'vitest';
import { TIERS, maxFetches, threadCapNote } from '../../src/engine/tiers.js';

describe('tiers', () => {
  it('match SPEC 4.1', () => {
    expect(TIERS).toEqual({
      quick: { max_threads: 2, rounds_per_thread: 2, results_per_round: 3, critic_rounds: 2 },
      standard: { max_threads: 4, rounds_per_thread: 5, results_per_round: 5, critic_rounds: 2 },
      deep: { max_threads: 6, rounds_per_thread: 10, results_per_round: 5, critic_rounds: 3 },
    });
  });

  it('max fetches = threads × rounds × results', () => {
    expect(maxFetches('quick', 2)).toBe(12);
    expect(maxFetches('standard', 3)).toBe(75);
    expect(maxFetches('deep', 6)).toBe(300);
    expect(maxFetches('standard', 0)).toBe(0);
  });

  it('the thread-cap note names each tier the thread count reaches or exceeds, and only those', () => {
    expect(threadCapNote(1)).toBeUndefined();
    expect(threadCapNote(2)).toBe('the brief has 2 threads; quick allows 2 (at the cap: no thread can be added) (critic threads do not count); to add one, merge threads or choose a tier that allows more');
    expect(threadCapNote(3)).toContain('; quick allows 2 (over: refused) (critic');
    expect(threadCapNote(4)).toContain('quick allows 2 (over: refused), standard allows 4 (at the cap: no thread can be added) (critic');
    expect(threadCapNote(6)).toContain('standard allows 4 (over: refused), deep allows 6 (at the cap');
  });
});
