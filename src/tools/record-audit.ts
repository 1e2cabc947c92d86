import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { z } from 'zod';
import { applyVerdicts, auditCounts, VERDICTS } from '../engine/audit.js';
import { parseReport } from '../engine/statements.js';
import { renderAudit } from '../reports/audit.js';
import type { ToolContext } from './context.js';
import { readReport, REPORT_NAME } from './report-file.js';
import { annotationsFor, fail, ok } from './result.js';
import { runId } from './schemas.js';
import type { ToolDefinition } from './tool.js';

const inputSchema = {
  run_id: runId,
  verdicts: z
    .array(
      z.object({
        pair_id: z.string().min(1).max(40),
        verdict: z.enum(VERDICTS),
        passage: z.string().max(2000).optional().describe('Verbatim; for SUPPORTED, PARTIAL.'),
        note: z.string().max(1000).optional().describe('What is unsupported; for PARTIAL, UNSUPPORTED.'),
      }),
    )
    .min(1)
    .max(100),
};

const outputSchema = {
  recorded: z.number(),
  refused: z.array(z.object({ pair_id: z.string(), why: z.string() })),
  counts: z.object({ supported: z.number(), partial: z.number(), unsupported: z.number(), unaudited: z.number() }),
  not_supported: z.array(z.string()).describe('Pairs not yet SUPPORTED, unjudged included.'),
  audit_path: z.string(),
};

export const recordAudit: ToolDefinition<typeof inputSchema> = {
  name: 'record_audit',
  config: {
    title: 'Record claim audit verdicts',
    description:
      'Records verdicts on pairs from audit_report; a passage not in the stored source is refused for that pair, the rest recorded. Writes audit.md. Returns recorded, refused, counts, not_supported.',
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
      const { pairs } = parseReport(report.text);
      const sourceText = (id: string) => ctx.store.readSource(run.run_id, id)?.markdown;
      const result = applyVerdicts(ctx.store.loadAudit(run.run_id), args.verdicts, pairs, sourceText, createHash('sha256').update(report.text).digest('hex'));
      const urls = new Map<string, string>();
      for (const id of new Set([...pairs.map((p) => p.source_id), ...(result.state.history ?? []).map((v) => v.source_id), ...Object.values(result.state.verdicts).map((v) => v.source_id)])) {
        const url = ctx.store.readSource(run.run_id, id)?.url;
        if (url) urls.set(id, url);
      }
      const audit = renderAudit({ question: run.question, report: REPORT_NAME, pairs, audit: result.state, urls });
      const written = result.recorded.length > 0 ? ctx.store.commit(run.run_id, { artifacts: [{ name: 'audit.md', content: audit }], audit: result.state }) : [`${run.run_id}/audit.md`];
      const counts = auditCounts(result.state, pairs);
      const notSupported = pairs.filter((p) => result.state.verdicts[p.pair_id]?.verdict !== 'SUPPORTED').map((p) => p.pair_id);
      return ok({
        recorded: result.recorded.length,
        refused: result.refused,
        counts,
        not_supported: notSupported,
        audit_path: shownPath(ctx, written[0] ?? `${run.run_id}/audit.md`),
      });
    });
  },
};

/** Same base as every other path a tool returns (SPEC 5): the working directory when the root is inside it. */
function shownPath(ctx: ToolContext, underRoot: string): string {
  const abs = path.join(ctx.store.root, underRoot);
  const rel = path.relative(ctx.cwd, abs);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : abs;
}
