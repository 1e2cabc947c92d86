import type { Depth, TierBudgets } from './types.js';

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
