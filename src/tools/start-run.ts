import * as z from 'zod';
import { InputError } from '../errors.js';
import { DEPTHS, type Brief, type Depth } from '../engine/types.js';
import { TIERS, maxFetches, threadCapNote } from '../engine/tiers.js';
import { runIdFor, slug } from '../engine/slug.js';
import { renderBrief } from '../reports/brief.js';
import type { ToolContext } from './context.js';
import { annotationsFor, ok } from './result.js';
import { level, sourceHints, strictObject, threadDefinition, threadName } from './schemas.js';
import { replyPath } from './paths.js';
import { planWarnings } from '../engine/plan-checks.js';
import { criticThreadBudget, criticThreadsLeft } from '../engine/critic-budget.js';
import { primaryOrigins } from './primary-origins.js';
import { defineTool, once } from './tool.js';
import { LOCAL_ROOTS_ENV, parseRoots } from '../local/roots.js';
import { walkRoot } from '../local/walk.js';

const inputSchema = () => ({
  question: z.string().min(3).max(2000),
  depth: z.enum(DEPTHS).optional().describe('Default standard.'),
  brief: strictObject({
    threads: z
      .array(strictObject({ name: threadName(), ...threadDefinition() }))
      .min(1)
      .max(12),
    assumptions: z.array(z.string().min(1).max(500)).max(20).optional(),
    disambiguation: strictObject({
      include: z.array(z.string().min(1).max(100)).max(30).optional(),
      exclude: z.array(z.string().min(1).max(100)).max(30).optional(),
    }).optional(),
    known_facts: z.array(strictObject({ fact: z.string().min(1).max(1000), confidence: level() })).max(30).optional(),
    scope: strictObject({
      regions: z.array(z.string().min(1).max(100)).max(30).optional(),
      period: strictObject({ from: z.number().int().min(1000).max(2200), to: z.number().int().min(1000).max(2200) }).optional(),
    }).optional(),
    source_hints: sourceHints().optional().describe('Per phase: source types that fit this field.'),
  }),
  dry_run: z.boolean().optional().describe('Estimate cost; write nothing.'),
  new: z.boolean().optional().describe('Fresh run of the same question.'),
});

const budgetsOut = once(() =>
  z.object({
    max_threads: z.number(),
    rounds_per_thread: z.number(),
    results_per_round: z.number(),
    critic_rounds: z.number(),
  }),
);

const outputSchema = () => ({
  run_id: z.string(),
  artifact_dir: z.string(),
  run_dir: z.string(),
  report_path: z.string(),
  resumed: z.boolean(),
  threads: z.array(z.string()),
  budgets: budgetsOut(),
  critic_threads: z.number().describe('Beyond max_threads.'),
  max_fetches: z.number(),
  warnings: z.array(z.string()),
  tiers: z.object({ quick: budgetsOut(), standard: budgetsOut(), deep: budgetsOut() }).optional(),
  local_roots: z.array(z.object({ origin: z.string(), documents: z.number() })).optional(),
});

type Input = z.infer<z.ZodObject<ReturnType<typeof inputSchema>>>;

export const startRun = defineTool({
  name: 'start_run',
  config: {
    title: 'Start or resume a research run',
    description:
      "Validates the brief; creates artifacts/<run_id>/ and brief.md, or resumes the same question's run. Returns run_id, run_dir, report_path, budgets, max_fetches, plan warnings; dry_run adds every tier's budgets. Dry-run first; then start_thread.",
    inputSchema,
    outputSchema,
    annotations: annotationsFor('write-idempotent'),
    strict: true,
  },
  async handler(args: Input, ctx: ToolContext) {
    const depth: Depth = args.depth ?? 'standard';
    const budgets = TIERS[depth];
    const brief = normaliseBrief(args.brief as Brief);
    if (brief.threads.length > budgets.max_threads) {
      const others = DEPTHS.filter((d) => d !== depth && TIERS[d].max_threads >= brief.threads.length).map((d) => `${d} allows ${TIERS[d].max_threads}`);
      throw new InputError(
        `the ${depth} tier allows at most ${budgets.max_threads} threads but the brief has ${brief.threads.length}; merge threads${others.length ? ` or choose another tier (${others.join(', ')})` : ''}`,
      );
    }
    const baseId = runIdFor(args.question);
    const fetches = maxFetches(depth, brief.threads.length);
    const names = brief.threads.map((t) => t.name);
    const reply = (runId: string, resumed: boolean, dry: boolean, r: { brief: Brief; threads: string[]; budgets: typeof budgets; max_fetches: number; depth: Depth; critic_threads: number }) =>
      ok({
        run_id: runId,
        artifact_dir: runId,
        run_dir: replyPath(ctx, runId),
        report_path: replyPath(ctx, runId, 'report.md'),
        resumed,
        dry_run: dry,
        threads: r.threads,
        budgets: r.budgets,
        // Critic threads are bounded by the critic rounds, not by max_threads (SPEC 11.1 critic budget).
        critic_threads: r.critic_threads,
        max_fetches: r.max_fetches,
        depth: r.depth,
        ...planAndRoots(r, dry),
      });
    // A dry run also lists the folders the user allowed, with how many documents each holds.
    const planAndRoots = (r: { brief: Brief; budgets: typeof budgets; depth: Depth }, dry: boolean) => {
      const warnings = planWarnings(r.brief, r.budgets, r.depth);
      if (!dry) return { warnings };
      const { warning, ...roots } = localRoots(ctx);
      const caps = threadCapNote(r.brief.threads.length, r.depth);
      return { warnings: [...warnings, ...(caps ? [caps] : []), ...(warning ? [warning] : [])], tiers: TIERS, ...roots };
    };
    const existingReply = (runId: string, dry: boolean) => {
      const run = ctx.store.loadRun(runId);
      const critic_threads = criticThreadsLeft({ criticRounds: run.budgets.critic_rounds, opened: run.threads.filter((t) => t.critic).length, state: run.critic });
      return reply(runId, true, dry, { brief: run.brief, threads: run.threads.map((t) => t.name), budgets: run.budgets, max_fetches: run.max_fetches, depth: run.depth, critic_threads });
    };
    const pick = (): { runId: string; resumed: boolean } => {
      const existing = ctx.store.runsOf(baseId);
      const latest = existing.at(-1);
      if (args.new === true) {
        const maxN = existing.reduce((m, id) => Math.max(m, id === baseId ? 1 : Number(id.slice(baseId.length + 1))), 0);
        return { runId: maxN === 0 ? baseId : `${baseId}-${maxN + 1}`, resumed: false };
      }
      return latest !== undefined ? { runId: latest, resumed: true } : { runId: baseId, resumed: false };
    };

    if (args.dry_run === true) {
      const { runId, resumed } = pick();
      return resumed ? existingReply(runId, true) : reply(runId, false, true, { brief, threads: names, budgets, max_fetches: fetches, depth, critic_threads: criticThreadBudget(budgets.critic_rounds) });
    }
    // Choosing the id and creating the folder happen under one lock of the artifacts root.
    return ctx.store.lockRoot(() => {
      const { runId, resumed } = pick();
      if (resumed) return existingReply(runId, false);
      const run = ctx.store.newRunState({
        runId,
        question: args.question,
        depth,
        createdAt: ctx.now(),
        brief,
        budgets,
        maxFetches: fetches,
        threads: brief.threads.map((t) => ({ name: t.name, slug: slug(t.name), critic: false })),
      });
      return ctx.store.lock(runId, () => {
        ctx.store.commit(runId, { artifacts: [{ name: 'brief.md', content: renderBrief(run) }], run });
        return reply(runId, false, false, { brief, threads: names, budgets, max_fetches: fetches, depth, critic_threads: criticThreadBudget(budgets.critic_rounds) });
      });
    });
  },
});

/** The folders the user allowed, each with the documents it holds, for the plan (a dry run). */
function localRoots(ctx: ToolContext): { local_roots?: { origin: string; documents: number }[]; warning?: string } {
  const roots = parseRoots(ctx.env[LOCAL_ROOTS_ENV]);
  if (!roots.ok) return { local_roots: [], warning: `no local folder can be read: ${roots.reason}` };
  if (roots.roots.length === 0) return {};
  return { local_roots: roots.roots.map((r) => ({ origin: `local:${r.name}`, documents: walkRoot(r).files.size })) };
}

function normaliseBrief(b: Brief): Brief {
  const seen = new Set<string>();
  const slugs = new Set<string>();
  for (const t of b.threads) {
    if (seen.has(t.name)) throw new InputError(`two threads are named "${t.name}"; give each thread a distinct name`);
    seen.add(t.name);
    slugs.add(slug(t.name));
    const ids = new Set<string>();
    for (const q of t.sub_questions) {
      if (ids.has(q.id)) throw new InputError(`thread "${t.name}" repeats sub-question id "${q.id}"; ids must be unique within a thread`);
      ids.add(q.id);
    }
    const subjects = new Set<string>();
    for (const s of t.subjects) {
      if (subjects.has(s)) throw new InputError(`thread "${t.name}" lists the subject "${s}" twice`);
      subjects.add(s);
    }
  }
  const p = b.scope?.period;
  if (p && p.from > p.to) throw new InputError(`scope.period.from (${p.from}) is after scope.period.to (${p.to}); swap them`);
  return { ...b, threads: b.threads.map((t) => primaryOrigins(t, `thread "${t.name}"`)) };
}
