import { z } from 'zod';
import { InputError } from '../errors.js';
import { canonicalKey } from '../engine/canonical-url.js';
import { recordFetch } from '../engine/degraded.js';
import { originOf } from '../engine/origin.js';
import { projectForMatching } from '../engine/grounding.js';
import type { StoredSource } from '../store/run-store.js';
import type { ToolContext } from './context.js';
import { annotationsFor, fail, ok, REPLY_CHARS, replySize } from './result.js';
import { runId } from './schemas.js';
import type { ToolDefinition } from './tool.js';

const DEFAULT_CHARS = 8_000;

const inputSchema = {
  run_id: runId,
  url: z.string().min(1).max(2048).optional(),
  path: z.string().min(1).max(1024).optional().describe('Instead of url: local:<folder>/<file>.'),
  focus: z.string().max(500).optional().describe('Passages most relevant to this.'),
  start_index: z.number().int().min(0).optional().describe('Page from this offset instead.'),
  max_chars: z.number().int().min(500).max(40_000).optional().describe('Default 8000, max 40000.'),
  full: z.boolean().optional().describe('Whole visible page, same source.'),
};

const outputSchema = {
  source_id: z.string(),
  canonical_key: z.string(),
  url: z.string(),
  title: z.string(),
  total_chars: z.number(),
  outline: z.array(z.string()),
  content: z.string(),
  next_start_index: z.number().optional(),
  duplicate: z.boolean(),
  degraded: z.boolean(),
  content_type: z.enum(['html', 'text', 'pdf']),
  pages: z.object({ stored: z.number(), not_read: z.number() }).optional(),
  origin: z.string(),
  mirror_of: z.string().optional(),
  kept: z.number().optional().describe('Share of the visible page stored; full: true reads the rest.'),
  left_out: z.array(z.string()).optional(),
};

export const fetchSource: ToolDefinition<typeof inputSchema> = {
  name: 'fetch_source',
  config: {
    title: 'Fetch and store a source',
    description:
      "Fetches a page or PDF (SSRF-guarded, capped), or reads a file of a folder the user allowed (path); stores its readable markdown once per canonical URL as S<n>. Returns source_id, title, outline and passages for `focus` (or from start_index) as fenced untrusted text. Then check_drift.",
    inputSchema,
    outputSchema,
    annotations: annotationsFor('fetch'),
  },
  async handler(args, ctx: ToolContext, extra) {
    const run = ctx.store.loadRun(args.run_id);
    if ((args.url === undefined) === (args.path === undefined)) throw new InputError('give exactly one of url (a web page) or path (a file in a folder the user allowed)');
    // Everything fetch-related loads on the first call, not at server start.
    const [{ checkUrl, parseAllowHosts }, { outline, pageFrom, selectPassages }, { fence, wrapUntrusted }] = await Promise.all([
      import('../fetch/url-guard.js'),
      import('../fetch/passages.js'),
      import('../fetch/untrusted.js'),
    ]);
    const local = args.path !== undefined ? (await import('../local/source.js')).localTarget(args.path, ctx.env) : undefined;
    if (local && !local.ok) return fail(local.reason);
    const url = local ? local.key : (args.url as string);
    // The address policy comes before the store: a refused spelling of a stored URL's host (`127.1`,
    // `user@host`) is refused whatever the store holds.
    const allowHosts = parseAllowHosts(ctx.env.DEEP_RESEARCH_ALLOW_HOSTS);
    const check = local ? { ok: true as const } : checkUrl(url, allowHosts);
    if (!check.ok) return fail(withSkipHint(check.reason));
    const { parseResolve } = await import('../fetch/resolve.js');
    const resolve = parseResolve(ctx.env.DEEP_RESEARCH_RESOLVE, allowHosts);
    if (!resolve.ok) return fail(resolve.reason);
    let key: string;
    try {
      key = canonicalKey(url);
    } catch (err) {
      throw new InputError(`url: ${(err as Error).message}`);
    }

    // `full` refetches only an HTML source not yet stored whole; anything else is answered from the store.
    const settled = (s: StoredSource): boolean => (!args.full || s.full === true || (s.content_type ?? 'html') !== 'html');
    const stored = ctx.store.lookupSource(run.run_id, key);
    if (stored && settled(stored)) return reply(stored, true, run.fetch.degraded);

    await extra.progress('fetching', 0, 2);
    const [{ readPage }, { fullTextUrl }] = await Promise.all([import('../fetch/pipeline.js'), import('../fetch/pdf/detect.js')]);
    const page = local ? await local.read({ full: args.full === true }) : await readPage(fullTextUrl(url, key), {
      ...ctx.fetch,
      ...(resolve.lookup ? { lookup: resolve.lookup } : {}),
      allowHosts,
      signal: extra.signal,
      onProgress: (message: string) => void extra.progress(message, 1, 2),
    }, { full: args.full === true });

    return ctx.store.lock(run.run_id, () => {
      const current = ctx.store.loadRun(run.run_id);
      const again = ctx.store.lookupSource(run.run_id, key);
      if (again && settled(again)) return reply(again, true, current.fetch.degraded);
      const counts = page.ok || page.reachedNetwork;
      const tally = counts ? recordFetch(current.fetch, !page.ok) : current.fetch;
      if (!page.ok) {
        if (tally !== current.fetch) ctx.store.saveRun({ ...current, fetch: tally });
        const note = tally.degraded ? ' The run is now degraded: the final report must say it rests on partial information.' : '';
        return fail(`${withSkipHint(page.message)}${note}`);
      }
      if (again) {
        // Same id and key, new sha256; every line of the earlier text stays findable, so quotes that
        // grounded in it still ground.
        const source = ctx.store.replaceSourceLocked(run.run_id, again.id, {
          url: again.url,
          canonical_key: again.canonical_key,
          title: again.title,
          markdown: supersetOf(again.markdown, page.markdown),
          fetched_at: ctx.now(),
          content_type: again.content_type ?? 'html',
          full: true,
        });
        if (tally !== current.fetch) ctx.store.saveRun({ ...current, fetch: tally });
        return reply(source, true, tally.degraded);
      }
      const { source } = ctx.store.addSourceLocked(run.run_id, {
        url,
        canonical_key: key,
        title: page.title,
        markdown: page.markdown,
        fetched_at: ctx.now(),
        // The site the text came from: after redirects, and for a doi:/arxiv: key the page that served it.
        origin: originOf(page.finalUrl),
        content_type: page.kind,
        ...(page.pages ? { pages: page.pages.stored, pages_not_read: page.pages.not_read, outline: page.outline ?? [] } : {}),
        ...(page.kept !== undefined ? { kept: page.kept, left_out: page.leftOut ?? [] } : {}),
        ...(page.full && page.kind === 'html' ? { full: true } : {}),
      });
      if (tally !== current.fetch) ctx.store.saveRun({ ...current, fetch: tally });
      return reply(source, false, tally.degraded);
    });

    async function reply(source: StoredSource, duplicate: boolean, degraded: boolean) {
      // A reply carries at most REPLY_CHARS in each channel: when the asked-for size does not fit beside
      // the title and outline, the content shrinks by the excess and says where it continues (SPEC 7).
      let budget = args.max_chars ?? DEFAULT_CHARS;
      let r = await render(source, duplicate, degraded, budget);
      for (let i = 0; i < 6 && replySize(r) > REPLY_CHARS && budget > 500; i++) {
        budget = Math.max(500, budget - (replySize(r) - REPLY_CHARS) - 200);
        r = await render(source, duplicate, degraded, budget);
      }
      return r;
    }

    async function render(source: StoredSource, duplicate: boolean, degraded: boolean, max: number) {
      const pdf = source.content_type === 'pdf';
      let content: string;
      let next: number | undefined;
      if (args.start_index !== undefined || (args.focus === undefined && source.markdown.length > max)) {
        // Without a focus, a page longer than the reply is read in order, from where the next call goes on.
        const page = pageFrom(source.markdown, args.start_index ?? 0, max);
        content = page.content;
        next = page.next_start_index;
      } else {
        content = selectPassages(source.markdown, args.focus, max).content;
        // Passages leave a PDF's page markers out (SPEC 4.1); paging keeps them, as offsets count them.
        if (pdf) content = (await import('../fetch/pdf/layout.js')).dropPageMarkers(content);
      }
      // Title and headings are page text like the body (SPEC 7): fenced wherever they appear, and in
      // the text rendering, which is all some clients show the model, inside the block with the body.
      const raw = source.outline ?? outline(source.markdown);
      const label = `${source.id} ${source.url}`;
      const structured: Record<string, unknown> = {
        source_id: source.id,
        canonical_key: source.canonical_key,
        url: source.url,
        title: fence(source.title),
        total_chars: source.markdown.length,
        outline: raw.map(fence),
        content: wrapUntrusted(content, label),
        duplicate,
        degraded,
        content_type: source.content_type ?? 'html',
      };
      if (next !== undefined) structured.next_start_index = next;
      structured.origin = source.origin;
      if (source.mirror_of !== undefined) structured.mirror_of = source.mirror_of;
      const lost = source.kept !== undefined ? (source.left_out ?? []) : undefined;
      if (source.kept !== undefined) {
        structured.kept = source.kept;
        structured.left_out = (lost ?? []).map(fence);
      }
      const page = [
        `title: ${source.title}`,
        `outline:${raw.length === 0 ? ' (none)' : raw.map((x) => `\n  ${x}`).join('')}`,
        ...(lost ? [`left out:${lost.length === 0 ? ' (no headings)' : lost.map((x) => `\n  ${x}`).join('')}`] : []),
        '',
        content,
      ].join('\n');
      let text = wrapUntrusted(page, label);
      if (source.kept !== undefined) {
        text = `Stored text keeps ${Math.round(source.kept * 100)}% of the page's visible text; the parts left out are listed in the block. To read and quote them: fetch_source {url, full: true}.\n${text}`;
      }
      if (pdf) {
        const stored = source.pages ?? 0;
        const notRead = source.pages_not_read ?? 0;
        structured.pages = { stored, not_read: notRead };
        const cap = notRead > 0 ? `; ${notRead} more page${notRead === 1 ? ' was' : 's were'} not read (past the ${stored}-page cap)` : '';
        text = `PDF, ${stored} page${stored === 1 ? '' : 's'} stored${cap}.\n${text}`;
      }
      return ok(structured, text, ['title', 'outline', 'left_out']);
    }
  },
};

/** `full` with every line of `before` that `full` lacks appended, so the new text is a superset. */
function supersetOf(before: string, full: string): string {
  const hay = projectForMatching(full);
  const missing = before.split('\n').filter((line) => {
    const p = projectForMatching(line);
    return p.length > 0 && !hay.includes(p);
  });
  return missing.length === 0 ? full : `${full}\n\n${missing.join('\n\n')}`;
}

/** Every refusal ends by saying what to do next, once. */
function withSkipHint(message: string): string {
  const m = message.trim().replace(/\.+$/, '');
  return /\bskip\b/i.test(m) ? `${m}.` : `${m}. Skip this result and go on with the others.`;
}
