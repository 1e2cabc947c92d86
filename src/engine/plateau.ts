import { ESCAPE_STRATEGIES, type EscapeStrategy } from './types.js';

export const OVERLAP_THRESHOLD = 0.6;

export type PlateauLevel = 0 | 1 | 2 | 3;

/**
 * SPEC 4.1 plateau levels. `zeroNewStreak` counts consecutive rounds of the thread, this one included,
 * with no new facts; it runs across phase changes.
 */
export function plateauLevel(i: { overlap: number; newFacts: number; zeroNewStreak: number }): PlateauLevel {
  const repeating = i.overlap >= OVERLAP_THRESHOLD;
  if (repeating && i.newFacts === 0) return 3;
  if (i.zeroNewStreak >= 2) return 2;
  if (repeating) return 1;
  return 0;
}

/** The next unused strategy of the escape ladder, or undefined once all six are spent. */
export function nextEscape(used: readonly EscapeStrategy[]): EscapeStrategy | undefined {
  return ESCAPE_STRATEGIES.find((s) => !used.includes(s));
}
