// Stale rounds (SPEC 11.1): a round whose searches handed back only pages the run had already stored, and
// that added no fact, could learn nothing; two in a row mean nothing new is reachable, in any phase. A round
// whose results held pages not stored but that read none of them (or only stored ones) and added no fact is
// stale too: the caller judged nothing there worth reading (trial 8's critic thread spent three such rounds).

export const STALE_STOP_AFTER = 2;

export const STALE_PREFIX = 'nothing new is reachable';
/** SPEC 11.1's reason, when every result was already stored. */
export const STALE_REASON = `${STALE_PREFIX}: every result is already stored`;
/** When results held pages not stored but the round read none of them. */
export const STALE_UNREAD_REASON = `${STALE_PREFIX}: no result the run had not stored was read, and no fact was added`;

/**
 * "Already stored" means stored before this round began (its number at most `storedBefore`, the run's
 * highest source number when the thread's last round was recorded): a page the round itself read for the
 * first time was something new, even when it yielded no fact. A round that returned no URL shows nothing
 * about what is reachable and is not stale; so is every round of a thread whose baseline is unknown.
 * `visitedSourceIds` are the pages the round read (undefined: not stored, so new to the run).
 */
export function isStale(i: StaleInput): boolean {
  return staleKind(i) !== undefined;
}

interface StaleInput {
  resultSourceIds: readonly (string | undefined)[];
  visitedSourceIds?: readonly (string | undefined)[];
  storedBefore: number | undefined;
  newFacts: number;
}

/** Why a round is stale: every result stored (`stored`), or none of the unstored ones read (`unread`). */
export function staleKind(i: StaleInput): 'stored' | 'unread' | undefined {
  if (i.newFacts > 0 || i.storedBefore === undefined || i.resultSourceIds.length === 0) return undefined;
  const before = i.storedBefore;
  const old = (id: string | undefined) => id !== undefined && sourceNumber(id) <= before;
  if (i.resultSourceIds.every(old)) return 'stored';
  return i.visitedSourceIds !== undefined && i.visitedSourceIds.every(old) ? 'unread' : undefined;
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
