import { DEPTHS, type Depth, type TierBudgets } from './types.js';

/** SPEC 4.1 depth tiers. */
export const TIERS: Record<Depth, TierBudgets> = {
  quick: { max_threads: 2, rounds_per_thread: 2, results_per_round: 3, critic_rounds: 2 },
  standard: { max_threads: 4, rounds_per_thread: 5, results_per_round: 5, critic_rounds: 2 },
  deep: { max_threads: 6, rounds_per_thread: 10, results_per_round: 5, critic_rounds: 3 },
};

/**
 * Upper bound on fetches for the brief's threads: threads × rounds × results per round. Critic threads
 * opened later (up to one per critic round) and fetches of pages beyond the first read can add more.
 */
export function maxFetches(depth: Depth, threadCount: number): number {
  const t = TIERS[depth];
  return threadCount * t.rounds_per_thread * t.results_per_round;
}

/**
 * The dry run's note on thread caps, when the brief's threads reach the chosen tier's cap or come within
 * one of it: every tier's cap next to the count, so that the plan is trimmed or the tier chosen before a
 * real start refuses it (a trial's first dry run asked a tier too small and was refused).
 */
export function threadCapNote(threads: number, depth: Depth): string | undefined {
  if (threads < TIERS[depth].max_threads - 1) return undefined;
  const caps = DEPTHS.map((d) => {
    const cap = TIERS[d].max_threads;
    const where = threads > cap ? 'over: refused' : threads === cap ? 'at the cap' : threads === cap - 1 ? 'one below the cap' : '';
    const notes = [...(d === depth ? ['this run'] : []), ...(where ? [where] : [])];
    return `${d} allows ${cap}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`;
  });
  // Said with what to do, as every warning is (trials 60 and 61 read a bare count as a warning with no action).
  const deepest = depth === DEPTHS[DEPTHS.length - 1];
  const act = threads > TIERS[depth].max_threads
    ? `trim the brief${deepest ? '' : ' or choose a deeper tier'}`
    : `nothing to change${deepest ? '' : ', unless you want room to add a thread later (a deeper tier)'}`;
  return `the brief has ${threads} thread${threads === 1 ? '' : 's'}; thread caps: ${caps.join(', ')}; critic threads do not count; ${act}`;
}
