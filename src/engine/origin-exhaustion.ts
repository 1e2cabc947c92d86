// Origin exhaustion (SPEC 4.1): a thread whose searches keep returning the sites it has already seen has
// run out of places to look. Counted in sites, not URLs: other pages of the same site are no new source.
import type { Phase } from './types.js';

/** Rounds in a row, in the later phases, with no new site. */
export const EXHAUSTED_AFTER = 2;

/** The origins of this round not seen in the thread's earlier rounds, in first-seen order. */
export function newOrigins(roundOrigins: readonly string[], earlier: ReadonlySet<string>): string[] {
  return [...new Set(roundOrigins)].filter((o) => !earlier.has(o));
}

/** DIVERSIFY, VERIFY, or the last phase of the thread's strategy: where sites should still be new. */
export function isLatePhase(phase: Phase, order: readonly Phase[]): boolean {
  return phase === 'DIVERSIFY' || phase === 'VERIFY' || phase === order.at(-1);
}

/**
 * The streak after this round: a late-phase round with no new site extends it (a round that visited
 * nothing has none), any other round ends it. Exhaustion, once reached, stays.
 */
export function originStreak(i: { prevStreak: number; phase: Phase; order: readonly Phase[]; newOrigins: number }): number {
  return isLatePhase(i.phase, i.order) && i.newOrigins === 0 ? i.prevStreak + 1 : 0;
}

/** In the last phase with origins exhausted, a round with no new fact and no new site is a dead end. */
export function deadEnd(i: { isLastPhase: boolean; exhausted: boolean; newFacts: number; newOrigins: number }): boolean {
  return i.isLastPhase && i.exhausted && i.newFacts === 0 && i.newOrigins === 0;
}

export const DEAD_END_REASON = `no new site in ${EXHAUSTED_AFTER} rounds`;
