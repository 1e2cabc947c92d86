import * as z from 'zod';
import { InputError } from '../errors.js';
import { driftAction, nextDriftStreak } from '../engine/drift-streak.js';
import { canonicalKey } from '../engine/canonical-url.js';
import { DRIFT_SIGNALS } from '../engine/types.js';
import type { ToolContext } from './context.js';
import { annotationsFor, ok } from './result.js';
import { runId, threadName } from './schemas.js';
import { requireThread } from './thread-access.js';
import { defineTool } from './tool.js';

const inputSchema = () => ({
  run_id: runId(),
  thread: threadName(),
  source_id: z.string().max(20).optional().describe('S<n> from fetch_source.'),
  url: z.string().max(2048).optional().describe('With text, if not stored.'),
  text: z.string().max(200_000).optional(),
  published: z.number().int().min(1000).max(2200).optional().describe('Publication year.'),
});

const outputSchema = () => ({
  drift: z.boolean(),
  signals: z.array(z.enum(DRIFT_SIGNALS)),
  consecutive_drifts: z.number(),
  action: z.enum(['extract', 'skip', 'reformulate']),
  why: z.string().optional(),
});

export const checkDrift = defineTool({
  name: 'check_drift',
  config: {
    title: 'Check a result for drift',
    description:
      "Checks a fetched page against the thread's subjects, terms, scope and named release; keeps the drift streak. Returns drift, signals, consecutive_drifts, action (extract|skip|reformulate). Call before extracting facts for record_round.",
    inputSchema,
    outputSchema,
    annotations: annotationsFor('write'),
  },
  async handler(args, ctx: ToolContext) {
    let text: string;
    let key: string;
    ctx.store.loadRun(args.run_id);
    if (args.source_id !== undefined) {
      const s = ctx.store.readSource(args.run_id, args.source_id);
      if (!s) throw new InputError(`no stored source "${args.source_id}" in run ${args.run_id}; use a source_id that fetch_source returned, or pass url and text`);
      text = `${s.title}\n${s.markdown}`;
      key = s.canonical_key;
    } else if (args.url !== undefined && args.text !== undefined) {
      text = args.text;
      key = canonicalKey(args.url);
    } else {
      throw new InputError('pass source_id (from fetch_source), or both url and text');
    }
    // The gazetteer behind the signals is large; it loads on the first check, not at server start.
    const { assessDrift } = await import('../engine/drift.js');
    return ctx.store.lock(args.run_id, async () => {
      const { run, state } = requireThread(ctx, args.run_id, args.thread);
      const scope = run.brief.scope;
      // The run's scope is what the question, the assumptions and the include terms name. A known fact's
      // release dates that fact ("no longer supported from R 4.2.0": trial 19 was told to skip every page of
      // its 4.2.2 manuals), and a sub-question's may be a point of comparison ("how did it change in Python
      // 3.12?": trial 23 was told to skip the 3.11 docs its assumptions were about).
      const versionContext = [run.question, ...(run.brief.assumptions ?? []), ...(run.brief.disambiguation?.include ?? [])];
      const result = assessDrift({
        text,
        ...(args.published !== undefined ? { published: args.published } : {}),
        subjects: state.definition.subjects,
        subQuestions: state.definition.sub_questions.map((q) => q.question),
        include: run.brief.disambiguation?.include ?? [],
        exclude: run.brief.disambiguation?.exclude ?? [],
        ...(scope ? { scope } : {}),
        // Where the run names the release it is about, for the version signal.
        versionContext,
      });
      const streak = nextDriftStreak(state.drift_streak, result.drift);
      const drifted = new Set(state.drifted_keys);
      if (result.drift) drifted.add(key);
      else drifted.delete(key);
      const checked = [...new Set([...(state.drift_checked ?? []), key])].sort();
      ctx.store.saveThread(run.run_id, { ...state, drift_streak: streak, drifted_keys: [...drifted].sort(), drift_checked: checked });
      return ok({
        drift: result.drift,
        signals: result.signals,
        consecutive_drifts: streak,
        action: driftAction(streak, result.drift),
        ...(result.signals.includes('version') ? { why: await versionWhy(text, versionContext) } : result.excluded ? { why: domainWhy(result.excluded, result.stated ?? 0) } : {}),
      });
    });
  },
});

/**
 * A domain signal names the excluded terms that outnumbered the thread's own (terms of the brief, not page
 * text), so a model can tell an off-topic page from an exclude term that was too broad (trial 9: "Build-Depends"
 * excluded, and the chapter on Depends skipped with no reason given).
 */
function domainWhy(excluded: readonly { term: string; count: number }[], stated: number): string {
  const named = excluded.map((e) => `"${e.term}" ${e.count}×`).join(', ');
  return `the page names the brief's excluded terms (${named}) more often than this thread's subjects and include terms (${stated}×). If the page is what the thread is about, the exclude term is too broad: start_run with new: true to revise the brief's disambiguation.`;
}

/**
 * A version signal says which release the page is about and which the run names, so a model whose reachable
 * pages are all of another release can tell that apart from a stray page (a real run skipped every page of
 * its 3.11 docs for a brief naming 3.13, and could not see why). The page's release is page text: fenced.
 */
async function versionWhy(text: string, context: readonly string[]): Promise<string> {
  const [{ otherRelease, targetReleases }, { fence }] = await Promise.all([import('../engine/version-drift.js'), import('../fetch/untrusted.js')]);
  const targets = targetReleases(context);
  const page = otherRelease(text, targets);
  const named = [...targets].map(([product, versions]) => `${product} ${versions.join(', ')}`).join('; ');
  return `the page is about release ${fence(page ? `${page.product} ${page.version}` : 'another release')}; the question or brief names ${named}. If every reachable page is of another release, the answer can only be about that one: revise the brief's releases (start_run with new: true) or say so in the report.`;
}
