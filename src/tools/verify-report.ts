import * as z from 'zod';
import { verifyReport as check, type VerifySource } from '../reports/verify-report.js';
import type { RunStore } from '../store/run-store.js';
import type { ToolContext } from './context.js';
import { readReport } from './report-file.js';
import { annotationsFor, ok } from './result.js';
import { runId } from './schemas.js';
import { defineTool, once } from './tool.js';
import { parseReport } from '../engine/statements.js';
import { basisCounts, type BasisCounts } from '../engine/basis.js';

const inputSchema = () => ({
  run_id: runId(),
  path: z.string().max(500).optional().describe('In the run folder; default report.md.'),
});

const counts = once(() => z.object({ supported: z.number(), partial: z.number(), unsupported: z.number(), unaudited: z.number() }));

const outputSchema = () => ({
  ok: z.boolean(),
  problems: z.array(z.object({ line: z.number(), message: z.string() })),
  citations: z.number(),
  pairs: z.number(),
  audit: counts(),
  uncited: z.array(z.object({ line: z.number(), text: z.string() })),
  basis: z.object({ primary: z.number(), two_origins: z.number(), neither: z.number() }).describe('Cited facts (not pairs) by basis.'),
});

/** The grounded facts of every thread whose source (or an `also` source) the report cites, by basis. */
function citedBasis(store: RunStore, runId: string, threads: readonly { slug: string }[], text: string): BasisCounts {
  const cited = new Set(parseReport(text).pairs.map((p) => p.source_id).filter((id): id is string => typeof id === 'string'));
  const seen = new Set<string>();
  const facts = threads
    .flatMap((t) => store.loadThread(runId, t.slug)?.facts ?? [])
    .filter((f) => f.grounded && [f.source_id, ...(f.also ?? []).map((a) => a.source_id)].some((id) => id !== undefined && cited.has(id)))
    .filter((f) => {
      const k = `${f.canonical_key}\n${f.fact}`;
      return !seen.has(k) && seen.add(k) !== undefined;
    });
  return basisCounts(facts);
}

/** Every stored source, read past the cache: an edit made since it was cached must show. */
export function collectSources(store: RunStore, runId: string): Map<string, VerifySource> {
  const map = new Map<string, VerifySource>();
  for (const id of store.listSourceIds(runId)) {
    const s = store.readSource(runId, id, { fresh: true });
    if (s) map.set(id, { id, url: s.url, canonical_key: s.canonical_key, markdown: s.markdown, ...(s.sha256 ? { sha256: s.sha256 } : {}) });
  }
  return map;
}

export const verifyReport = defineTool({
  name: 'verify_report',
  config: {
    title: 'Verify the final report',
    description:
      'Checks report.md: citations resolve, quotations are in their cited source, Sources matches, sources unedited, pairs SUPPORTED (record_audit), checkable sentences cited. Returns ok, problems, citations, pairs, audit, uncited. Fix and repeat.',
    inputSchema,
    outputSchema,
    annotations: annotationsFor('read'),
  },
  handler(args, ctx: ToolContext) {
    // The run's folder is args.run_id: a folder renamed by hand still holds its first name in run.json.
    const run = ctx.store.loadRun(args.run_id);
    const report = readReport(ctx.store, args.run_id, args.path, ctx.cwd);
    if (report.text === undefined) {
      return ok({
        ok: false,
        problems: [{ line: 0, message: `no report at ${report.shown}; write it there first` }],
        citations: 0,
        pairs: 0,
        audit: { supported: 0, partial: 0, unsupported: 0, unaudited: 0 },
        uncited: [],
        basis: { primary: 0, two_origins: 0, neither: 0 },
      });
    }
    const r = check(report.text, collectSources(ctx.store, args.run_id), { degraded: run.fetch.degraded, audit: ctx.store.loadAudit(args.run_id) });
    const basis = citedBasis(ctx.store, args.run_id, run.threads, report.text);
    const problems = r.problems.map((p) => ({ line: p.line, message: p.message }));
    return ok({ ok: r.problems.length === 0, problems, citations: r.citations, pairs: r.pairs, audit: r.audit, uncited: r.uncited, basis });
  },
});
