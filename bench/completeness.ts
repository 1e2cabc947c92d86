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
import { parseHTML } from 'linkedom';
import { Readability } from '@mozilla/readability';
import { extractReadable } from '../src/fetch/extract.js';
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
  /** Stubs (fewer than STUB_SENTENCES body sentences): their shares, and how many were refused. */
  stubShares: number[];
  stubsRefused: number;
}

export async function completeness(): Promise<Section> {
  const section: Section = { name: 'completeness', title: 'Completeness on documentation pages', rows: [], notes: [] };
  const dirs = corpusDirs();
  const { pages, missing } = loadCorpus(dirs);
  if (pages.length === 0) {
    section.rows.push({ figure: 'docs: pages keeping under 60% / 90% of body sentences', ours: 'not measured', met: null, because: `no documentation pages under ${dirs.join(', ')} (set DEEP_RESEARCH_DOCS_CORPUS)` });
    return section;
  }
  const truths = pages.map((p) => bodySentences(truthText(p.html)));
  const tallies = EXTRACTORS.map((): Tally => ({ shares: [], refused: 0, ms: [], under60: [], stubShares: [], stubsRefused: 0 }));
  const stubs = pages.filter((_, i) => (truths[i] as string[]).length < STUB_SENTENCES).map((p) => p.rel);
  for (const [i, page] of pages.entries()) {
    const sentences = truths[i] as string[];
    for (const [j, ex] of EXTRACTORS.entries()) {
      const t = tallies[j] as Tally;
      const t0 = performance.now();
      let out = '';
      try {
        out = ex.run(page);
      } catch {
        out = '';
      }
      t.ms.push(performance.now() - t0);
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
    }
  }
  const stats = tallies.map((t) => ({
    under60: t.under60.length,
    under90: t.shares.filter((x) => x < 0.9).length,
    median: median(t.shares),
    refused: t.refused,
    ms: median(t.ms),
  }));
  const n = pages.length - stubs.length;
  const lines = ['| extractor | pages | under 60% | under 90% | median share | refused (≥ 5 sentences) | ms per page (median) |', '|---|---|---|---|---|---|---|'];
  for (const [j, ex] of EXTRACTORS.entries()) {
    const st = stats[j] as (typeof stats)[number];
    lines.push(`| ${ex.name} | ${n} | ${st.under60} (${pct(st.under60 / n)}) | ${st.under90} (${pct(st.under90 / n)}) | ${st.median.toFixed(3)} | ${st.refused} | ${st.ms.toFixed(1)} |`);
  }
  const [ours, before, other] = stats as [(typeof stats)[number], (typeof stats)[number], (typeof stats)[number]];
  const goal = (figure: string, value: number, max: number, fmt: (x: number) => string, reference: string): Row => {
    const row: Row = { figure, ours: fmt(value), reference, goal: `goal ≤ ${fmt(max)}`, met: value <= max };
    if (value > max) row.because = `${fmt(value)} > ${fmt(max)}`;
    return row;
  };
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
  );
  section.notes.push(
    `Corpus: ${pages.length} pages (${n} scored, ${stubs.length} stubs) of ${dirs.length - missing.length} documentation packages (${dirs.filter((d) => !missing.includes(d)).join(', ')}), at most ${process.env.DEEP_RESEARCH_DOCS_SAMPLE ?? 80} per package, evenly spaced; indexes, search and module-list pages left out. Override with DEEP_RESEARCH_DOCS_CORPUS (directories, ':'-separated) and DEEP_RESEARCH_DOCS_SAMPLE (0: every page).`,
    'Truth: the page without its generator\'s navigation (Sphinx related bar, sidebar and footer; asciidoc footer; DocBook navigation header and footer; generated tables of contents: DocBook div.toc, Sphinx toctree and contents boxes; nav, header, footer, aside, form), inside role="main" when present. Body sentences: ≥ 4 words, split at . ! ? and block boundaries; found when their words appear in order in the stored text (link targets dropped). Refused: under 200 readable characters, as fetch_source would refuse it.',
    '"before": extractReadable with the completeness work switched off (`{complete: false}`: Readability\'s pick and the earlier widening rules); "Readability": Mozilla Readability 0.6 alone, its textContent. Time: one in-process run per page, wall-clock, median.',
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
  return section;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const s = await completeness();
  process.stdout.write(`${s.notes.join('\n')}\n`);
}
