import type { ToolContext } from './context.js';
import { annotationsFor, ok } from './result.js';
import { runId, threadName } from './schemas.js';
import { requireThread } from './thread-access.js';
import { threadStatusOutput, threadSummary } from './thread-summary.js';
import { defineTool } from './tool.js';
import { heldAnswers, runContradictions } from '../engine/contradictions.js';
import { keyOf, otherThreads } from './run-contradictions.js';

const inputSchema = () => ({ run_id: runId(), thread: threadName() });

export const threadStatus = defineTool({
  name: 'thread_status',
  config: {
    title: 'Where a thread stands',
    description:
      "Returns a thread's rounds, phase, convergence, sub-question and subject status and `next` directives, writing nothing. Use it to resume after a context loss; start_thread begins one.",
    inputSchema,
    outputSchema: threadStatusOutput,
    annotations: annotationsFor('read'),
  },
  handler(args, ctx: ToolContext) {
    const { run, state } = requireThread(ctx, args.run_id, args.thread);
    const all = runContradictions([state, ...otherThreads(ctx, run, state.slug)]);
    return ok(threadSummary(run, state, heldAnswers(state.sub_questions, state.facts, all, keyOf)));
  },
});
