import { createHash } from 'node:crypto';
import * as path from 'node:path';
import * as z from 'zod';
import { applyVerdicts, auditCounts, VERDICTS } from '../engine/audit.js';
import { numbersOutsidePassage } from '../engine/audit-numbers.js';
import { auditPairs, parseReport } from '../engine/statements.js';
import { clipAtWord } from '../engine/text.js';
import { renderAudit } from '../reports/audit.js';
import type { ToolContext } from './context.js';
import { readReport, REPORT_NAME } from './report-file.js';
import { unfence } from '../fetch/untrusted.js';
import { annotationsFor, fail, ok } from './result.js';
import { runId } from './schemas.js';
import { defineTool } from './tool.js';

/** An uncited sentence as `cite` names it: enough to find it on its line. */
const CITE_SENTENCE_CHARS = 300;

const inputSchema = () => ({
  run_id: runId(),
  verdicts: z
    .array(
      z.object({
        pair_id: z.string().min(1).max(40),
        verdict: z.enum(VERDICTS),
        source_id: z.string().max(12).regex(/^S\d+$/).optional().describe('For a null source_id pair.'),
        passage: z.string().max(2000).optional().describe('Verbatim; for SUPPORTED, PARTIAL.'),
        note: z.string().max(1000).optional().describe('What is unsupported; for PARTIAL, UNSUPPORTED.'),
      }),
    )
    .min(1)
    .max(100),
});

const outputSchema = () => ({
  recorded: z.number(),
  refused: z.array(z.object({ pair_id: z.string(), why: z.string() })),
  counts: z.object({ supported: z.number(), partial: z.number(), unsupported: z.number(), unaudited: z.number() }),
  not_supported: z.array(z.string()).describe('Pairs judged PARTIAL or UNSUPPORTED.'),
  cite: z.array(z.object({ line: z.number(), source_id: z.string(), sentence: z.string() })).optional(),
  check: z.array(z.object({ pair_id: z.string(), numbers: z.array(z.string()) })).optional().describe('SUPPORTED, but numbers not in passage or heading above it.'),
  audit_path: z.string(),
});

export const recordAudit = defineTool({
  name: 'record_audit',
  config: {
    title: 'Record claim audit verdicts',
    description:
      'Records verdicts on audit_report pairs; a passage not in the stored source is refused for its pair. Writes audit.md. Returns recorded, refused, counts, not_supported, cite, check.',
    inputSchema,
    outputSchema,
    annotations: annotationsFor('write'),
  },
  async handler(args, ctx: ToolContext) {
    ctx.store.loadRun(args.run_id);
    return ctx.store.lock(args.run_id, () => {
      const run = ctx.store.loadRun(args.run_id);
      const report = readReport(ctx.store, run.run_id, undefined, ctx.cwd);
      if (report.text === undefined) return fail(`no report at ${report.shown}; write the report, then audit_report, then record_audit`);
      const pairs = auditPairs(parseReport(report.text));
      const sourceText = (id: string) => ctx.store.readSource(run.run_id, id)?.markdown;
      // A passage copied from audit_report's structured pairs still carries its fence (SPEC 7).
      const verdicts = args.verdicts.map((v) => (v.passage === undefined ? v : { ...v, passage: unfence(v.passage) }));
      const sourceTitle = (id: string) => ctx.store.readSource(run.run_id, id)?.title;
      const result = applyVerdicts(ctx.store.loadAudit(run.run_id), verdicts, pairs, sourceText, createHash('sha256').update(report.text).digest('hex'), sourceTitle);
      const urls = new Map<string, string>();
      const ids = [...pairs.map((p) => p.source_id), ...(result.state.history ?? []).map((v) => v.source_id), ...Object.values(result.state.verdicts).map((v) => v.source_id)];
      for (const id of new Set(ids.flatMap((x) => (x === null ? [] : [x])))) {
        const url = ctx.store.readSource(run.run_id, id)?.url;
        if (url) urls.set(id, url);
      }
      const audit = renderAudit({ question: run.question, report: REPORT_NAME, pairs, audit: result.state, urls });
      const written = result.recorded.length > 0 ? ctx.store.commit(run.run_id, { artifacts: [{ name: 'audit.md', content: audit }], audit: result.state }) : [`${run.run_id}/audit.md`];
      const counts = auditCounts(result.state, pairs);
      const verdictOf = (id: string) => result.state.verdicts[id]?.verdict;
      const notSupported = pairs.filter((p) => verdictOf(p.pair_id) === 'PARTIAL' || verdictOf(p.pair_id) === 'UNSUPPORTED').map((p) => p.pair_id);
      // Numbers the passage does not hold are said for the auditor to check, not refused (audit-numbers.ts).
      const recorded = new Set(result.recorded);
      const check = verdicts.flatMap((v) => {
        const pair = pairs.find((p) => p.pair_id === v.pair_id);
        const sid = pair?.source_id ?? v.source_id;
        if (!recorded.has(v.pair_id) || v.verdict !== 'SUPPORTED' || v.passage === undefined || !pair || !sid) return [];
        const source = ctx.store.readSource(run.run_id, sid);
        const numbers = source ? numbersOutsidePassage(pair.statement, v.passage, source) : [];
        return numbers.length > 0 ? [{ pair_id: v.pair_id, numbers }] : [];
      });
      return ok({
        recorded: result.recorded.length,
        refused: result.refused,
        counts,
        not_supported: notSupported,
        // Always present, empty or not: the audit prose acts on both, and three trial auditors (54, 57, 59)
        // could not tell "none" from a key the reply lacked.
        // The sentence itself: a report line holds several (trial 61 had to find which of five needed the citation).
        // Every uncited sentence of the report the audit found a source for, not only this call's: a model
        // that read only the last reply missed one (trial 62).
        cite: pairs.flatMap((p) => {
          const v = result.state.verdicts[p.pair_id];
          return p.source_id === null && v?.verdict === 'SUPPORTED' && v.source_id ? [{ line: p.line, source_id: v.source_id, sentence: clipAtWord(p.statement, CITE_SENTENCE_CHARS) }] : [];
        }),
        check,
        audit_path: shownPath(ctx, written[0] ?? `${run.run_id}/audit.md`),
      });
    });
  },
});

/** Same base as every other path a tool returns (SPEC 5): the working directory when the root is inside it. */
function shownPath(ctx: ToolContext, underRoot: string): string {
  const abs = path.join(ctx.store.root, underRoot);
  const rel = path.relative(ctx.cwd, abs);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : abs;
}
