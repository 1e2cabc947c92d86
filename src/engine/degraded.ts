// Degraded mode (SPEC 4.1): counts fetches that reached the network; once degraded, always degraded.

export interface FetchTally {
  attempts: number;
  failures: number;
  consecutiveFailures: number;
  degraded: boolean;
}

const STREAK_LIMIT = 3;
const MIN_ATTEMPTS_FOR_RATE = 6;
const FAILURE_RATE_LIMIT = 0.5;

export function emptyTally(): FetchTally {
  return { attempts: 0, failures: 0, consecutiveFailures: 0, degraded: false };
}

export function recordFetch(t: FetchTally, failed: boolean): FetchTally {
  const attempts = t.attempts + 1;
  const failures = t.failures + (failed ? 1 : 0);
  const consecutiveFailures = failed ? t.consecutiveFailures + 1 : 0;
  const degraded =
    t.degraded ||
    consecutiveFailures >= STREAK_LIMIT ||
    (attempts >= MIN_ATTEMPTS_FOR_RATE && failures / attempts >= FAILURE_RATE_LIMIT);
  return { attempts, failures, consecutiveFailures, degraded };
}
