import * as z from 'zod';
import { decideRound, type StoredText } from '../engine/round.js';
import { canonicalKey } from '../engine/canonical-url.js';
import { ACTIONS, CONTRADICTION_STATUSES, CONVERGENCE_REASONS, LEVELS, SQ_STATUSES, SUBJECT_STATUSES } from '../engine/types.js';
import { microReportName, renderMicroReport } from '../reports/micro-report.js';
import type { ToolContext } from './context.js';
import { unfence } from '../fetch/untrusted.js';
import { annotationsFor, ok } from './result.js';
import { confidence, directivesOut, level, phase, runId, strictObject, threadName } from './schemas.js';
import { requireThread } from './thread-access.js';
import { replyPath } from './paths.js';
import { projectForMatching } from '../engine/grounding.js';
import { runContradictions } from '../engine/contradictions.js';
import { applyForeign, flagged, otherThreads, staleCompletions } from './run-contradictions.js';
import { defineTool, once } from './tool.js';

const url = once(() => z.string().min(1).max(2048));

const inputSchema = () => ({
  run_id: runId(),
  thread: threadName(),
  query: z.string().min(1).max(500),
  queries: z.array(z.string().min(1).max(500)).max(5).optional().describe('Further searches this round.'),
  urls_visited: z
    .array(url())
    .max(20)
    .describe('Results read this round; may be empty.'),
  search_results: z.array(url()).max(50).optional().describe('All URLs the searches returned, ranked.'),
  facts: z
    .array(
      strictObject({
        fact: z.string().min(1).max(2000),
        url: url(),
        source_title: z.string().max(300).optional(),
        quote: z.string().max(2000).optional().describe('Verbatim span from the page.'),
        confidence: confidence(),
        notes: z.string().max(1000).optional(),
        sub_questions: z.array(z.string().min(1).max(40)).max(20).optional(),
        confirms_known: z.boolean().optional().describe('Only confirms a known fact.'),
        also: z
          .array(strictObject({ url: url(), quote: z.string().min(1).max(2000) }))
          .max(3)
          .optional(),
      }),
    )
    .max(50),
  summary: z.string().min(1).max(4000),
  targeted_subjects: z.array(z.string().min(1).max(200)).max(20).optional(),
  sub_question_updates: z
    .array(
      strictObject({
        id: z.string().min(1).max(40),
        status: z.enum(SQ_STATUSES),
        confidence: confidence().optional(),
        key_finding: z.string().max(1000).optional(),
      }),
    )
    .max(20)
    .optional()
    .describe('ANSWERED needs a grounded fact linked to it.'),
  subject_updates: z
    .array(strictObject({ name: z.string().min(1).max(200), status: z.enum(SUBJECT_STATUSES), evidence: z.string().max(1000).optional() }))
    .max(20)
    .optional(),
  disambiguation_updates: z.array(z.string().min(1).max(300)).max(20).optional(),
  contradictions: z
    .array(
      strictObject({
        id: z.string().max(20).optional().describe('C<n> to update; omit for new.'),
        claim: z.string().min(1).max(1000),
        source_a: z.string().min(1).max(1000),
        url_a: url(),
        source_b: z.string().min(1).max(1000),
        url_b: url(),
        status: z.enum(CONTRADICTION_STATUSES),
        severity: level().optional().describe('Default MEDIUM.'),
        resolution: z.string().max(1000).optional(),
      }),
    )
    .max(20)
    .optional(),
  next_focus: z.string().max(500).optional(),
});

const outputSchema = () => ({
  round: z.number(),
  new_facts: z.number(),
  confirming_facts: z.number(),
  saturation: z.enum(LEVELS),
  url_overlap: z.number(),
  overlap_on: z.enum(['search_results', 'urls_visited']),
  plateau_level: z.number(),
  action: z.enum(ACTIONS),
  escape_strategy: z.string().optional(),
  phase: phase(),
  next_phase: phase(),
  phase_reason: z.string(),
  forced_subject: z.string().optional(),
  sub_questions: z.array(z.object({ id: z.string(), status: z.enum(SQ_STATUSES), confidence: confidence().optional(), origins: z.number() })),
  facts: z.array(z.object({ confidence: confidence(), origins: z.number(), primary: z.boolean() })),
  contradictions: z.array(z.object({ id: z.string(), status: z.enum(CONTRADICTION_STATUSES) })).optional(),
  unverified_answers: z.array(z.string()).optional(),
  converged: z.boolean(),
  convergence_reason: z.enum(CONVERGENCE_REASONS).optional(),
  warnings: z.array(z.string()),
  micro_report: z.string(),
  degraded: z.boolean(),
  next: directivesOut().optional(),
});

export const recordRound = defineTool({
  name: 'record_round',
  config: {
    title: 'Record one investigation round',
    description:
      "Records a round: grounds quotes in stored pages, computes saturation, overlap, plateau, phase, convergence; writes the micro-report. Returns the action, phase_reason, sub-question status, warnings, `next` directives. On STOP call complete_thread.",
    inputSchema,
    outputSchema,
    annotations: annotationsFor('write'),
    strict: true,
  },
  async handler(args, ctx: ToolContext) {
    ctx.store.loadRun(args.run_id);
    return ctx.store.lock(args.run_id, () => {
      const { run, state } = requireThread(ctx, args.run_id, args.thread);
      // A title or quote copied from a structured reply may still carry its fence (SPEC 7).
      const facts = args.facts.map((f) => ({ ...f, ...(f.source_title !== undefined ? { source_title: unfence(f.source_title) } : {}), ...(f.quote !== undefined ? { quote: unfence(f.quote) } : {}) }));
      const others = otherThreads(ctx, run, state.slug);
      const { state: next, decision, foreign } = decideRound(state, { ...args, facts }, {
        otherContradictions: runContradictions(others),
        grounding: ctx.grounding,
        timestamp: ctx.now(),
        canonicalKey,
        sourcesStored: ctx.store.highestSourceNumber(run.run_id),
        storedText: (key): StoredText | undefined => {
          const s = ctx.store.lookupSource(run.run_id, key);
          if (!s) return undefined;
          return { source_id: s.id, title: s.title, markdown: s.markdown, projected: projection(s.sha256, s.markdown), origin: ctx.store.countingOrigin(run.run_id, s), ...(s.page_from === undefined && s.pages_not_read ? { pages_not_read: s.pages_not_read } : {}) };
        },
      });
      // Report first, then state: a crash in between leaves the round unrecorded, and recording it again
      // rewrites the same micro-report.
      const name = microReportName(next.slug, decision.round);
      const owners = applyForeign(others, foreign);
      const touched = decision.contradictions?.map((c) => c.id) ?? [];
      // Completed threads whose reports a touched contradiction shows are written again (rare: read all then).
      const everyOther = touched.length > 0 ? otherThreads(ctx, run, state.slug, { all: true }) : [];
      const threads = [next, ...everyOther.map((t) => owners.find((o) => o.name === t.name) ?? t)];
      const reports = staleCompletions(ctx, run, threads, touched);
      const runNext = flagged(run, next);
      ctx.store.commit(run.run_id, {
        artifacts: [{ name, content: renderMicroReport(next, decision.round, foreign) }, ...reports],
        threads: [next, ...owners],
        ...(runNext ? { run: runNext } : {}),
      });
      return ok({ ...decision, micro_report: replyPath(ctx, run.run_id, name), degraded: run.fetch.degraded });
    });
  },
});

// Stored sources never change, so their projection for quote matching is computed once per text,
// not once per fact: several facts usually quote the same page.
const projections = new Map<string, string>();
function projection(sha256: string, markdown: string): string {
  let p = projections.get(sha256);
  if (p === undefined) {
    if (projections.size >= 512) projections.clear();
    p = projectForMatching(markdown);
    projections.set(sha256, p);
  }
  return p;
}
