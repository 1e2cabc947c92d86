import { describe, expect, it } from 'vitest';
import { emptyTally, recordFetch, type FetchTally } from '../../src/engine/degraded.js';

// F = failed fetch, S = success.
const run = (pattern: string, from: FetchTally = emptyTally()): FetchTally =>
  [...pattern].reduce((t, ch) => recordFetch(t, ch === 'F'), from);

describe('degraded mode', () => {
  it('starts clean', () => {
    expect(emptyTally()).toEqual({ attempts: 0, failures: 0, consecutiveFailures: 0, degraded: false });
  });

  it('3 consecutive failures degrade, even as the first 3 fetches', () => {
    expect(run('FF').degraded).toBe(false);
    expect(run('FFF')).toEqual({ attempts: 3, failures: 3, consecutiveFailures: 3, degraded: true });
  });

  it('2 failures in a row then a success resets the streak', () => {
    const t = run('FFS');
    expect(t).toEqual({ attempts: 3, failures: 2, consecutiveFailures: 0, degraded: false });
    expect(run('FF', t).degraded).toBe(false);
  });

  it('half failed once 6 were attempted degrades; fewer attempts do not', () => {
    expect(run('FSFSF').degraded).toBe(false);
    expect(run('FSFSFS')).toMatchObject({ attempts: 6, failures: 3, degraded: true });
  });

  it('2 of 5 is fine, and more fetches decide later', () => {
    const t = run('FSFSS');
    expect(t.degraded).toBe(false);
    expect(run('S', t).degraded).toBe(false);
    expect(run('F', t).degraded).toBe(true);
    expect(run('SF', t).degraded).toBe(false);
  });

  it('is sticky: successes never clear it', () => {
    const t = run('FFF' + 'S'.repeat(50));
    expect(t.degraded).toBe(true);
    expect(t.consecutiveFailures).toBe(0);
  });

  it('does not mutate the tally it is given', () => {
    const t = emptyTally();
    recordFetch(t, true);
    expect(t).toEqual(emptyTally());
  });
});
