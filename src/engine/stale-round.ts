// Stale rounds (SPEC 11.1): a round whose searches handed back only pages the run had already stored, and
// that added no fact, could learn nothing; two in a row mean nothing new is reachable, in any phase.

export const STALE_STOP_AFTER = 2;

export const STALE_REASON = 'nothing new is reachable: every result is already stored';

/**
 * "Already stored" means stored before this round began (its number at most `storedBefore`, the run's
 * highest source number when the thread's last round was recorded): a page the round itself read for the
 * first time was something new, even when it yielded no fact. A round that returned no URL shows nothing
 * about what is reachable and is not stale; so is every round of a thread whose baseline is unknown.
 */
export function isStale(i: { resultSourceIds: readonly (string | undefined)[]; storedBefore: number | undefined; newFacts: number }): boolean {
  if (i.newFacts > 0 || i.storedBefore === undefined || i.resultSourceIds.length === 0) return false;
  const before = i.storedBefore;
  return i.resultSourceIds.every((id) => id !== undefined && sourceNumber(id) <= before);
}

/** Stale rounds in a row after this one. */
export function staleStreak(prev: number, stale: boolean): number {
  return stale ? prev + 1 : 0;
}

/** S12 → 12; anything else is no stored source. */
export function sourceNumber(id: string): number {
  const m = /^S([1-9][0-9]*)$/.exec(id);
  return m ? Number(m[1]) : Number.POSITIVE_INFINITY;
}
