/** Whether the stored text holds the page's visible text, what to widen to, and what is left out. */
import { SHORT_ARTICLE_CHARS } from './article.js';
import { BLOCKS, clean, SKIP_TEXT, words } from './text.js';
import { BODY_NOISE, ELEMENT_NODE, PAGE_CHROME, TEXT_NODE } from './dom.js';
import { parseDocument } from './parse.js';
import type { DomElement, DomNode } from './dom.js';
import { toMarkdown } from './markdown.js';
import { Phrases } from './phrases.js';
import type { Extracted } from './types.js';

/**
 * Below this share of the page's visible sentence words the stored text says what it left out (`kept`,
 * `leftOut`). Visible text: the body without scripts, forms, navigation, header, footer and sidebars
 * (PAGE_CHROME), and without lines made mostly of links (menus, tables of contents).
 */
export const KEPT_THRESHOLD = 0.9;
export const MAX_LEFT_OUT = 20;

/** A line of text between block boundaries, its heading level (0: none), and how much of it is links. */
interface Line {
  text: string;
  heading: number;
  links: number;
  block: DomElement;
  /** Inside a table, definition list, code block or note/caution box: parts Readability drops from docs. */
  docs: boolean;
}

const DOCS_BOX = /(^|[\s_-])(note|caution|warning|tip|important|admonition|hint|seealso|attention|danger)([\s_-]|$)/i;

/** Sentences (≥ 4 words) of lines that are not mostly links, normalised like `words`. */
function sentencesOf(line: Line): string[] {
  if (line.heading > 0 || line.links * 2 > line.text.length) return [];
  const out: string[] = [];
  for (const s of line.text.split(/(?<=[.!?:;])\s+/)) {
    const w = words(s);
    if (w.split(' ').length >= 4) out.push(w);
  }
  return out;
}

/** Lines of `root` in document order, by one recursive walk (the tree's depth is bounded by then). */
function linesOf(root: DomElement): Line[] {
  const lines: Line[] = [];
  let text = '';
  let links = 0;
  let heading = 0;
  let block = root;
  let docs = 0;
  const flush = (): void => {
    const t = text.replace(/\s+/g, ' ').trim();
    if (t) lines.push({ text: t, heading, links, block, docs: docs > 0 });
    text = '';
    links = 0;
  };
  const walk = (node: DomNode, inLink: boolean): void => {
    if (node.nodeType === TEXT_NODE) {
      const v = node.nodeValue ?? '';
      text += v;
      if (inLink) links += v.trim().length;
      return;
    }
    if (node.nodeType !== ELEMENT_NODE || SKIP_TEXT.has(node.nodeName)) return;
    const isBlock = BLOCKS.has(node.nodeName) || node.nodeName === 'DT' || node.nodeName === 'CAPTION';
    const level = /^H([1-6])$/.exec(node.nodeName);
    const outer = heading;
    const outerBlock = block;
    const el = node as DomElement;
    const box = node.nodeName === 'TABLE' || node.nodeName === 'DL' || node.nodeName === 'PRE' || DOCS_BOX.test(el.getAttribute('class') ?? '');
    if (box) docs++;
    if (isBlock) {
      flush();
      block = el;
      if (level) heading = Number(level[1]);
    }
    const link = inLink || node.nodeName === 'A';
    // One list per node: linkedom builds a new one on every read.
    const kids = node.childNodes;
    for (let i = 0; i < kids.length; i++) walk(kids[i] as DomNode, link);
    if (isBlock) {
      flush();
      heading = outer;
      block = outerBlock;
    }
    if (box) docs--;
  };
  walk(root, false);
  flush();
  return lines;
}

/** Word-weighted share of `lines`' sentences found in `hay` (normalised, space-padded). */
function shareFound(lines: Line[], hay: Phrases): number {
  let total = 0;
  let found = 0;
  for (const line of lines) {
    for (const s of sentencesOf(line)) {
      total += s.length;
      if (hay.has(s)) found += s.length;
    }
  }
  return total === 0 ? 1 : found / total;
}

/**
 * Checks the chosen text against the page's visible text (a fresh parse without PAGE_CHROME and
 * BODY_NOISE): takes the element around the article whole when what Readability dropped inside it is
 * documentation (docsContainer), takes the page without its chrome when Readability kept only a short
 * fragment, and then measures what is kept and names the sections left out. Widening on the measure
 * alone (to the element around the article, or the main landmark) was tried: it let captions, teasers
 * and comments of news pages back in (the article benchmark lost F1 on 22 of 121 pages), so what is
 * still missing is said, not guessed.
 */
export function completed(html: string, picked: Extracted, base: URL | undefined, pageHref: string, generatorChrome?: string): Extracted {
  const root = parseDocument(html).body;
  if (!root) return picked;
  for (const el of Array.from(root.querySelectorAll(`${BODY_NOISE}, ${PAGE_CHROME}${generatorChrome ? `, ${generatorChrome}` : ''}`))) el.remove();
  let lines = linesOf(root);
  let result = picked;
  let hay = new Phrases(words(visibleMarkdown(picked.markdown)));
  const container = generatorChrome === undefined ? docsContainer(lines, hay, root) : undefined;
  if (container) {
    const markdown = toMarkdown(container, base, pageHref);
    if (markdown !== undefined) {
      result = { ...picked, markdown, usedFallback: true, method: 'main' };
      hay = new Phrases(words(visibleMarkdown(markdown)));
      // toMarkdown edited the container in place (links, tables): measure the page as it is now.
      lines = linesOf(root);
    }
  }
  let kept = shareFound(lines, hay);
  if (kept < MIN_KEPT && hay.length < SHORT_ARTICLE_CHARS && result.method === 'readability') {
    // Readability kept a fragment (a manual page's NAME line, a footer): the page without its chrome
    // says more than the fragment does. Only for Readability's own pick (a structural rule's container
    // is the main text already) and a short one: on news pages whose comments
    // outweigh the article, the body would let them in (5 of 121 article benchmark pages).
    const markdown = toMarkdown(root, base, pageHref);
    if (markdown !== undefined) {
      result = { ...picked, markdown, usedFallback: true, method: 'body' };
      hay = new Phrases(words(visibleMarkdown(markdown)));
      lines = linesOf(root);
      kept = shareFound(lines, hay);
    }
  }
  if (kept >= KEPT_THRESHOLD) return result;
  return { ...result, kept: Math.floor(kept * 100) / 100, leftOut: leftOutHeadings(lines, hay) };
}

/** Below this share the article is a fragment of the page, and the page without its chrome is taken. */
const MIN_KEPT = 0.5;

/**
 * The element that holds the article (the lowest one holding its first and last line), to be taken whole
 * when what Readability dropped inside it is documentation: tables, definition lists, code blocks, note
 * and caution boxes (PostgreSQL's functions pages lose their notes and tables). On news pages what the
 * element adds is captions, teasers and bylines; taking it whole on any loss cost the article benchmark
 * F1 on 22 of 121 pages, so it is taken only when most of the missing words are in such parts.
 */
function docsContainer(lines: Line[], hay: Phrases, root: DomElement): DomElement | undefined {
  let first = -1;
  let last = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as Line;
    const w = words(line.text);
    if (line.heading === 0 && w.length >= 8 && hay.has(w)) {
      if (first === -1) first = i;
      last = i;
    }
  }
  if (first === -1) return undefined;
  const chain = new Set<DomNode>();
  for (let p: DomNode | null = (lines[first] as Line).block; p; p = p.parentNode) chain.add(p);
  let container: DomElement | undefined;
  for (let p: DomNode | null = (lines[last] as Line).block; p; p = p.parentNode) {
    if (chain.has(p)) {
      container = p as DomElement;
      break;
    }
  }
  // An article without a heading of its own (a table, a list) stands for the section that holds it.
  while (container && container !== root && !container.querySelector('h1, h2, h3, h4, h5, h6')) container = container.parentNode as DomElement;
  if (!container || container === root) return undefined;
  let missing = 0;
  let missingDocs = 0;
  let total = 0;
  for (const line of lines) {
    if (!contains(container, line.block)) continue;
    const w = words(line.text);
    total += w.length;
    if (w.length === 0 || hay.has(w) || line.links * 2 > line.text.length) continue;
    missing += w.length;
    if (line.docs) missingDocs += w.length;
  }
  return missing > (1 - KEPT_THRESHOLD) * total && missingDocs * 2 > missing ? container : undefined;
}

function contains(outer: DomNode, inner: DomNode): boolean {
  for (let p: DomNode | null = inner; p; p = p.parentNode) if (p === outer) return true;
  return false;
}

/** Headings whose section (up to the next heading) has sentences and keeps under half of them. */
function leftOutHeadings(lines: Line[], hay: Phrases): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length && out.length < MAX_LEFT_OUT; i++) {
    const h = lines[i] as Line;
    if (h.heading === 0) continue;
    let j = i + 1;
    while (j < lines.length && (lines[j] as Line).heading === 0) j++;
    const section = lines.slice(i + 1, j);
    if (section.some((l) => sentencesOf(l).length > 0) && shareFound(section, hay) < 0.5) out.push(clean(h.text).slice(0, 200));
  }
  return out;
}

/** Markdown as a reader sees it: link and image targets dropped. */
function visibleMarkdown(md: string): string {
  return md.replace(/\]\([^)\s]{0,4096}(?:\s+"[^"\n]{0,500}")?\)/g, ']');
}
