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

  it('the thread-cap note fires at or one below the chosen tier\'s cap and names every tier\'s cap beside the count', () => {
    expect(threadCapNote(2, 'standard')).toBeUndefined();
    expect(threadCapNote(2, 'deep')).toBeUndefined();
    expect(threadCapNote(1, 'quick')).toBe(
      'the brief has 1 thread; thread caps: quick allows 2 (this run, one below the cap), standard allows 4, deep allows 6; critic threads do not count; nothing to change, unless you want room to add a thread later (a deeper tier)',
    );
    expect(threadCapNote(3, 'standard')).toBe(
      'the brief has 3 threads; thread caps: quick allows 2 (over: refused), standard allows 4 (this run, one below the cap), deep allows 6; critic threads do not count; nothing to change, unless you want room to add a thread later (a deeper tier)',
    );
    expect(threadCapNote(4, 'standard')).toContain('standard allows 4 (this run, at the cap)');
    expect(threadCapNote(6, 'deep')).toContain('quick allows 2 (over: refused), standard allows 4 (over: refused), deep allows 6 (this run, at the cap)');
    // Each says what to do (trials 60 and 61 read the bare count as a warning without an action).
    expect(threadCapNote(6, 'deep')).toMatch(/; nothing to change$/);
    expect(threadCapNote(5, 'standard')).toMatch(/standard allows 4 \(this run, over: refused\).*; trim the brief or choose a deeper tier$/);
    expect(threadCapNote(7, 'deep')).toMatch(/; trim the brief$/);
  });
});
