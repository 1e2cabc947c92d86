import * as z from 'zod';
import { InputError } from '../errors.js';
import { canonicalKey } from '../engine/canonical-url.js';
import { recordFetch } from '../engine/degraded.js';
import { originOf } from '../engine/origin.js';
import { projectForMatching } from '../engine/grounding.js';
import type { StoredSource } from '../store/run-store.js';
import type { ToolContext } from './context.js';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { annotationsFor, fail, ok, REPLY_CHARS, replySize } from './result.js';
import { runId, threadName } from './schemas.js';
import { recordRead, seenBy, type Seen } from './outline-reads.js';
import { defineTool } from './tool.js';
import { alreadyHeld, morePages, morePagesOutput, pagesInput, pagesOf, pagesOutput, spanKey, spanOf } from './pdf-pages.js';
import { spanTitle } from '../engine/page-range.js';
import { outlineDigest } from '../engine/outline-digest.js';

const DEFAULT_CHARS = 8_000;
/** A first read with neither focus nor start_index shows the page's opening, beside its outline, to choose where to read. */
const OPENING_CHARS = 3_000;
/**
 * A focused read without max_chars shows the best passages only, by count and size: the model asked for
 * what is relevant, not for a length, and the reply says how to get more (SPEC 11.1, reply economy).
 */
const FOCUS_UNITS = 4;
const FOCUS_CHARS = 4_000;
/** Passages scoring below this share of the best one are not shown for a focus: they cost more than they tell. */
const RELEVANCE_FLOOR = 0.5;
/** Outline lines on a first read: the whole document to the depth that fits (outline-digest). */
const OUTLINE_ENTRIES = 40;
const FOCUSED_OUTLINE_ENTRIES = 20;

const inputSchema = () => ({
  run_id: runId(),
  url: z.string().min(1).max(2048).optional(),
  path: z.string().min(1).max(1024).optional().describe('Instead of url: local:<folder>/<file>.'),
  focus: z.string().max(500).optional().describe('Best passages for this.'),
  start_index: z.number().int().min(0).optional().describe('Page from this offset instead.'),
  max_chars: z.number().int().min(500).max(40_000).optional().describe('With focus leave unset: best 4 passages. Else default 8000. Max 40000.'),
  full: z.boolean().optional().describe('Whole visible page, same source.'),
  thread: threadName().optional().describe('Reader; outline on first read.'),
  pages: pagesInput().optional(),
});

const outputSchema = () => ({
  source_id: z.string(),
  canonical_key: z.string(),
  url: z.string(),
  title: z.string(),
  total_chars: z.number(),
  outline: z.array(z.string()).optional(),
  sections: z.string().optional(),
  already_shown: z.number().optional().describe('Passages shown before, left out.'),
  content: z.string(),
  next_start_index: z.number().optional(),
  duplicate: z.boolean(),
  degraded: z.boolean(),
  content_type: z.enum(['html', 'text', 'pdf']),
  pages: pagesOutput(),
  more_pages: morePagesOutput(),
  origin: z.string(),
  mirror_of: z.string().optional(),
  kept: z.number().optional().describe('Share of the visible page stored; full: true reads the rest.'),
  left_out: z.array(z.string()).optional(),
  more: z.string().optional(),
});

export const fetchSource = defineTool({
  name: 'fetch_source',
  config: {
    title: 'Fetch and store a source',
    description:
      "Fetches a page or PDF (SSRF-guarded, capped) or an allowed folder's file (path); stores it once per canonical URL as S<n>. Returns source_id, title, passages for `focus` (or from start_index), fenced, and the outline on a thread's first read. more_pages: a long PDF's unread pages. Then check_drift.",
    inputSchema,
    outputSchema,
    annotations: annotationsFor('fetch'),
  },
  async handler(given, ctx: ToolContext, extra) {
    const run = ctx.store.loadRun(given.run_id);
    if ((given.url === undefined) === (given.path === undefined)) throw new InputError('give exactly one of url (a web page) or path (a file in a folder the user allowed)');
    // A stored file's url is its `local:` address (audit_report's urls give it, and the audit reads a source
    // again by its url): taken as the path it names (trial 64's auditor was refused it as a web address).
    const args = given.url !== undefined && /^local:/i.test(given.url) ? { ...given, url: undefined, path: given.url } : given;
    // Everything fetch-related loads on the first call, not at server start.
    const [{ checkUrl, parseAllowHosts }, { outlineWithOffsets, pageFrom, pageWithout, sectionsShown, selectPassages }, { fence, wrapUntrusted }] = await Promise.all([
      import('../fetch/url-guard.js'),
      import('../fetch/passages.js'),
      import('../fetch/untrusted.js'),
    ]);
    const local = args.path !== undefined ? (await import('../local/source.js')).localTarget(args.path, ctx.env) : undefined;
    if (local && !local.ok) return fail(local.reason);
    const span = spanOf(args.pages, local ? local.key : (args.url as string));
    if ('problem' in span) return fail(span.problem);
    const { url, range } = span;
    // The address policy comes before the store: a refused spelling of a stored URL's host (`127.1`,
    // `user@host`) is refused whatever the store holds.
    if (args.thread !== undefined && !run.threads.some((t) => t.name === args.thread)) {
      return fail(`thread "${args.thread.slice(0, 80)}" is not a thread of this run; pass the name start_thread was given, or leave thread out`);
    }
    const allowHosts = parseAllowHosts(ctx.env.DEEP_RESEARCH_ALLOW_HOSTS);
    const check = local ? { ok: true as const } : checkUrl(url, allowHosts);
    if (!check.ok) return fail(withSkipHint(check.reason));
    const { parseResolve } = await import('../fetch/resolve.js');
    const resolve = parseResolve(ctx.env.DEEP_RESEARCH_RESOLVE, allowHosts);
    if (!resolve.ok) return fail(resolve.reason);
    let baseKey: string;
    try {
      baseKey = canonicalKey(url);
    } catch (err) {
      throw new InputError(`url: ${(err as Error).message}`);
    }
    const key = spanKey(baseKey, range);
    const held = range && alreadyHeld(ctx.store.lookupSource(run.run_id, baseKey), range);
    if (held) return fail(held);

    // `full` refetches only an HTML source not yet stored whole; anything else is answered from the store.
    const settled = (s: StoredSource): boolean => (!args.full || s.full === true || (s.content_type ?? 'html') !== 'html');
    const stored = ctx.store.lookupSource(run.run_id, key);
    if (stored && settled(stored)) return reply({ source: stored, duplicate: true, degraded: run.fetch.degraded });

    await extra.progress('fetching', 0, 2);
    const [{ readPage }, { fullTextUrl }] = await Promise.all([import('../fetch/pipeline.js'), import('../fetch/pdf/detect.js')]);
    const page = local ? await local.read({ full: args.full === true, ...(range ? { pages: range } : {}) }) : await readPage(fullTextUrl(url, baseKey), {
      ...ctx.fetch,
      ...(resolve.lookup ? { lookup: resolve.lookup } : {}),
      allowHosts,
      signal: extra.signal,
      onProgress: (message: string) => void extra.progress(message, 1, 2),
    }, { full: args.full === true, ...(range ? { pages: range } : {}) });

    const read = await ctx.store.lock(run.run_id, (): Read | CallToolResult => {
      const current = ctx.store.loadRun(run.run_id);
      const again = ctx.store.lookupSource(run.run_id, key);
      if (again && settled(again)) return { source: again, duplicate: true, degraded: current.fetch.degraded };
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
        return { source, duplicate: true, degraded: tally.degraded };
      }
      const { source } = ctx.store.addSourceLocked(run.run_id, {
        url: spanKey(url, range),
        canonical_key: key,
        title: range ? spanTitle(ctx.store.lookupSource(run.run_id, baseKey)?.title ?? documentName(url), range, page.outline ?? []) : page.title,
        markdown: page.markdown,
        fetched_at: ctx.now(),
        // The site the text came from: after redirects, and for a doi:/arxiv: key the page that served it.
        origin: originOf(page.finalUrl),
        content_type: page.kind,
        ...(page.pages ? { pages: page.pages.stored, pages_not_read: page.pages.not_read, outline: page.outline ?? [] } : {}),
        ...(page.pages?.from !== undefined ? { page_from: page.pages.from } : {}),
        ...(page.pastCap ? { outline_past_cap: page.pastCap } : {}),
        ...(page.kept !== undefined ? { kept: page.kept, left_out: page.leftOut ?? [] } : {}),
        ...(page.full && page.kind === 'html' ? { full: true } : {}),
      }, tally !== current.fetch ? { ...current, fetch: tally } : undefined);
      return { source, duplicate: false, degraded: tally.degraded };
    });
    return 'content' in read ? read : reply(read);

    async function reply({ source, duplicate, degraded }: Read) {
      const state = ctx.store.loadRun(run.run_id);
      const slug = args.thread === undefined ? undefined : state.threads.find((t) => t.name === args.thread)?.slug;
      const round = slug === undefined ? undefined : (ctx.store.loadThread(run.run_id, slug)?.rounds.length ?? 0);
      const seen = seenBy(state, source.id, args.thread, round);
      const first = seen.first;
      // A reply carries at most REPLY_CHARS in each channel: when it does not fit, the content shrinks by the
      // excess from what it holds (a last page is shorter than max_chars) and says where it continues (SPEC 7).
      const opening = first && args.focus === undefined && args.start_index === undefined && args.max_chars === undefined;
      const focused = args.focus !== undefined && args.start_index === undefined && args.max_chars === undefined;
      let budget = opening ? OPENING_CHARS : focused ? FOCUS_CHARS : (args.max_chars ?? DEFAULT_CHARS);
      let r = await render(source, duplicate, degraded, seen, budget);
      for (let i = 0; i < 6 && replySize(r.result) > REPLY_CHARS && budget > 500; i++) {
        budget = Math.max(500, Math.min(budget, r.contentChars) - (replySize(r.result) - REPLY_CHARS) - 200);
        // A read cut below what it asked for says so (trial 36 asked for 40000, got 21,465 and no word why).
        r = await render(source, duplicate, degraded, seen, budget, true);
      }
      // What a reader was shown only spares a later reply; the source is stored, so a failed note (a full
      // disk) costs at most the outline once more and must not turn a stored page into a refusal.
      // Passages are kept only for a thread (outline-reads.ts): a read without one notes the read alone.
      await recordRead(ctx.store, run.run_id, source.id, args.thread, args.thread === undefined ? [] : r.shown, round).catch(() => undefined);
      return r.result;
    }

    async function render(source: StoredSource, duplicate: boolean, degraded: boolean, seen: Seen, max: number, cut = false) {
      const pdf = source.content_type === 'pdf';
      const first = seen.first;
      let content: string;
      // The text the reply's sections are named from: a page's own, before what was shown is left out.
      let named: string | undefined;
      let next: number | undefined;
      let shown: number[] = [];
      let skipped = 0;
      let skippedAt: number[] = [];
      let more = false;
      if (args.start_index !== undefined || (args.focus === undefined && source.markdown.length > max)) {
        // Without a focus, a page longer than the reply is read in order, from where the next call goes on.
        const from = Math.min(Math.max(0, Math.floor(args.start_index ?? 0)), source.markdown.length);
        const page = pageFrom(source.markdown, from, max);
        next = page.next_start_index;
        const end = next ?? source.markdown.length;
        // What this thread was shown in its current round is still in its context: left out, with a line
        // saying so. From its next round a page shows everything again (SPEC 11.1, reply economy).
        const without = pageWithout(source.markdown, from, end, seen.thisRound);
        named = page.content;
        content = without.content;
        skipped = without.left;
        // What a page shows is not repeated by a later focused read of this reader.
        shown = without.whole;
      } else {
        // Passages this reader was shown before are left out: it has them (SPEC 11.1, reply economy).
        const capped = args.focus !== undefined && args.max_chars === undefined;
        // The opening is kept as context on a first read, but not a whole PDF's: that is its title page and
        // licence (a trial saw it head ten focused replies); a page range opens on the topic it was asked for.
        const lead = first && !(pdf && source.page_from === undefined);
        const picked = selectPassages(source.markdown, args.focus, max, { floor: RELEVANCE_FLOOR, lead, skip: seen.passages, record: true, ...(capped ? { maxUnits: FOCUS_UNITS } : {}) });
        content = picked.content;
        more = capped && picked.more === true;
        shown = picked.shown ?? [];
        skipped = picked.skipped ?? 0;
        skippedAt = picked.skippedAt ?? [];
        // Passages leave a PDF's page markers out (SPEC 4.1); paging keeps them, as offsets count them.
        if (pdf) content = (await import('../fetch/pdf/layout.js')).dropPageMarkers(content);
      }
      // Title, outline and section names are page text like the body (SPEC 7): each fenced. The outline
      // is one block, an entry a line, on the reader's first read only (SPEC 11.1, reply economy).
      const structured: Record<string, unknown> = {
        source_id: source.id,
        canonical_key: source.canonical_key,
        url: source.url,
        title: fence(source.title),
        total_chars: source.markdown.length,
      };
      if (first) {
        // A focused read has its passages: the outline is a map to the rest, so fewer levels of it.
        const entries = outlineDigest(source.outline ?? outlineWithOffsets(source.markdown, Infinity), args.focus === undefined ? OUTLINE_ENTRIES : FOCUSED_OUTLINE_ENTRIES);
        if (entries.length > 0) structured.outline = [fence(entries.join('\n'))];
      } else {
        const names = sectionsShown(source.markdown, named ?? content);
        if (names.length > 0) structured.sections = fence(names.join('\n'));
      }
      // The block is labelled by id alone: the URL is in the reply's url field beside it.
      structured.content = wrapUntrusted(content, source.id);
      if (next !== undefined) structured.next_start_index = next;
      if (skipped > 0) structured.already_shown = skipped;
      if (cut && next !== undefined) structured.more = `Cut to ${content.length} characters to fit one reply (about ${REPLY_CHARS} at most, whatever max_chars asks): go on from next_start_index.`;
      else if (more) structured.more = 'Other passages match this focus: ask again with max_chars (up to 40000) for more of them, a narrower focus, or start_index to read in order.';
      // Nothing new to show is an answer too, not an empty block to puzzle over (trial 22).
      else if (skipped > 0 && shown.length === 0) structured.more = `Every passage matching this focus was shown to this reader before (already_shown), so none is repeated: they start at ${skippedAt.slice(0, 4).map((n) => `@${n}`).join(', ')}${skippedAt.length > 4 ? ', …' : ''}. Read around one with start_index, or ask with another focus.`;
      Object.assign(structured, { duplicate, degraded, content_type: source.content_type ?? 'html', origin: source.origin });
      if (source.mirror_of !== undefined) structured.mirror_of = source.mirror_of;
      if (source.kept !== undefined) {
        structured.kept = source.kept;
        if (first) structured.left_out = (source.left_out ?? []).map(fence);
      }
      if (pdf) structured.pages = pagesOf(source);
      const pastCap = pdf ? morePages(source, { focus: args.focus, first }, fence, (await import('../engine/outline-match.js')).matchEntries) : undefined;
      if (pastCap) structured.more_pages = pastCap;
      return { result: ok(structured), contentChars: content.length, shown };
    }
  },
});

interface Read {
  source: StoredSource;
  duplicate: boolean;
  degraded: boolean;
}

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

/** A document's file name from its url or local path ("refman.pdf"), for a span whose whole was never read. */
function documentName(url: string): string {
  const path = url.replace(/[?#].*$/s, '').replace(/\/+$/, '');
  const name = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(name) || path;
  } catch {
    return name || path; // a malformed escape stays as written
  }
}
