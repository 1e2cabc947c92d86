// What each reader has been shown of a source (SPEC 11.1, reply economy): its outline once, and each
// passage once. Kept in the run's state, since each tool call may be a fresh server process.
import type { RunState, RunStore } from '../store/run-store.js';

/** The reader a fetch without `thread` counts as: it sees the outline only on the run's first read. */
const ANONYMOUS = '';

export interface Seen {
  /** This read shows the outline: the thread's first read of the source, or without a thread the run's first. */
  first: boolean;
  /** Start offsets of the passages this reader was shown before. */
  passages: ReadonlySet<number>;
}

export function seenBy(run: RunState, sourceId: string, thread: string | undefined): Seen {
  const readers = run.reads?.[sourceId];
  const mine = readers?.[thread ?? ANONYMOUS];
  const first = thread === undefined ? readers === undefined : mine === undefined;
  return { first, passages: new Set(mine ?? []) };
}

/** Adds this read (and the passages it showed) to the run's state, under the run lock. */
export function recordRead(store: RunStore, runId: string, sourceId: string, thread: string | undefined, shown: readonly number[]): Promise<void> {
  return store.lock(runId, () => {
    const run = store.loadRun(runId);
    const readers = run.reads?.[sourceId] ?? {};
    const reader = thread ?? ANONYMOUS;
    const before = readers[reader];
    const merged = [...new Set([...(before ?? []), ...shown])].sort((a, b) => a - b);
    if (before !== undefined && merged.length === before.length) return;
    store.saveRun({ ...run, reads: { ...run.reads, [sourceId]: { ...readers, [reader]: merged } } });
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
