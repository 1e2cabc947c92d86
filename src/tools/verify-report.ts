import * as path from 'node:path';
import { z } from 'zod';
import { InputError } from '../errors.js';
import { readFileSafe } from '../store/fs-safe.js';
import { verifyReportText, type VerifySource } from '../reports/verify-report.js';
import type { RunStore } from '../store/run-store.js';
import type { ToolContext } from './context.js';
import { annotationsFor, ok } from './result.js';
import { runId } from './schemas.js';
import type { ToolDefinition } from './tool.js';

const inputSchema = {
  run_id: runId,
  path: z.string().max(500).optional().describe('In the run folder; default report.md.'),
};

const outputSchema = {
  ok: z.boolean(),
  problems: z.array(z.object({ line: z.number(), message: z.string() })),
};

export function collectSources(store: RunStore, runId: string): Map<string, VerifySource> {
  const map = new Map<string, VerifySource>();
  for (const id of store.listSourceIds(runId)) {
    const s = store.readSource(runId, id);
    if (s) map.set(id, { id, url: s.url, canonical_key: s.canonical_key, markdown: s.markdown });
  }
  return map;
}

export const verifyReport: ToolDefinition<typeof inputSchema> = {
  name: 'verify_report',
  config: {
    title: 'Verify the final report',
    description:
      "Checks report.md against stored sources: citations resolve, quotes are found, Sources lists exactly the cited ids, no unstored URLs, required headings. Returns ok and problems with lines. Repeat after fixing; fetch_source stores sources.",
    inputSchema,
    outputSchema,
    annotations: annotationsFor('read'),
  },
  handler(args, ctx: ToolContext) {
    const run = ctx.store.loadRun(args.run_id);
    const dir = ctx.store.runDir(run.run_id);
    const file = resolveInside(dir, args.path ?? 'report.md', ctx.cwd);
    const text = readFileSafe(file, ctx.store.root);
    if (text === undefined) {
      return ok({ ok: false, problems: [{ line: 0, message: `no report at ${path.relative(ctx.cwd, file) || file}; write it there first` }], citations_checked: 0 });
    }
    const problems = verifyReportText(text, collectSources(ctx.store, run.run_id), { degraded: run.fetch.degraded });
    const citations = (text.match(/\[S\d+/g) ?? []).length;
    return ok({ ok: problems.length === 0, problems, citations_checked: citations });
  },
};

/** Accepts a path relative to the run folder or to the working directory; refuses anything outside the run. */
function resolveInside(runDir: string, p: string, cwd: string): string {
  if (p.includes('\0')) throw new InputError('path contains a NUL byte');
  const candidates = [path.resolve(runDir, p), path.resolve(cwd, p)];
  for (const c of candidates) {
    const rel = path.relative(runDir, c);
    if (!rel.startsWith('..') && !path.isAbsolute(rel) && rel !== '') return c;
  }
  throw new InputError(`path "${p}" is outside the run folder; reports live in the run folder (default report.md)`);
}
