// Loading a run's thread for a tool, with refusals that say which call comes first.
import { InputError } from '../errors.js';
import type { ThreadState } from '../engine/thread-state.js';
import type { RunState, ThreadEntry } from '../store/run-store.js';
import type { ToolContext } from './context.js';

export function requireEntry(run: RunState, thread: string): ThreadEntry {
  const entry = run.threads.find((t) => t.name === thread);
  if (!entry) {
    throw new InputError(
      `unknown thread "${thread}" in run ${run.run_id}; threads are: ${run.threads.map((t) => `"${t.name}"`).join(', ')} (a critic thread needs start_thread with a definition first)`,
    );
  }
  return entry;
}

export function requireThread(ctx: ToolContext, runId: string, thread: string): { run: RunState; entry: ThreadEntry; state: ThreadState } {
  const run = ctx.store.loadRun(runId);
  const entry = requireEntry(run, thread);
  const state = ctx.store.loadThread(runId, entry.slug);
  if (!state) throw new InputError(`thread "${thread}" has not been started; call start_thread first`);
  return { run, entry, state };
}
