// Who has been shown a source's outline (SPEC 11.1, reply economy): kept in the run's state, since each
// tool call may be a fresh server process.
import type { RunStore } from '../store/run-store.js';

/** The reader a fetch without `thread` counts as: it sees the outline only on the run's first read. */
const ANONYMOUS = '';

/**
 * Records that `thread` (or, without one, the run) reads `sourceId` now, and says whether this is the
 * read that shows the outline: a thread's first read of the source, or without a thread the run's first.
 */
export function markRead(store: RunStore, runId: string, sourceId: string, thread: string | undefined): Promise<boolean> {
  return store.lock(runId, () => {
    const run = store.loadRun(runId);
    const readers = run.outline_readers?.[sourceId];
    const first = thread === undefined ? readers === undefined : !(readers ?? []).includes(thread);
    const reader = thread ?? ANONYMOUS;
    if (!(readers ?? []).includes(reader)) {
      store.saveRun({ ...run, outline_readers: { ...run.outline_readers, [sourceId]: [...(readers ?? []), reader] } });
    }
    return first;
  });
}
