// What each reader has been shown of a source (SPEC 11.1, reply economy): its outline once, and each
// passage once. Kept in the run's state, since each tool call may be a fresh server process.
import type { RunState, RunStore } from '../store/run-store.js';

/** The reader a fetch without `thread` counts as: it sees the outline only on the run's first read. */
const ANONYMOUS = '';

export interface Seen {
  /** This read shows the outline: the thread's first read of the source, or without a thread the run's first. */
  first: boolean;
  /** Start offsets of the passages this thread was shown before; none for a read without a thread. */
  passages: ReadonlySet<number>;
  /**
   * Of those, the ones shown in the thread's current round: a page read in order leaves them out, as they
   * are still in the reader's context. After its next record_round a page shows them again (a resumed or
   * compacted session may have lost them). Empty without a thread.
   */
  thisRound: ReadonlySet<number>;
}

/** `round` is the thread's rounds recorded so far (its current round), when a thread reads. */
export function seenBy(run: RunState, sourceId: string, thread: string | undefined, round?: number): Seen {
  const readers = run.reads?.[sourceId];
  const mine = readers?.[thread ?? ANONYMOUS];
  const first = thread === undefined ? readers === undefined : mine === undefined;
  const now = thread !== undefined && round !== undefined ? run.round_reads?.[thread] : undefined;
  // Passages are left out only for a thread, which is one reader's context. Reads without one come from
  // several contexts (the orchestrator, a fresh auditor, the critic): each would be refused what another saw.
  return { first, passages: new Set(thread === undefined ? [] : (mine ?? [])), thisRound: new Set(now && now.round === round ? (now.sources[sourceId] ?? []) : []) };
}

function merge(before: readonly number[] | undefined, shown: readonly number[]): number[] {
  return [...new Set([...(before ?? []), ...shown])].sort((a, b) => a - b);
}

/** Adds this read (and the passages it showed) to the run's state, under the run lock. */
export function recordRead(store: RunStore, runId: string, sourceId: string, thread: string | undefined, shown: readonly number[], round?: number): Promise<void> {
  return store.lock(runId, () => {
    const run = store.loadRun(runId);
    const readers = run.reads?.[sourceId] ?? {};
    const reader = thread ?? ANONYMOUS;
    const before = readers[reader];
    const merged = merge(before, shown);
    let next: RunState = run;
    if (before === undefined || merged.length !== before.length) next = { ...next, reads: { ...run.reads, [sourceId]: { ...readers, [reader]: merged } } };
    if (thread !== undefined && round !== undefined && shown.length > 0) {
      const had = run.round_reads?.[thread];
      const sources = had && had.round === round ? had.sources : {};
      const inRound = merge(sources[sourceId], shown);
      if (inRound.length !== (sources[sourceId]?.length ?? -1)) next = { ...next, round_reads: { ...run.round_reads, [thread]: { round, sources: { ...sources, [sourceId]: inRound } } } };
    }
    if (next !== run) store.saveRun(next);
  });
}

/**
 * Adds passages a listing showed (audit_report's pairs, coverage_report's items) to the run's state, under
 * the run lock; an entry already there keeps its first value. A failed note (a full disk) costs at most a
 * passage shown again, so it never refuses the listing.
 */
export async function rememberShown(store: RunStore, runId: string, field: 'audit_shown' | 'coverage_shown', shown: Readonly<Record<string, string>>): Promise<void> {
  if (Object.keys(shown).length === 0) return;
  await store
    .lock(runId, () => {
      const run = store.loadRun(runId);
      store.saveRun({ ...run, [field]: { ...shown, ...run[field] } });
    })
    .catch(() => undefined);
}
