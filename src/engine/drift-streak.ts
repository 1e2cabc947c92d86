// The drift streak, apart from the drift signals: record_round needs the limit, and keeping it here
// lets the gazetteer behind the signals load only when check_drift first runs.

/** Drifted results in a row after which the thread must reformulate its query. */
export const DRIFT_STREAK_LIMIT = 3;

/** Consecutive drifted results, this one included; a relevant result resets the streak. */
export function nextDriftStreak(prev: number, drift: boolean): number {
  return drift ? prev + 1 : 0;
}

/** What to do with a result: extract it, skip it, or (after a streak of drifts) reformulate the query. */
export function driftAction(consecutiveDrifts: number, drift: boolean): 'extract' | 'skip' | 'reformulate' {
  if (!drift) return 'extract';
  return consecutiveDrifts >= DRIFT_STREAK_LIMIT ? 'reformulate' : 'skip';
}
