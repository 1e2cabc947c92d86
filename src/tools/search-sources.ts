import * as z from 'zod';
import type { ToolContext } from './context.js';
import { annotationsFor, fail, ok } from './result.js';
import { runId } from './schemas.js';
import { defineTool } from './tool.js';

const inputSchema = () => ({
  query: z.string().min(1).max(500),
  run_id: runId().optional(),
  limit: z.number().int().min(1).max(20).optional().describe('Default 8.'),
});

const outputSchema = () => ({
  results: z.array(z.object({ title: z.string(), url: z.string(), snippet: z.string() })),
  documents: z.array(z.object({ root: z.string(), count: z.number() })).optional(),
  notes: z.array(z.string()).optional(),
});

export const searchSources = defineTool({
  name: 'search_sources',
  config: {
    title: 'Search local folders and stored sources',
    description:
      "Full-text search of the user's allowed folders and, with run_id, the run's stored sources. Returns results [{title, url, snippet}], fenced; read a local: url with fetch_source {path}.",
    inputSchema,
    outputSchema,
    annotations: annotationsFor('read'),
  },
  async handler(args, ctx: ToolContext) {
    const { parseRoots, LOCAL_ROOTS_ENV } = await import('../local/roots.js');
    const roots = parseRoots(ctx.env[LOCAL_ROOTS_ENV]);
    if (!roots.ok) return fail(roots.reason);
    const runIdGiven = args.run_id;
    if (roots.roots.length === 0 && runIdGiven === undefined) {
      return fail(`no local folder is allowed and no run_id was given, so there is nothing to search. The user allows folders in ${LOCAL_ROOTS_ENV} or with "deep-research install --local-root DIR"; give run_id to search a run's stored sources`);
    }
    const run = runIdGiven !== undefined ? ctx.store.loadRun(runIdGiven) : undefined;
    const docs = run
      ? ctx.store
          .listSourceIds(run.run_id)
          .map((id) => ctx.store.readSource(run.run_id, id))
          .filter((s) => s !== undefined)
          .map((s) => ({ url: s.url, title: s.title, markdown: s.markdown, sha256: s.sha256 }))
      : [];
    const [{ searchAll }, { fence }] = await Promise.all([import('../local/search.js'), import('../fetch/untrusted.js')]);
    const found = await searchAll({ query: args.query, limit: args.limit ?? 8, roots: roots.roots, env: ctx.env, ...(run ? { run: { id: run.run_id, docs } } : {}) });
    // Titles and snippets are page text (SPEC 7): fenced, in both channels (the text is this same JSON).
    const structured: Record<string, unknown> = {
      results: found.results.map((r) => ({ title: fence(r.title), url: r.url, snippet: fence(r.snippet) })),
      ...(found.notes.length > 0 ? { notes: found.notes } : {}),
      // What was searched matters when nothing matched; with results it would repeat on every call (SPEC 11.1).
      ...(found.results.length === 0 ? { documents: found.documents, next_step: `No document matches "${args.query.slice(0, 100)}"; try other words, or the web.` } : {}),
    };
    return ok(structured);
  },
});
