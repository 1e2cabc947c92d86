// The run-wide view of contradictions for the tools that need it (record_round, complete_thread): every
// thread's contradictions are kept in the thread that recorded them, and read here under the run lock.
import { canonicalKey } from '../engine/canonical-url.js';
import { contradictionsOf, keyOrNone, runContradictions, type RunContradiction } from '../engine/contradictions.js';
import type { ThreadState } from '../engine/thread-state.js';
import { completionReportName, renderCompletionReport } from '../reports/completion.js';
import type { RunState } from '../store/run-store.js';
import type { ToolContext } from './context.js';

export const keyOf = keyOrNone(canonicalKey);

/**
 * The run's other threads that recorded a contradiction, loaded (call under the run lock); with `all`,
 * every other started thread. Only those flagged in run.json are read on every round: a round's cost must
 * not grow with the number of threads.
 */
export function otherThreads(ctx: ToolContext, run: RunState, slug: string, o: { all?: boolean } = {}): ThreadState[] {
  const flagged = new Set(run.contradiction_threads ?? []);
  return run.threads.filter((t) => t.slug !== slug && (o.all === true || flagged.has(t.slug))).flatMap((t) => ctx.store.loadThread(run.run_id, t.slug) ?? []);
}

/** The run with the thread flagged as holding contradictions, or undefined when nothing changes. */
export function flagged(run: RunState, state: ThreadState): RunState | undefined {
  const list = run.contradiction_threads ?? [];
  if (state.contradictions.length === 0 || list.includes(state.slug)) return undefined;
  return { ...run, contradiction_threads: [...list, state.slug] };
}

/** Writes contradictions another thread updated back into the thread that recorded them. */
export function applyForeign(others: readonly ThreadState[], foreign: readonly RunContradiction[]): ThreadState[] {
  const changed: ThreadState[] = [];
  for (const t of others) {
    const mine = foreign.filter((f) => f.thread === t.name);
    if (mine.length === 0) continue;
    changed.push({
      ...t,
      contradictions: t.contradictions.map((c) => {
        const f = mine.find((x) => x.id === c.id);
        if (!f) return c;
        const { thread: _owner, ...rest } = f;
        return rest;
      }),
    });
  }
  return changed;
}

/** The completion report of a completed thread, rendered from its state and the run's contradictions. */
export function completionArtifact(ctx: ToolContext, run: RunState, state: ThreadState, all: readonly RunContradiction[]): { name: string; content: string } {
  const done = state.completed ?? { reason: state.convergence_reason ?? 'ENDED_EARLY', gaps: [] };
  const content = renderCompletionReport(
    state,
    done.reason,
    done.gaps,
    (key) => {
      const s = ctx.store.lookupSource(run.run_id, key);
      return s ? { id: s.id, title: s.title } : undefined;
    },
    all,
  );
  return { name: completionReportName(state.slug), content };
}

/**
 * Completed threads whose reports show one of the contradictions a round touched (recorded, or on a page
 * of their facts): their reports are written again, so a contradiction recorded after a thread completed
 * still shows in both threads.
 */
export function staleCompletions(ctx: ToolContext, run: RunState, threads: readonly ThreadState[], touched: readonly string[]): { name: string; content: string }[] {
  if (touched.length === 0) return [];
  const all = runContradictions(threads);
  return threads
    .filter((t) => t.completed !== undefined && contradictionsOf(t.name, t.facts, all, keyOf).some((c) => touched.includes(c.id)))
    .map((t) => completionArtifact(ctx, run, t, all));
}
