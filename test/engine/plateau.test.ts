import { describe, expect, it } from 'vitest';
import { OVERLAP_THRESHOLD, nextEscape, plateauLevel } from '../../src/engine/plateau.js';
import { ESCAPE_STRATEGIES } from '../../src/engine/types.js';

describe('plateauLevel', () => {
  it('uses 0.60 as the overlap threshold', () => {
    expect(OVERLAP_THRESHOLD).toBe(0.6);
  });

  it('L1 at overlap 0.60 with new facts, nothing at 0.59', () => {
    expect(plateauLevel({ overlap: 0.6, newFacts: 2, zeroNewStreak: 0 })).toBe(1);
    expect(plateauLevel({ overlap: 0.59, newFacts: 2, zeroNewStreak: 0 })).toBe(0);
  });

  it('L3 needs overlap ≥ 0.60 and 0 new facts in the same round', () => {
    expect(plateauLevel({ overlap: 0.6, newFacts: 0, zeroNewStreak: 1 })).toBe(3);
    expect(plateauLevel({ overlap: 0.59, newFacts: 0, zeroNewStreak: 1 })).toBe(0);
    expect(plateauLevel({ overlap: 1, newFacts: 1, zeroNewStreak: 0 })).toBe(1);
  });

  it('L3 takes precedence over L2 (and over L1)', () => {
    expect(plateauLevel({ overlap: 0.8, newFacts: 0, zeroNewStreak: 2 })).toBe(3);
    expect(plateauLevel({ overlap: 0.8, newFacts: 0, zeroNewStreak: 5 })).toBe(3);
  });

  it('L2 on a zero-new streak of 2, not 1; L2 beats L1', () => {
    expect(plateauLevel({ overlap: 0, newFacts: 0, zeroNewStreak: 1 })).toBe(0);
    expect(plateauLevel({ overlap: 0, newFacts: 0, zeroNewStreak: 2 })).toBe(2);
    expect(plateauLevel({ overlap: 0.5, newFacts: 0, zeroNewStreak: 3 })).toBe(2);
  });
});

describe('nextEscape', () => {
  it('hands the strategies out in the SPEC order', () => {
    expect(ESCAPE_STRATEGIES).toEqual([
      'query reformulation',
      'source-type shift',
      'lateral search',
      'negative search',
      'community pivot',
      'assumption reframing',
    ]);
    const used: (typeof ESCAPE_STRATEGIES)[number][] = [];
    for (const expected of ESCAPE_STRATEGIES) {
      const next = nextEscape(used);
      expect(next).toBe(expected);
      used.push(next!);
    }
    expect(nextEscape(used)).toBeUndefined();
  });

  it('skips used strategies wherever they sit in the list', () => {
    expect(nextEscape(['source-type shift'])).toBe('query reformulation');
    expect(nextEscape(['query reformulation', 'lateral search'])).toBe('source-type shift');
  });

  it('returns undefined when all six are used, in any order', () => {
    expect(nextEscape([...ESCAPE_STRATEGIES].reverse())).toBeUndefined();
  });
});
