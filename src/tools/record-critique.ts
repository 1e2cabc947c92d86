import * as z from 'zod';
import { InputError } from '../errors.js';
import { CLEAN_SIGNOFFS_TO_STOP, UNANSWERABLE, applyCritique, nextDefinition } from '../engine/critic.js';
import { GAP_KINDS } from '../engine/types.js';
import { criticThreadBudget, criticThreadsLeft } from '../engine/critic-budget.js';
import { renderCritique } from '../reports/critique.js';
import type { ToolContext } from './context.js';
import { annotationsFor, ok } from './result.js';
import { runId } from './schemas.js';
import { defineTool } from './tool.js';

const inputSchema = () => ({
  run_id: runId(),
  gaps: z
    .array(
      z.object({
        kind: z.enum(GAP_KINDS),
        description: z.string().min(1).max(1000),
        query: z.string().min(1).max(500),
        priority: z.number().min(0).max(1000).describe('Larger = more important.'),
        material: z.boolean().describe('Closing it would change a claim.'),
        unanswerable: z.boolean().optional().describe(UNANSWERABLE),
        source_id: z.string().max(20).optional().describe('For kind uncovered: the S<n> coverage_report named.'),
      }),
    )
    .max(50),
  signoff: z.boolean(),
});

const outputSchema = () => ({
  clean_signoffs: z.number(),
  stop: z.boolean(),
  next_target: z.string().optional(),
  next_definition: z
    .object({ name: z.string(), sub_questions: z.array(z.object({ id: z.string(), question: z.string() })), subjects: z.array(z.string()) })
    .optional(),
  critic_threads_left: z.number(),
  open_material_gaps: z.number(),
  open_questions: z.array(z.string()).describe('Unanswerable gaps, and on stop the material gaps still open.'),
  next_step: z.string().optional(),
});

export const recordCritique = defineTool({
  name: 'record_critique',
  config: {
    title: 'Record a completeness critique',
    description:
      "Applies the critic loop; writes critique.md. Returns clean_signoffs, stop, next_target and next_definition (add subjects, then start_thread), critic_threads_left, open_material_gaps, open_questions.",
    inputSchema,
    outputSchema,
    annotations: annotationsFor('write'),
  },
  async handler(args, ctx: ToolContext) {
    ctx.store.loadRun(args.run_id);
    for (const [i, g] of args.gaps.entries()) {
      if (g.kind === 'uncovered' && (g.source_id === undefined || !ctx.store.readSource(args.run_id, g.source_id))) {
        throw new InputError(`gap ${i + 1} is uncovered: give its source_id, the stored source coverage_report named (S<n>)`);
      }
    }
    return ctx.store.lock(args.run_id, () => {
      const run = ctx.store.loadRun(args.run_id);
      const result = applyCritique(run.critic, { gaps: args.gaps, signoff: args.signoff }, run.budgets.critic_rounds);
      const sources = ctx.store.listSourceIds(run.run_id).length;
      const prevSources = run.critique_rounds.at(-1)?.sources ?? 0;
      let facts = 0;
      for (const t of run.threads) facts += ctx.store.loadThread(run.run_id, t.slug)?.facts.length ?? 0;
      const round = {
        round: result.state.rounds,
        gaps: args.gaps,
        signoff: args.signoff,
        clean: result.clean,
        open_material_gaps: result.open_material_gaps,
        sources,
        new_sources: sources - prevSources,
        facts,
        ...(result.next_target !== undefined ? { next_target: result.next_target } : {}),
      };
      const next = { ...run, critic: result.state, critique_rounds: [...run.critique_rounds, round] };
      ctx.store.commit(run.run_id, { artifacts: [{ name: 'critique.md', content: renderCritique(next, result.stop) }], run: next });
      // Critic threads are bounded by the critic rounds, not by max_threads: what start_thread will take.
      const criticThreads = run.threads.filter((t) => t.critic).length;
      const left = criticThreadsLeft({ criticRounds: run.budgets.critic_rounds, opened: criticThreads, state: result.state });
      const definition =
        result.next_gap && left > 0
          ? nextDefinition(result.next_gap, run.threads.map((t) => t.name), criticThreads + 1)
          : undefined;
      // Claude Code shows the model structuredContent, not the text: what to do next is a field.
      const nextStep = result.stop
        ? result.state.clean_signoffs >= CLEAN_SIGNOFFS_TO_STOP
          ? `${CLEAN_SIGNOFFS_TO_STOP} clean sign-offs in a row: write the report.`
          : `Critic rounds spent (${result.state.rounds} of ${run.budgets.critic_rounds})${result.open_material_gaps > 0 ? `: the ${result.open_material_gaps} material gap${result.open_material_gaps === 1 ? '' : 's'} still open ${result.open_material_gaps === 1 ? 'is' : 'are'} in open_questions; the report's Open Questions must list ${result.open_material_gaps === 1 ? 'it' : 'them'}` : ''}. Write the report.`
        : result.next_target !== undefined && left === 0
          ? `No critic thread is left (${criticThreads} of ${criticThreadBudget(run.budgets.critic_rounds)} open): finish the open critic threads, then critique again; a material gap still open when the loop stops goes to open_questions.`
          : result.next_target === undefined
          ? // The loop wants another, independent critique (SPEC 4.1: two clean sign-offs in a row), which a copy of this one is not.
            `Run the critic again: re-read the current completion reports with fresh eyes and send the gaps you find now (signoff true if none is material); do not resend this critique.${result.clean ? ` ${result.state.clean_signoffs} of ${CLEAN_SIGNOFFS_TO_STOP} clean sign-offs in a row end the loop.` : ''}${left === 0 ? ` The next critique is the last: it opens no thread, and a material gap it names goes to open_questions${criticThreadBudget(run.budgets.critic_rounds) > criticThreads ? ' (so critic_threads_left is 0: only a critique before the last opens one, for a material gap it names)' : ''}.` : ''}`
          : undefined;
      return ok({
        critic_round: result.state.rounds,
        clean_signoffs: result.state.clean_signoffs,
        stop: result.stop,
        next_target: result.next_target,
        next_definition: definition,
        critic_threads_left: left,
        open_material_gaps: result.open_material_gaps,
        open_questions: result.state.open_questions,
        ...(nextStep !== undefined ? { next_step: nextStep } : {}),
      });
    });
  },
});
