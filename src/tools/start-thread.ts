import { InputError } from '../errors.js';
import { newThreadState } from '../engine/thread-state.js';
import { criticThreadsLeft } from '../engine/critic-budget.js';
import { slug } from '../engine/slug.js';
import type { ThreadDefinition } from '../engine/types.js';
import { renderBrief } from '../reports/brief.js';
import type { ToolContext } from './context.js';
import { annotationsFor, ok } from './result.js';
import { runId, strictObject, threadDefinition, threadName } from './schemas.js';
import { threadStatusOutput, threadSummary } from './thread-summary.js';
import { primaryOrigins } from './primary-origins.js';
import { defineTool } from './tool.js';

const inputSchema = () => ({
  run_id: runId(),
  thread: threadName(),
  definition: strictObject({ name: threadName().optional(), ...threadDefinition() })
    .optional()
    .describe("For a critic thread not in the brief (record_critique's next_definition)."),
});

export const startThread = defineTool({
  name: 'start_thread',
  config: {
    title: 'Start or resume a thread',
    description:
      "Starts or resumes a thread (a thread not in the brief needs a definition). Returns budget, phase, convergence and `next` round directives. thread_status reads the same without writing.",
    inputSchema,
    outputSchema: threadStatusOutput,
    annotations: annotationsFor('write-idempotent'),
    strict: true,
  },
  async handler(args, ctx: ToolContext) {
    ctx.store.loadRun(args.run_id);
    return ctx.store.lock(args.run_id, () => {
      const run = ctx.store.loadRun(args.run_id);
      let entry = run.threads.find((t) => t.name === args.thread);
      let definition: ThreadDefinition | undefined;
      const warnings: string[] = [];
      if (entry) {
        const existing = ctx.store.loadThread(run.run_id, entry.slug);
        if (existing) return ok(threadSummary(run, existing));
        definition = run.brief.threads.find((t) => t.name === args.thread);
      } else {
        if (!args.definition) {
          throw new InputError(
            `thread "${args.thread}" is not in the brief; pass a definition (sub_questions, subjects) to open it as a critic thread, or use one of: ${run.threads.map((t) => `"${t.name}"`).join(', ')}`,
          );
        }
        const { name: named, ...def } = args.definition;
        if (named !== undefined && named !== args.thread) {
          throw new InputError(`definition.name is "${named}" but thread is "${args.thread}"; use the same name in both, or leave definition.name out`);
        }
        const ids = new Set<string>();
        for (const q of def.sub_questions) {
          if (ids.has(q.id)) throw new InputError(`definition repeats sub-question id "${q.id}"`);
          ids.add(q.id);
        }
        definition = primaryOrigins({ ...def, name: args.thread } as ThreadDefinition, 'definition');
        // Never a refusal (as record_critique past its budget), but never silent either.
        const opened = run.threads.filter((t) => t.critic).length;
        if (criticThreadsLeft({ criticRounds: run.budgets.critic_rounds, opened, state: run.critic }) === 0) {
          warnings.push(`this critic thread is beyond the critic budget (${opened} open; record_critique said critic_threads_left 0): it will not be critiqued; list what it cannot close in the report's Open Questions`);
        }
        entry = { name: args.thread, slug: slug(args.thread), critic: true };
        run.threads.push(entry);
      }
      if (!definition) throw new InputError(`thread "${args.thread}" has no definition in the brief`);
      const state = newThreadState({
        definition,
        slug: entry.slug,
        critic: entry.critic,
        roundBudget: run.budgets.rounds_per_thread,
        resultsPerRound: run.budgets.results_per_round,
        quick: run.depth === 'quick',
        ...(run.brief.source_hints ? { runSourceHints: run.brief.source_hints } : {}),
      });
      // Pages stored before the thread's first round are "already stored" for the stale-round rule.
      state.sources_before = ctx.store.highestSourceNumber(run.run_id);
      if (!entry.critic) {
        ctx.store.commit(run.run_id, { threads: [state] });
      } else {
        const critics = run.threads
          .filter((t) => t.critic)
          .map((t) => (t.slug === state.slug ? state : ctx.store.loadThread(run.run_id, t.slug)))
          .filter((t) => t !== undefined)
          .map((t) => t.definition);
        ctx.store.commit(run.run_id, { artifacts: [{ name: 'brief.md', content: renderBrief(run, critics) }], threads: [state], run });
      }
      return ok({ ...threadSummary(run, state), ...(warnings.length > 0 ? { warnings } : {}) });
    });
  },
});
