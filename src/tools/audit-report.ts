import * as z from 'zod';
import { auditCounts } from '../engine/audit.js';
import { contextAdds, passageKey } from '../engine/audit-repeats.js';
import { auditPairs, contextText, parseReport, rankingContext } from '../engine/statements.js';
import { clipAtWord } from '../engine/text.js';
import type { ToolContext } from './context.js';
import { rememberShown } from './outline-reads.js';
import { readReport } from './report-file.js';
import { annotationsFor, fail, ok, REPLY_CHARS, replySize } from './result.js';
import { runId } from './schemas.js';
import { defineTool } from './tool.js';

export const DEFAULT_PAGE = 20;
const PASSAGE_CHARS = 360;
/** A report sentence longer than this is shown cut (a table row or run-on line reached 30,000 characters). */
const STATEMENT_CHARS = 1_200;

const inputSchema = () => ({
  run_id: runId(),
  path: z.string().max(500).optional(),
  offset: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(50).optional().describe(`Default ${DEFAULT_PAGE}, max 50; may give fewer.`),
  pending_only: z.boolean().optional().describe('Only pairs not SUPPORTED.'),
  passages: z.union([z.literal(1), z.literal(2)]).optional().describe('Per pair: 1, 2 if weak.'),
  reshow: z.boolean().optional(),
});

const outputSchema = () => ({
  total: z.number(),
  unaudited: z.number(),
  pairs: z.array(
    z.object({
      pair_id: z.string(),
      line: z.number(),
      statement: z.string(),
      source_id: z.string().nullable(),
      context: z.string().optional().describe('Once per sentence.'),
      passages: z.array(z.string()),
      passage_sources: z.array(z.string()).optional(),
      same_passage_as: z.array(z.string()).optional(),
      shown_before: z.boolean().optional(),
      verdict: z.string().optional(),
    }),
  ),
  urls: z.record(z.string(), z.string()),
  next_offset: z.number().optional(),
  note: z.string().optional(),
});

export const auditReport = defineTool({
  name: 'audit_report',
  config: {
    title: 'List claim–source pairs to audit',
    description:
      "The report's claim–source pairs and uncited sentences (source_id null): line, statement, context, verdict, best passages (none once SUPPORTED). Returns pairs, urls, next_offset. Then record_audit.",
    inputSchema,
    outputSchema,
    annotations: annotationsFor('write'),
  },
  async handler(args, ctx: ToolContext) {
    const run = ctx.store.loadRun(args.run_id);
    const report = readReport(ctx.store, run.run_id, args.path, ctx.cwd);
    if (report.text === undefined) return fail(`no report at ${report.shown}; write the report there first, then audit it`);
    const { passageStrength, rankedPassagesAcross, WEAK_PASSAGE } = await import('../fetch/passages.js');
    const { fence } = await import('../fetch/untrusted.js');
    const pairs = auditPairs(parseReport(report.text));
    const audit = ctx.store.loadAudit(run.run_id);
    // A passage is shown to the auditor once a run: later it is pointed to by the pair that showed it
    // (SPEC 11.1, reply economy); `reshow` shows it again.
    const before: Record<string, string> = args.reshow ? {} : (run.audit_shown ?? {});
    // An uncited sentence may rest on any stored source: its passages are ranked over all of them.
    let stored: { id: string; markdown: string }[] | undefined;
    const allSources = () =>
      (stored ??= ctx.store.listSourceIds(run.run_id).flatMap((id) => {
        const s = ctx.store.readSource(run.run_id, id);
        return s ? [{ id, markdown: s.markdown }] : [];
      }));
    const offset = args.offset ?? 0;
    const limit = args.limit ?? DEFAULT_PAGE;
    // After a fix the changed pairs are scattered among settled ones; a re-audit pages through them alone.
    const listed = args.pending_only ? pairs.filter((p) => audit.verdicts[p.pair_id]?.verdict !== 'SUPPORTED') : pairs;
    const candidates = listed.slice(offset, offset + limit);
    // The pairs of one sentence share its context: it is given with the first of them that is still to
    // judge (a real run's audit pages were a quarter context, much of it repeated).
    let lastContext: string | undefined;
    // Only to a pair of the current report: an edited statement's old id names nothing the auditor can find.
    const ids = new Set(pairs.map((p) => p.pair_id));
    const pointedTo = new Map<string, string>(Object.entries(before).filter(([, id]) => ids.has(id)));
    const onPage: { raw: string; pair_id: string }[] = [];
    const out = candidates.map((p) => {
      const verdict = audit.verdicts[p.pair_id]?.verdict;
      const whole = contextText(p.statement, p.context);
      const context = verdict === 'SUPPORTED' || whole === lastContext ? undefined : whole;
      if (context !== undefined) lastContext = context;
      const ranking = rankingContext(p.context, p.statement);
      // A SUPPORTED pair is settled: its passage is in audit.md, and re-reading it would only cost context.
      const raw: string[] = [];
      const same: string[] = [];
      // Its own passage, shown by an earlier call: pointing the pair at itself read as a loop (trial 13).
      let shownBefore = false;
      let from: string[] | undefined;
      let bestIsPointer = false;
      if (verdict !== 'SUPPORTED') {
        const source = p.source_id === null ? undefined : ctx.store.readSource(run.run_id, p.source_id);
        const pool = p.source_id === null ? allSources() : source ? [{ id: p.source_id, markdown: source.markdown }] : [];
        // One passage holds the support for most pairs; a second only when asked, or when the first is weak
        // by the ranker's own score (SPEC 11.1, reply economy).
        let found = rankedPassagesAcross(pool, p.statement, 2, PASSAGE_CHARS, ranking, { widen: 'matching', order: 'strength' });
        const [best] = found;
        if (args.passages !== 2 && best && passageStrength(best.passage, p.statement) >= WEAK_PASSAGE) found = [best];
        if (p.source_id === null) from = found.map((x) => x.source_id);
        for (const [i, x] of found.entries()) {
          const earlier = pointedTo.get(passageKey(x.passage)) ?? onPage.find((o) => o.raw.includes(x.passage))?.pair_id;
          if (earlier === p.pair_id) {
            shownBefore = true;
            if (from) from[i] = '';
            continue;
          }
          if (earlier !== undefined) {
            if (i === 0) bestIsPointer = true;
            same.push(earlier);
            if (from) from[i] = '';
            continue;
          }
          raw.push(x.passage);
          onPage.push({ raw: x.passage, pair_id: p.pair_id });
          pointedTo.set(passageKey(x.passage), p.pair_id);
        }
        if (from) from = from.filter((id) => id !== '');
      }
      const pointers = same.length > 0 ? { same_passage_as: [...new Set(same)] } : {};
      const pair = {
        pair_id: p.pair_id,
        line: p.line,
        statement: clipAtWord(p.statement, STATEMENT_CHARS),
        source_id: p.source_id,
        ...(context ? { context: clipAtWord(context, STATEMENT_CHARS) } : {}),
        // The best-ranked passage first: when another pair showed it, its pointer comes before a weaker
        // second passage (trial 50 read the second, on another matter, as the pair's passage).
        ...(bestIsPointer ? pointers : {}),
        passages: raw.map(fence),
        ...(from && from.length > 0 ? { passage_sources: from } : {}),
        ...(bestIsPointer ? {} : pointers),
        ...(shownBefore ? { shown_before: true } : {}),
        ...(verdict ? { verdict } : {}),
      };
      return { pair, raw };
    });
    // The page is cut by size as well as by count: every pair up to next_offset is shown (SPEC 7).
    let shown = out.length;
    let r = build(shown);
    while (shown > 1 && replySize(r) > REPLY_CHARS) {
      shown = Math.max(1, Math.min(shown - 1, Math.floor((shown * REPLY_CHARS) / replySize(r))));
      r = build(shown);
    }
    const keys: Record<string, string> = {};
    for (const x of out.slice(0, shown)) for (const t of x.raw) keys[passageKey(t)] ??= x.pair.pair_id;
    // What was shown only spares a later page (SPEC 11.1, reply economy).
    await rememberShown(ctx.store, run.run_id, 'audit_shown', Object.fromEntries(Object.entries(keys).filter(([k]) => run.audit_shown?.[k] === undefined)));
    return r;

    function build(n: number) {
      // A context made only of statements this page shows says nothing they do not.
      const statements = out.slice(0, n).map((x) => x.pair.statement);
      const page = out.slice(0, n).map(({ pair }) => {
        if (pair.context === undefined || contextAdds(pair.context, statements)) return pair;
        const { context: _dropped, ...rest } = pair;
        return rest;
      });
      const next = offset + n < listed.length ? offset + n : undefined;
      // The URL of each source on the page, for reading more of it with fetch_source and a focus.
      const urls: Record<string, string> = {};
      for (const id of page.flatMap((p) => (p.source_id !== null ? [p.source_id] : (p.passage_sources ?? [])))) {
        if (urls[id] !== undefined) continue;
        const url = ctx.store.readSource(run.run_id, id)?.url;
        if (url) urls[id] = url;
      }
      const structured: Record<string, unknown> = {
        total: pairs.length,
        unaudited: auditCounts(audit, pairs).unaudited,
        pairs: page,
        ...(next !== undefined ? { next_offset: next } : {}),
        urls,
      };
      const notes: string[] = [];
      if (page.some((p) => p.same_passage_as !== undefined)) {
        notes.push('same_passage_as: the pairs that showed this passage already, here or earlier (before passages when it ranks first); reshow: true repeats it.');
      }
      if (page.some((p) => p.shown_before)) {
        notes.push('shown_before: an earlier call showed this pair its passage; reshow: true repeats it.');
      }
      if (page.some((p) => p.passages.length === 0 && p.same_passage_as === undefined && !p.shown_before && p.verdict !== 'SUPPORTED')) {
        notes.push('A pair with no passages: no part of its stored source matches; read the source with fetch_source and a focus.');
      }
      // With pending_only an empty page means everything is settled, not an uncited report (trial 40 was told the latter).
      if (page.length === 0) {
        notes.push(offset > 0 ? `No pairs from offset ${offset}.` : pairs.length > 0 ? `No pair is pending: all ${pairs.length} are SUPPORTED; call verify_report.` : 'The report cites no sources: there is nothing to audit.');
      }
      if (notes.length > 0) structured.note = notes.join(' ');
      return ok(structured);
    }
  },
});
