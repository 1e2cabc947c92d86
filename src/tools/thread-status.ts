import type { ToolContext } from './context.js';
import { annotationsFor, ok } from './result.js';
import { runId, threadName } from './schemas.js';
import { requireThread } from './thread-access.js';
import { threadStatusOutput, threadSummary } from './thread-summary.js';
import type { ToolDefinition } from './tool.js';

const inputSchema = { run_id: runId, thread: threadName };

export const threadStatus: ToolDefinition<typeof inputSchema> = {
  name: 'thread_status',
  config: {
    title: 'Where a thread stands',
    description:
      "Read-only summary of a thread: rounds completed of the budget, phase, convergence, degraded flag, sub-question and subject status, and `next` (the next round's directives). " +
      'Call it to resume after a context loss or to report progress; it changes nothing. To begin a thread use start_thread.',
    inputSchema,
    outputSchema: threadStatusOutput,
    annotations: annotationsFor('read', 'Where a thread stands'),
  },
  handler(args, ctx: ToolContext) {
    const { run, state } = requireThread(ctx, args.run_id, args.thread);
    return ok(threadSummary(run, state));
  },
};
