import { describe, expect, it } from 'vitest';
import { urlOverlap } from '../../src/engine/overlap.js';
import { OVERLAP_THRESHOLD, plateauLevel } from '../../src/engine/plateau.js';

const keys = (prefix: string, n: number): string[] => Array.from({ length: n }, (_, k) => `${prefix}${k}`);

describe('urlOverlap', () => {
  it('is 0 on round 1, whatever this round visited', () => {
    expect(urlOverlap(['a', 'b'], undefined)).toBe(0);
  });

  it('is |this ∩ previous| / |this|: 3 of 5 is 0.6', () => {
    expect(urlOverlap(['a', 'b', 'c', 'd', 'e'], ['a', 'b', 'c', 'x'])).toBe(0.6);
  });

  it('divides by this round, not the previous one', () => {
    expect(urlOverlap(['a', 'b'], ['a', 'b', 'c', 'd', 'e', 'f'])).toBe(1);
    expect(urlOverlap(['a', 'b', 'c', 'd'], ['a'])).toBe(0.25);
  });

  it('is 0 for an empty round (no division by zero)', () => {
    expect(urlOverlap([], ['a'])).toBe(0);
    expect(urlOverlap([], [])).toBe(0);
  });

  it('counts each key once on both sides', () => {
    expect(urlOverlap(['a', 'a', 'b'], ['a', 'a'])).toBe(0.5);
  });

  it('lands either side of the L1 threshold: 59/100 vs 60/100', () => {
    const previous = keys('old', 100);
    const below = urlOverlap([...keys('old', 59), ...keys('new', 41)], previous);
    const at = urlOverlap([...keys('old', 60), ...keys('new', 40)], previous);
    expect(below).toBe(0.59);
    expect(at).toBe(0.6);
    expect(plateauLevel({ overlap: below, newFacts: 3, zeroNewStreak: 0 })).toBe(0);
    expect(plateauLevel({ overlap: at, newFacts: 3, zeroNewStreak: 0 })).toBe(1);
    expect(at).toBeGreaterThanOrEqual(OVERLAP_THRESHOLD);
  });
});
