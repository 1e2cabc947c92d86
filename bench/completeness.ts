// Completeness on documentation pages: what share of a page's body sentences the stored text holds.
//
// Corpus: the HTML pages of Debian documentation packages installed on this machine (reference pages,
// API pages, tutorials, release notes), found under DOCS_DIRS below, or under the directories listed in
// DEEP_RESEARCH_DOCS_CORPUS (separated by ':'). Generated pages (indexes, search, module lists, source
// listings) are left out. A directory that is missing is named in the notes and not measured. From each
// directory at most DEEP_RESEARCH_DOCS_SAMPLE pages (default 80) are taken, evenly spaced in name order,
// so that the section runs in minutes on a shared machine; 0 takes every page.
//
//   npx tsx bench/run.ts completeness     this section only (prints, writes nothing)
//
// Truth: a page's main text is its body without the chrome its generator adds (Sphinx's related bar,
// sidebar and footer, asciidoc's footer, DocBook's navigation header and footer, and any nav, header,
// footer, aside, script or form element, and generated tables of contents), inside `role="main"` when the
// page has one. Its body sentences
// are the sentences of that text (split at . ! ? before a capital, and at block boundaries) with at least
// four words. A sentence is found when its words, in order, appear in the stored text's words. A page is
// refused when the pipeline would not store it (under 200 readable characters). Pages with fewer than
// STUB_SENTENCES body sentences are stubs ("moved to" notices, aliases, a chapter's title page): counted
// apart, not in the shares, because the pipeline may refuse them as too short to cite (the goal allows
// it) and a share of one or two sentences is 0 or 1 by chance; the notes list them and the figures with them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { parseHTML } from 'linkedom';
import { Readability } from '@mozilla/readability';
import { extractReadable } from '../src/fetch/extract.js';
import { DEFAULT_EXTRACT_TIMEOUT_MS } from '../src/fetch/extract/off-thread.js';
import { MIN_READABLE_CHARS, readableLength } from '../src/fetch/pipeline.js';
import { sanitizeText } from '../src/fetch/untrusted.js';
import type { Row, Section } from './report.js';
import { median, visibleText } from './score.js';

export const DOCS_DIRS = [
  '/usr/share/doc/python3.11/html',
  '/usr/share/doc/git-doc',
  '/usr/share/doc/debian-policy',
  '/usr/share/doc/postgresql-doc-15/html',
  '/usr/share/doc/python-requests-doc/html',
  '/usr/share/doc/python-aiohttp-doc/html',
  '/usr/share/doc/python-git-doc/html',
];

export const GOALS = { under60: 0.01, under90: 0.05 } as const;
export const STUB_SENTENCES = 5;

/**
 * Long pages, added to every run: PostgreSQL's SQL keywords appendix (the test fixture; extraction once
 * took about ten minutes on its 836-row table) and a generated page of one 1,000-row table.
 */
export function longPages(): DocPage[] {
  const fixture = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../test/fixtures/docs/postgresql-sql-keywords-appendix.html.gz');
  const pages: DocPage[] = [];
  if (fs.existsSync(fixture)) {
    pages.push({ rel: 'long/postgresql-sql-keywords-appendix.html', html: zlib.gunzipSync(fs.readFileSync(fixture)).toString('utf8'), url: 'https://docs.example/long/sql-keywords-appendix.html' });
  }
  const rows: string[] = [];
  for (let i = 0; i < 1000; i++) rows.push(`<tr><td><code>KEYWORD_${i}</code></td><td>non-reserved</td><td>reserved</td><td>Row ${i} of the table says what the key word does here.</td></tr>`);
  pages.push({
    rel: 'long/generated-1000-rows.html',
    html: `<!DOCTYPE html><html><head><title>Key words</title></head><body><main><h1>Key words</h1><p>This table lists every key word of the language and whether each standard reserves it.</p><table><thead><tr><th>Key word</th><th>Here</th><th>Standard</th><th>Note</th></tr></thead><tbody>${rows.join('')}</tbody></table></main></body></html>`,
    url: 'https://docs.example/long/generated-1000-rows.html',
  });
  return pages;
}

/** Sphinx manuals, also measured served without their generator line, as a re-templated site serves them. */
export const SPHINX_DIRS = ['/usr/share/doc/python-requests-doc/html', '/usr/share/doc/python-aiohttp-doc/html', '/usr/share/doc/python-git-doc/html', '/usr/share/doc/python3.11/html'];

export function withoutGenerator(page: DocPage): DocPage {
  return { ...page, rel: `no-generator/${page.rel}`, html: page.html.replace(/<meta\s+name=["']?generator["']?[^>]*>/gi, '') };
}

/** `<pre>` blocks in the page's main text, and how many of them the stored text holds as fenced code. */
export function codeBlocks(html: string, stored: string): { pre: number; fenced: number } {
  const { document } = parseHTML(html) as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ textContent: string | null; remove(): void }>; querySelector(s: string): { querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> } | null; body: { querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> } } };
  for (const el of Array.from(document.querySelectorAll(CHROME))) el.remove();
  const root = document.querySelector('[role="main"]') ?? document.body;
  const fences: string[] = [];
  const re = /^[ \t]*(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n[ \t]*\1[ \t]*$/gm;
  // Any indent and quote depth: a block inside a list item or a note is indented or quoted with it.
  const plain = stored.replace(/^(?:[ \t]*>)+ ?/gm, '');
  for (let m = re.exec(plain); m; m = re.exec(plain)) fences.push(norm(m[2] ?? ''));
  const inFences = ` ${fences.join(' ')} `;
  let pre = 0;
  let fenced = 0;
  for (const el of Array.from(root.querySelectorAll('pre'))) {
    const text = norm(el.textContent ?? '');
    if (text === '') continue;
    pre++;
    if (inFences.includes(` ${text} `)) fenced++;
  }
  return { pre, fenced };
}

const SKIP_FILE = /^(genindex.*|search|py-modindex|modindex|index|contents|bookindex|sitemap)\.html$/;
const SKIP_DIR = /^(_static|_sources|_modules|_images|_downloads|_snippets|_sphinx_design_static)$/;

export interface DocPage {
  rel: string;
  html: string;
  url: string;
}

export function corpusDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  const fromEnv = env.DEEP_RESEARCH_DOCS_CORPUS?.trim();
  return fromEnv ? fromEnv.split(':').filter((d) => d !== '') : DOCS_DIRS;
}

export function loadCorpus(dirs: string[], sample = Number(process.env.DEEP_RESEARCH_DOCS_SAMPLE ?? 80)): { pages: DocPage[]; missing: string[] } {
  const pages: DocPage[] = [];
  const missing: string[] = [];
  for (const dir of dirs) {
    if (!fs.existsSync(dir)) {
      missing.push(dir);
      continue;
    }
    const found: DocPage[] = [];
    const walk = (d: string): void => {
      for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) {
          if (!SKIP_DIR.test(e.name)) walk(p);
        } else if (e.isFile() && e.name.endsWith('.html') && !SKIP_FILE.test(e.name)) {
          const rel = `${path.basename(dir === '/usr/share/doc/git-doc' ? dir : path.dirname(dir))}/${path.relative(dir, p)}`;
          found.push({ rel, html: fs.readFileSync(p, 'utf8'), url: `https://docs.example/${rel}` });
        }
      }
    };
    walk(dir);
    const step = sample > 0 && found.length > sample ? found.length / sample : 1;
    for (let i = 0; i < found.length; i += step) pages.push(found[Math.floor(i)] as DocPage);
  }
  return { pages, missing };
}

const CHROME =
  'script, style, noscript, template, nav, header, footer, aside, form, [role="navigation"], [role="search"], .sphinxsidebar, .related, div.footer, #footer, .headerlink, .navheader, .navfooter, #searchbox, div.toc, .toctree-wrapper, div.contents.topic';

const BLOCK = /^(ADDRESS|ARTICLE|ASIDE|BLOCKQUOTE|BR|CAPTION|DD|DIV|DL|DT|FIELDSET|FIGCAPTION|FIGURE|H[1-6]|HR|LI|MAIN|OL|P|PRE|SECTION|TABLE|TD|TH|TR|UL)$/;

interface Node {
  nodeType: number;
  nodeName: string;
  nodeValue: string | null;
  childNodes: ArrayLike<Node>;
}

/** The main text of a documentation page, one block per line. */
export function truthText(html: string): string {
  const { document } = parseHTML(html) as unknown as { document: { body: unknown; querySelectorAll(s: string): ArrayLike<{ remove(): void }>; querySelector(s: string): unknown } };
  for (const el of Array.from(document.querySelectorAll(CHROME))) el.remove();
  const root = (document.querySelector('[role="main"]') ?? document.body) as Node | null;
  if (!root) return '';
  const out: string[] = [];
  const walk = (n: Node): void => {
    if (n.nodeType === 3) {
      out.push((n.nodeValue ?? '').replace(/\s+/g, ' '));
      return;
    }
    if (n.nodeType !== 1) return;
    const block = BLOCK.test(n.nodeName);
    if (block) out.push('\n');
    for (let i = 0; i < n.childNodes.length; i++) walk(n.childNodes[i] as Node);
    if (block) out.push('\n');
  };
  walk(root);
  return out.join('');
}

const norm = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/** Sentences of at least four words, normalised to lower-case words joined by one space. */
export function bodySentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    for (const s of line.split(/(?<=[.!?])\s+(?=[A-Z(])/)) {
      const n = norm(s);
      if (n.split(' ').length >= 4) out.push(n);
    }
  }
  return out;
}

export function foundShare(sentences: string[], stored: string): number {
  if (sentences.length === 0) return 1;
  const hay = ` ${norm(visibleText(stored))} `;
  let found = 0;
  for (const s of sentences) if (hay.includes(` ${s} `)) found++;
  return found / sentences.length;
}

export interface Extractor {
  name: string;
  run(page: DocPage): string;
}

function plainReadability(page: DocPage): string {
  const { document } = parseHTML(page.html);
  const article = new Readability(document as never).parse();
  return article?.textContent ?? '';
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

export const EXTRACTORS: Extractor[] = [
  { name: 'ours: extractReadable', run: (p) => extractReadable(p.html, 'text/html', p.url).markdown },
  { name: 'before: extractReadable {complete: false}', run: (p) => extractReadable(p.html, 'text/html', p.url, { complete: false }).markdown },
  { name: 'Readability 0.6 alone (textContent)', run: plainReadability },
  // Order matters: ours, before, other (the rows above read them so).
];

interface Tally {
  shares: number[];
  refused: number;
  ms: number[];
  under60: string[];
  under90: string[];
  /** Stubs (fewer than STUB_SENTENCES body sentences): their shares, and how many were refused. */
  stubShares: number[];
  stubsRefused: number;
  /** The slowest page and its time. */
  slowest: { rel: string; ms: number };
  /** `<pre>` blocks of the scored pages' main text, and those stored as fenced code. */
  pre: number;
  fenced: number;
}

/** Each extractor over each page: shares of body sentences kept, refusals, time. */
function score(pages: DocPage[], extractors: Extractor[]): { tallies: Tally[]; stubs: string[] } {
  const truths = pages.map((p) => bodySentences(truthText(p.html)));
  const tallies = extractors.map((): Tally => ({ shares: [], refused: 0, ms: [], under60: [], under90: [], stubShares: [], stubsRefused: 0, slowest: { rel: '', ms: 0 }, pre: 0, fenced: 0 }));
  const stubs = pages.filter((_, i) => (truths[i] as string[]).length < STUB_SENTENCES).map((p) => p.rel);
  for (const [i, page] of pages.entries()) {
    const sentences = truths[i] as string[];
    for (const [j, ex] of extractors.entries()) {
      const t = tallies[j] as Tally;
      const t0 = performance.now();
      let out = '';
      try {
        out = ex.run(page);
      } catch {
        out = '';
      }
      const ms = performance.now() - t0;
      t.ms.push(ms);
      if (ms > t.slowest.ms) t.slowest = { rel: page.rel, ms };
      const refused = readableLength(sanitizeText(out)) < MIN_READABLE_CHARS;
      const share = refused ? 0 : foundShare(sentences, out);
      if (sentences.length < STUB_SENTENCES) {
        t.stubShares.push(share);
        if (refused) t.stubsRefused++;
        continue;
      }
      if (refused) t.refused++;
      t.shares.push(share);
      if (share < 0.6) t.under60.push(page.rel);
      if (share < 0.9) t.under90.push(page.rel);
      const code = codeBlocks(page.html, out);
      t.pre += code.pre;
      t.fenced += code.fenced;
    }
  }
  return { tallies, stubs };
}

const goal = (figure: string, value: number, max: number, fmt: (x: number) => string, reference: string): Row => {
  const row: Row = { figure, ours: fmt(value), reference, goal: `goal ≤ ${fmt(max)}`, met: value <= max };
  if (value > max) row.because = `${fmt(value)} > ${fmt(max)}`;
  return row;
};

/** The slowest page must finish inside the extraction thread's limit (past it a page is stored as stripped text). */
export const SLOWEST_PAGE_MS = DEFAULT_EXTRACT_TIMEOUT_MS;

export async function completeness(): Promise<Section> {
  const section: Section = { name: 'completeness', title: 'Completeness on documentation pages', rows: [], notes: [] };
  const dirs = corpusDirs();
  const { pages: found, missing } = loadCorpus(dirs);
  if (found.length === 0) {
    section.rows.push({ figure: 'docs: pages keeping under 60% / 90% of body sentences', ours: 'not measured', met: null, because: `no documentation pages under ${dirs.join(', ')} (set DEEP_RESEARCH_DOCS_CORPUS)` });
    return section;
  }
  const long = longPages();
  const pages = [...found, ...long];
  const { tallies, stubs } = score(pages, EXTRACTORS);
  const stats = tallies.map((t) => ({
    under60: t.under60.length,
    under90: t.under90.length,
    median: median(t.shares),
    refused: t.refused,
    ms: median(t.ms),
  }));
  const n = pages.length - stubs.length;
  const lines = ['| extractor | pages | under 60% | under 90% | median share | refused (≥ 5 sentences) | ms per page (median) | slowest page (ms) |', '|---|---|---|---|---|---|---|---|'];
  for (const [j, ex] of EXTRACTORS.entries()) {
    const st = stats[j] as (typeof stats)[number];
    const t = tallies[j] as Tally;
    lines.push(`| ${ex.name} | ${n} | ${st.under60} (${pct(st.under60 / n)}) | ${st.under90} (${pct(st.under90 / n)}) | ${st.median.toFixed(3)} | ${st.refused} | ${st.ms.toFixed(1)} | ${t.slowest.ms.toFixed(0)} (${t.slowest.rel}) |`);
  }
  const [ours, before, other] = stats as [(typeof stats)[number], (typeof stats)[number], (typeof stats)[number]];
  const oursTally = tallies[0] as Tally;
  section.rows.push(
    goal(`docs: pages keeping under 60% of body sentences (${n} pages)`, ours.under60 / n, GOALS.under60, pct, `before ${pct(before.under60 / n)}, Readability ${pct(other.under60 / n)}`),
    goal('docs: pages keeping under 90% of body sentences', ours.under90 / n, GOALS.under90, pct, `before ${pct(before.under90 / n)}, Readability ${pct(other.under90 / n)}`),
    { figure: 'docs: median share of body sentences kept', ours: ours.median.toFixed(3), reference: `before ${before.median.toFixed(3)}, Readability ${other.median.toFixed(3)}`, goal: '—' },
    goal('docs: pages with ≥ 5 body sentences refused', ours.refused, 0, String, `before ${before.refused}, Readability ${other.refused}`),
    {
      figure: 'docs: under-90% pages, ours vs Readability alone',
      ours: String(ours.under90),
      reference: `Readability ${other.under90}`,
      goal: 'goal: fewer',
      met: ours.under90 < other.under90,
      ...(ours.under90 < other.under90 ? {} : { because: `${ours.under90} ≥ ${other.under90}` }),
    },
    goal('docs: extraction ms per page, ours ÷ before (same run)', ours.ms / Math.max(before.ms, 1e-9), 2, (x) => `${x.toFixed(2)}×`, `${ours.ms.toFixed(1)} ms vs ${before.ms.toFixed(1)} ms`),
    goal(`docs: slowest page's extraction, ms (${oursTally.slowest.rel})`, oursTally.slowest.ms, SLOWEST_PAGE_MS, (x) => x.toFixed(0), `median ${ours.ms.toFixed(1)} ms; ${long.length} long pages in the corpus`),
  );
  section.notes.push(
    `Corpus: ${pages.length} pages (${n} scored, ${stubs.length} stubs) of ${dirs.length - missing.length} documentation packages (${dirs.filter((d) => !missing.includes(d)).join(', ')}), at most ${process.env.DEEP_RESEARCH_DOCS_SAMPLE ?? 80} per package, evenly spaced; indexes, search and module-list pages left out; and ${long.length} long pages (${long.map((p) => p.rel).join(', ')}). Override with DEEP_RESEARCH_DOCS_CORPUS (directories, ':'-separated) and DEEP_RESEARCH_DOCS_SAMPLE (0: every page).`,
    'Truth: the page without its generator\'s navigation (Sphinx related bar, sidebar and footer; asciidoc footer; DocBook navigation header and footer; generated tables of contents: DocBook div.toc, Sphinx toctree and contents boxes; nav, header, footer, aside, form), inside role="main" when present. Body sentences: ≥ 4 words, split at . ! ? and block boundaries; found when their words appear in order in the stored text (link targets dropped). Refused: under 200 readable characters, as fetch_source would refuse it.',
    '"before": extractReadable with the completeness work switched off (`{complete: false}`: Readability\'s pick and the earlier widening rules); "Readability": Mozilla Readability 0.6 alone, its textContent. Time: one in-process run per page, wall-clock, median; the slowest page is the single longest extraction of the run.',
    '',
    ...lines,
    '',
    `Stubs (fewer than ${STUB_SENTENCES} body sentences; not in the figures above): ${stubs.join(', ') || 'none'}.`,
    ...EXTRACTORS.map((ex, j) => {
      const t = tallies[j] as Tally;
      const all = [...t.shares, ...t.stubShares];
      return `${ex.name} with the stubs counted (${all.length} pages): under 60% ${pct(all.filter((x) => x < 0.6).length / all.length)}, under 90% ${pct(all.filter((x) => x < 0.9).length / all.length)}; stubs refused ${t.stubsRefused} of ${stubs.length}.`;
    }),
  );
  for (const [j, ex] of EXTRACTORS.entries()) {
    const t = tallies[j] as Tally;
    section.notes.push('', `${ex.name}, pages under 60%: ${t.under60.slice(0, 30).join(', ') || 'none'}${t.under60.length > 30 ? ', …' : ''}`);
  }
  if (missing.length > 0) section.notes.push('', `Not measured (directory missing; install the package, e.g. apt-get install postgresql-doc-15): ${missing.join(', ')}.`);
  noGenerator(section);
  return section;
}

/** Sphinx manuals served without their `<meta name="generator">` line: their own rows. */
function noGenerator(section: Section): void {
  const dirs = SPHINX_DIRS.filter((d) => fs.existsSync(d));
  const { pages: found } = loadCorpus(dirs);
  if (found.length === 0) {
    section.rows.push({ figure: 'docs without a generator line: pages under 90%', ours: 'not measured', met: null, because: `no Sphinx manuals under ${SPHINX_DIRS.join(', ')} (apt-get install python-requests-doc python-aiohttp-doc python-git-doc python3-doc)` });
    return;
  }
  const pages = found.map(withoutGenerator);
  const extractors = EXTRACTORS.slice(0, 2);
  const { tallies, stubs } = score(pages, extractors);
  const [ours, before] = tallies as [Tally, Tally];
  const n = pages.length - stubs.length;
  section.rows.push(
    goal(`docs without a generator line: pages under 90% of body sentences (${n} pages)`, ours.under90.length / n, GOALS.under90, pct, `before ${pct(before.under90.length / n)}`),
    goal('docs without a generator line: pages under 60%', ours.under60.length / n, GOALS.under60, pct, `before ${pct(before.under60.length / n)}`),
    {
      figure: 'docs without a generator line: <pre> blocks stored as fenced code',
      ours: `${ours.fenced} of ${ours.pre} (${pct(ours.fenced / Math.max(ours.pre, 1))})`,
      reference: `before ${before.fenced} of ${before.pre}`,
      goal: 'goal: all',
      met: ours.fenced === ours.pre,
      ...(ours.fenced === ours.pre ? {} : { because: `${ours.pre - ours.fenced} not fenced` }),
    },
  );
  section.notes.push(
    '',
    `Without a generator line: ${pages.length} pages (${n} scored, ${stubs.length} stubs) of ${dirs.join(', ')}, the same sample rule, each served with its \`<meta name="generator">\` removed, as a site that re-templates the manual serves it. Truth as above. A <pre> block counts as fenced when its text, normalised, lies inside a fenced block of the stored text.`,
    `ours, under 90%: ${ours.under90.slice(0, 30).join(', ') || 'none'}${ours.under90.length > 30 ? ', …' : ''}`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const s = await completeness();
  process.stdout.write(`${s.notes.join('\n')}\n`);
}
