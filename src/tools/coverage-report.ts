import * as z from 'zod';
import { coverageWeight, factsAsStated, rankingQuestion, reportQuotes, reportStems, takenPassages, uncoveredPassages, type CoverageItem, type CoverageQuestion } from '../engine/coverage-audit.js';
import { passageKey } from '../engine/audit-repeats.js';
import { lesserEditions } from '../engine/near-copy.js';
import { auditPairs, parseReport } from '../engine/statements.js';
import type { ToolContext } from './context.js';
import { rememberShown } from './outline-reads.js';
import { readReport } from './report-file.js';
import { annotationsFor, ok, REPLY_CHARS, replySize } from './result.js';
import { runId } from './schemas.js';
import { defineTool } from './tool.js';

export const DEFAULT_COVERAGE_PAGE = 20;
/** Candidates ranked per sub-question before the thresholds and the report are applied. */
const CANDIDATES = 6;
const PASSAGE_CHARS = 300;

const inputSchema = () => ({
  run_id: runId(),
  offset: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(50).optional().describe(`Default ${DEFAULT_COVERAGE_PAGE}, max 50; may give fewer.`),
  reshow: z.boolean().optional(),
});

const outputSchema = () => ({
  total: z.number(),
  items: z.array(z.object({ thread: z.string(), sub_question: z.string(), source_id: z.string(), passage: z.string(), shown_before: z.boolean().optional() })),
  next_offset: z.number().optional(),
  note: z.string().optional(),
});

/** An item as listed: its passage left empty once an earlier call listed it. */
type Listed = CoverageItem & { shown_before?: true };

export const coverageReport = defineTool({
  name: 'coverage_report',
  config: {
    title: 'List stored passages the report leaves out',
    description:
      "Per sub-question, stored passages no report.md sentence (before it exists: no fact) states. Returns total, items (listed before: shown_before, no passage), next_offset. Call before record_critique; one the answer needs is an uncovered gap (source_id).",
    inputSchema,
    outputSchema,
    annotations: annotationsFor('write'),
  },
  async handler(args, ctx: ToolContext) {
    const run = ctx.store.loadRun(args.run_id);
    const { passageIndex } = await import('../fetch/passages.js');
    const { fence } = await import('../fetch/untrusted.js');
    const report = readReport(ctx.store, run.run_id, undefined, ctx.cwd).text;
    const parsed = report === undefined ? undefined : parseReport(report);
    const states = new Map(run.threads.map((entry) => [entry.slug, ctx.store.loadThread(run.run_id, entry.slug)]));
    // Before the report is written, the run's grounded facts stand for it: they are what it will be written from.
    const held = parsed ? undefined : factsAsStated([...states.values()].flatMap((st) => (st?.facts ?? []).filter((f) => f.grounded)));
    const sentences = parsed ? [...new Set([...parsed.statements.map((s) => s.context.sentence), ...parsed.uncited.map((u) => u.text)])] : (held?.sentences ?? []);
    const stored = ctx.store.listSourceIds(run.run_id).flatMap((id) => {
      const s = ctx.store.readSource(run.run_id, id);
      // A mirror repeats its original: ranking both would show one passage twice.
      return s && s.mirror_of === undefined ? [{ id, markdown: s.markdown, key: s.canonical_key, url: s.url, origin: s.origin }] : [];
    });
    // So does a lesser edition of a stored document (its .rst.txt beside the HTML page).
    const lesser = lesserEditions(stored);
    const sources = stored.filter((s) => !lesser.has(s.id));
    const index = passageIndex(sources);
    const stated = reportStems(sentences);
    const quotes = parsed ? reportQuotes(report ?? '') : (held?.quotes ?? []);
    // What the claim audit found supporting the report's current statements is stated, however paraphrased;
    // before the report, what the facts quote.
    const verdicts = ctx.store.loadAudit(run.run_id).verdicts;
    const taken = parsed ? takenPassages(auditPairs(parsed).flatMap((p) => verdicts[p.pair_id] ?? [])) : (held?.quotes ?? []);
    // Each passage is cut around a sentence the report leaves out, a requirement first.
    const sentenceWeight = coverageWeight(stated, quotes, taken);
    const questions: CoverageQuestion[] = run.threads.flatMap((entry) => {
      const state = states.get(entry.slug);
      const definition = state?.definition ?? run.brief.threads.find((t) => t.name === entry.name);
      if (!definition) return [];
      // Pages this thread's drift check set aside answer none of its sub-questions.
      const drifted = new Set(state?.drifted_keys ?? []);
      const keep = new Set(sources.filter((s) => !drifted.has(s.key)).map((s) => s.id));
      return definition.sub_questions.map((q) => ({
        thread: entry.name,
        sub_question: q.id,
        candidates: index.rank(rankingQuestion(q.question), CANDIDATES, PASSAGE_CHARS, definition.subjects.join(' '), { sentenceWeight }).filter((c) => keep.has(c.source_id)),
      }));
    });
    // A passage listed by an earlier call is not listed again (SPEC 11.1, reply economy: a second critique
    // re-read the same 6k in four trials); it keeps its place, so offsets page the same list.
    const before = args.reshow ? {} : (run.coverage_shown ?? {});
    const all = uncoveredPassages(questions, stated, quotes, taken).map((i) => {
      const key = passageKey(i.passage);
      const item: Listed = before[key] !== undefined ? { ...i, passage: '', shown_before: true } : { ...i, passage: fence(i.passage) };
      return { key, item };
    });
    const offset = args.offset ?? 0;
    let shown = Math.max(0, Math.min(args.limit ?? DEFAULT_COVERAGE_PAGE, all.length - offset));
    let r = build(shown);
    while (shown > 1 && replySize(r) > REPLY_CHARS) {
      shown = Math.max(1, Math.min(shown - 1, Math.floor((shown * REPLY_CHARS) / replySize(r))));
      r = build(shown);
    }
    const fresh = all.slice(offset, offset + shown).filter((x) => x.item.shown_before !== true && run.coverage_shown?.[x.key] === undefined);
    await rememberShown(ctx.store, run.run_id, 'coverage_shown', Object.fromEntries(fresh.map((x) => [x.key, x.item.sub_question])));
    return r;

    function build(n: number) {
      const next = offset + n < all.length ? offset + n : undefined;
      const items = all.slice(offset, offset + n).map((x) => x.item);
      const note = items.some((i) => i.shown_before) ? 'shown_before: an earlier call listed this passage (passage left empty); reshow: true lists it again.' : undefined;
      return ok({ total: all.length, items, ...(next !== undefined ? { next_offset: next } : {}), ...(note ? { note } : {}) });
    }
  },
});
