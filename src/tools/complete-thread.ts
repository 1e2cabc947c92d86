import * as z from 'zod';
import { runContradictions } from '../engine/contradictions.js';
import { completionArtifact, otherThreads } from './run-contradictions.js';
import type { ToolContext } from './context.js';
import { annotationsFor, ok } from './result.js';
import { runId, threadName } from './schemas.js';
import { requireThread } from './thread-access.js';
import { replyPath } from './paths.js';
import { defineTool } from './tool.js';

const inputSchema = () => ({
  run_id: runId(),
  thread: threadName(),
  gaps: z
    .array(
      z.object({
        gap: z.string().min(1).max(1000),
        why_not_found: z.string().min(1).max(1000),
        rounds_attempted: z.number().int().min(0).max(100),
        next_step: z.string().min(1).max(1000),
      }),
    )
    .max(30)
    .optional()
    .describe('Omit to keep earlier gaps.'),
});

const outputSchema = () => ({
  path: z.string(),
  convergence_reason: z.enum(['CRITERIA_MET', 'BUDGET_EXHAUSTED', 'PLATEAU_STOPPED', 'ENDED_EARLY']),
  rounds_executed: z.number(),
});

export const completeThread = defineTool({
  name: 'complete_thread',
  config: {
    title: 'Complete a thread',
    description:
      "Ends a thread and writes its completion report. Returns path, convergence_reason (ENDED_EARLY if not converged), rounds_executed. Call when record_round says STOP. Idempotent.",
    inputSchema,
    outputSchema,
    annotations: annotationsFor('write-idempotent'),
  },
  async handler(args, ctx: ToolContext) {
    ctx.store.loadRun(args.run_id);
    return ctx.store.lock(args.run_id, () => {
      const { run, state } = requireThread(ctx, args.run_id, args.thread);
      const reason = state.completed?.reason ?? state.convergence_reason ?? 'ENDED_EARLY';
      const gaps = args.gaps ?? state.completed?.gaps ?? [];
      const next = { ...state, completed: { reason, gaps } };
      const report = completionArtifact(ctx, run, next, runContradictions([next, ...otherThreads(ctx, run, state.slug)]));
      ctx.store.commit(run.run_id, { artifacts: [report], threads: [next] });
      const name = report.name;
      return ok({ path: replyPath(ctx, run.run_id, name), convergence_reason: reason, rounds_executed: state.rounds.length });
    });
  },
});
