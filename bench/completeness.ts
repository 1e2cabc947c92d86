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
// footer, aside, script or form element), inside `role="main"` when the page has one. Its body sentences
// are the sentences of that text (split at . ! ? before a capital, and at block boundaries) with at least
// four words. A sentence is found when its words, in order, appear in the stored text's words. A page is
// refused when the pipeline would not store it (under 200 readable characters).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseHTML } from 'linkedom';
import { Readability } from '@mozilla/readability';
import { extractReadable } from '../src/fetch/extract.js';
import { MIN_READABLE_CHARS, readableLength } from '../src/fetch/pipeline.js';
import { sanitizeText } from '../src/fetch/untrusted.js';
import type { Section } from './report.js';
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

const SKIP_FILE = /^(genindex.*|search|py-modindex|modindex|index|contents|bookindex|sitemap)\.html$/;
const SKIP_DIR = /^(_static|_sources|_modules|_images|_downloads|_sphinx_design_static)$/;

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
  'script, style, noscript, template, nav, header, footer, aside, form, [role="navigation"], [role="search"], .sphinxsidebar, .related, div.footer, #footer, .headerlink, .navheader, .navfooter, #searchbox';

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

export const EXTRACTORS: Extractor[] = [
  { name: 'ours: extractReadable', run: (p) => extractReadable(p.html, 'text/html', p.url).markdown },
  { name: 'before issue 16: extractReadable without the completeness check', run: (p) => extractReadable(p.html, 'text/html', p.url, { complete: false }).markdown },
  { name: 'Readability 0.6 alone (textContent)', run: plainReadability },
];

interface Tally {
  shares: number[];
  refused: number;
  ms: number[];
  under60: string[];
}

export async function completeness(): Promise<Section> {
  const section: Section = { name: 'completeness', title: 'Completeness on documentation pages', rows: [], notes: [] };
  const dirs = corpusDirs();
  const { pages, missing } = loadCorpus(dirs);
  if (pages.length === 0) {
    section.rows.push({ figure: 'docs: pages under 60% / under 90% of body sentences', ours: 'not measured', met: null, because: `no documentation pages under ${dirs.join(', ')} (set DEEP_RESEARCH_DOCS_CORPUS)` });
    return section;
  }
  const truths = pages.map((p) => bodySentences(truthText(p.html)));
  const tallies = EXTRACTORS.map((): Tally => ({ shares: [], refused: 0, ms: [], under60: [] }));
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
      if (refused && sentences.length >= 5) t.refused++;
      const share = refused ? 0 : foundShare(sentences, out);
      t.shares.push(share);
      if (share < 0.6) t.under60.push(page.rel);
    }
  }
  const lines = ['| extractor | pages | under 60% | under 90% | median share | refused (≥ 5 sentences) | ms per page |', '|---|---|---|---|---|---|---|'];
  for (const [j, ex] of EXTRACTORS.entries()) {
    const t = tallies[j] as Tally;
    const u90 = t.shares.filter((s) => s < 0.9).length;
    lines.push(`| ${ex.name} | ${pages.length} | ${t.under60.length} | ${u90} | ${median(t.shares).toFixed(3)} | ${t.refused} | ${median(t.ms).toFixed(1)} |`);
  }
  section.notes.push(...lines);
  for (const [j, ex] of EXTRACTORS.entries()) {
    const t = tallies[j] as Tally;
    section.notes.push('', `${ex.name}, pages under 60%: ${t.under60.slice(0, 40).join(', ') || 'none'}${t.under60.length > 40 ? ', …' : ''}`);
  }
  if (missing.length > 0) section.notes.push('', `Not measured (directory missing): ${missing.join(', ')}.`);
  return section;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const s = await completeness();
  process.stdout.write(`${s.notes.join('\n')}\n`);
}
