/**
 * Readable content of a fetched page as markdown: linkedom DOM → Mozilla Readability → turndown + GFM.
 *
 * Never throws. Hostile or odd input degrades instead, and `method` says how:
 * - 'readability': Readability found the article;
 * - 'main': a larger container was taken instead: a documentation generator's text root (see
 *   generatedDocument), a container of sections, or the element around Readability's article;
 * - 'body': Readability found none (or failed), so the whole body, minus scripts, forms and navigation,
 *   went through turndown;
 * - 'text': the DOM is too deep or too large for Readability/turndown (both recurse or go quadratic on
 *   depth: Readability takes seconds at ~1,000 nested divs, turndown overflows the stack near 2,000), or
 *   turndown threw; the text is taken with an iterative walk, block elements as paragraphs;
 * - 'passthrough': text/plain and markdown, returned as sent.
 */
import { parseHTML } from 'linkedom';
import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';
import { gfm } from '@joplin/turndown-plugin-gfm';
import { stripClosingHashes } from './passages.js';
import { Phrases } from './extract/phrases.js';

export interface Extracted {
  title: string;
  markdown: string;
  /** True unless Readability's article (or a text/markdown passthrough) was used. */
  usedFallback: boolean;
  method: 'readability' | 'main' | 'body' | 'text' | 'passthrough';
  /**
   * Set when the markdown holds noticeably less than the page's visible text (see KEPT_THRESHOLD): the
   * share of the visible text's sentence words it holds (0–1, two decimals), and the headings of the
   * sections it left out (page text, at most MAX_LEFT_OUT, each at most 200 characters).
   */
  kept?: number;
  leftOut?: string[];
}

/** Deeper trees skip Readability and turndown; real pages in both benchmark corpora stay under 60. */
export const MAX_DOM_DEPTH = 200;
/**
 * Sources with more markup characters ('<' and '&') than this are not parsed at all: linkedom spends a few
 * hundred bytes per node, and a 5 MiB page of stray '<' or entities becomes millions of text nodes. The
 * busiest benchmark page has ~20,000.
 */
export const MAX_MARKUP_CHARS = 150_000;

/**
 * Trees with more nodes (elements, text, comments) skip Readability and turndown. The largest benchmark
 * page has ~25,000; a hostile page of stray '<' or entities gets one text node per character, and
 * Readability re-parses the body on each retry, at ~45 µs a node.
 */
export const MAX_DOM_NODES = 80_000;

// The DOM lib is not in this project's tsconfig (the server never runs in a browser); these are the few
// members of linkedom's DOM that this file touches.
interface DomNode {
  nodeType: number;
  nodeName: string;
  nodeValue: string | null;
  textContent: string | null;
  parentNode: DomNode | null;
  childNodes: ArrayLike<DomNode>;
}
interface DomElement extends DomNode {
  children: ArrayLike<DomElement>;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  remove(): void;
  replaceWith(...nodes: DomNode[]): void;
  append(...nodes: DomNode[]): void;
}
interface DomDocument {
  documentElement: DomElement | null;
  body: DomElement | null;
  createElement(tag: string): DomElement;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
}

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

/** Guards against hostile trees; raising them is for tests that need to reach the recursion itself. */
export interface ExtractLimits {
  maxDepth?: number;
  maxNodes?: number;
  /** false: Readability's pick as before this check existed (the bench's "before" figures). */
  complete?: boolean;
}

export function extractReadable(body: string, contentType: string, url: string, limits: ExtractLimits = {}): Extracted {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== 'text/html' && type !== 'application/xhtml+xml') {
    const markdown = tidy(body);
    return { title: firstMarkdownHeading(markdown) ?? url, markdown, usedFallback: false, method: 'passthrough' };
  }
  if (markupChars(body) > MAX_MARKUP_CHARS) return { title: url, markdown: stripTags(body), usedFallback: true, method: 'text' };
  try {
    return extractHtml(body, url, limits.maxDepth ?? MAX_DOM_DEPTH, limits.maxNodes ?? MAX_DOM_NODES, limits.complete ?? true);
  } catch {
    // Last resort for anything the DOM stack chokes on.
    return { title: url, markdown: stripTags(body), usedFallback: true, method: 'text' };
  }
}

function markupChars(html: string): number {
  let n = 0;
  for (let i = 0; i < html.length; i++) {
    const c = html.charCodeAt(i);
    if (c === 0x3c || c === 0x26) n++;
  }
  return n;
}

const RAW_TEXT = /^<(script|style|noscript|template|textarea|title|svg)[\s>/]/;
const BLOCK_TAG = /^<\/?(p|div|br|li|dt|dd|h[1-6]|tr|td|th|section|article|header|footer|blockquote|pre|table|ul|ol|hr)[\s>/]/;

/**
 * Text of an HTML string without building a DOM, in one pass: tags dropped (block tags become paragraph
 * breaks), script-like elements skipped, a '<' that opens no tag kept as text, common entities decoded.
 */
function stripTags(html: string): string {
  const lower = html.toLowerCase();
  const parts: string[] = [];
  let i = 0;
  // The next '>' is cached: looking it up again for every stray '<' would make a run of them quadratic.
  let close = -2;
  while (i < html.length) {
    const open = html.indexOf('<', i);
    if (open === -1) {
      parts.push(html.slice(i));
      break;
    }
    parts.push(html.slice(i, open));
    if (close !== -1 && close <= open) close = html.indexOf('>', open + 1);
    const head = lower.slice(open, open + 12);
    const raw = RAW_TEXT.exec(head);
    if (raw) {
      const end = lower.indexOf(`</${raw[1]}`, open + 1);
      const gt = end === -1 ? -1 : html.indexOf('>', end);
      i = gt === -1 ? html.length : gt + 1;
      parts.push(' ');
      continue;
    }
    if (close === -1 || !/^<[a-z/!?]/.test(head)) {
      parts.push('<');
      i = open + 1;
      continue;
    }
    parts.push(BLOCK_TAG.test(head) ? '\n\n' : ' ');
    i = close + 1;
  }
  const text = parts
    .join('')
    .replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (m, e: string) => decodeEntity(m, e))
    .replace(/[ \t\u00a0]+/g, ' ');
  return tidy(text.split('\n').map((l) => l.trim()).join('\n'));
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', mdash: '—', ndash: '–', hellip: '…', rsquo: '’', lsquo: '‘', rdquo: '”', ldquo: '“', copy: '©' };

function decodeEntity(match: string, entity: string): string {
  const e = entity.toLowerCase();
  if (e.startsWith('#')) {
    const code = e.startsWith('#x') ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : match;
  }
  return NAMED[e] ?? match;
}

function extractHtml(html: string, url: string, maxDepth: number, maxNodes: number, complete: boolean): Extracted {
  const doc = parseDocument(html);
  // A full-document selector scan costs about as much as turndown on the article; skip it when the
  // source cannot contain a <base>.
  const base = /<base[\s/>]/i.test(html) ? baseUrl(doc, url) : pageUrl(url);
  const pageHref = pageAddress(url);
  // Readability removes headings while it works, so the heading fallback is taken now.
  const fallbackTitle =
    clean(doc.querySelector('title')?.textContent) || clean(doc.querySelector('h1, h2, h3, h4, h5, h6')?.textContent) || url;
  const root = doc.body ?? doc.documentElement;
  if (!root) return { title: fallbackTitle, markdown: '', usedFallback: true, method: 'text' };
  // Counted before anything merges text nodes: Readability re-serialises and re-parses the body, which
  // splits them again.
  let shape = measure(root);
  const flattened = shape.depth > maxDepth;
  if (flattened) {
    flattenWrappers(root);
    shape = measure(root);
  }
  if (shape.depth > maxDepth || shape.nodes > maxNodes) {
    return { title: fallbackTitle, markdown: plainText(root), usedFallback: true, method: 'text' };
  }

  if (complete && !flattened) {
    const generated = generatedDocument(doc, root);
    if (generated) {
      const title = clean(readabilityTitle(doc)) || fallbackTitle;
      for (const el of Array.from(generated.root.querySelectorAll(`${BODY_NOISE}, ${PAGE_CHROME}, ${generated.chrome}`))) el.remove();
      const markdown = toMarkdown(generated.root, base, pageHref);
      if (markdown === undefined) return { title, markdown: plainText(generated.root), usedFallback: true, method: 'text' };
      return completed(html, { title, markdown, usedFallback: true, method: 'main' }, base, pageHref, generated.chrome);
    }
  }

  // Flattening changed the tree, so positions would not match a fresh parse: no section containers then.
  const sectioned = flattened ? [] : sectionedContainers(root, complete);
  let article: { title?: string | null; content?: unknown } | null = null;
  try {
    const reader = new Readability(doc as never, { serializer: (el: unknown) => el, maxElemsToParse: maxNodes });
    keepMathJax(reader);
    article = reader.parse();
  } catch {
    article = null;
  }
  const title = clean(article?.title) || fallbackTitle;
  if (article?.content) {
    const content = article.content as DomElement;
    let picked: Extracted | undefined;
    const wider = richerContainer(html, content, sectioned, complete ? 1.02 : 1.15);
    if (wider) {
      const markdown = toMarkdown(wider, base, pageHref);
      if (markdown !== undefined) picked = { title, markdown, usedFallback: true, method: 'main' };
    }
    if (!picked) {
      const markdown = toMarkdown(content, base, pageHref);
      if (markdown === undefined) return { title, markdown: plainText(content), usedFallback: true, method: 'text' };
      picked = { title, markdown, usedFallback: false, method: 'readability' };
    }
    return complete && !flattened ? completed(html, picked, base, pageHref) : picked;
  }

  // Readability edits the document while it searches; start again from the source.
  const fresh = parseDocument(html);
  const freshRoot = fresh.body ?? fresh.documentElement;
  if (!freshRoot) return { title, markdown: '', usedFallback: true, method: 'text' };
  for (const el of Array.from(freshRoot.querySelectorAll(BODY_NOISE))) el.remove();
  const markdown = toMarkdown(freshRoot, base, pageHref);
  if (markdown !== undefined) return { title, markdown, usedFallback: true, method: 'body' };
  return { title, markdown: plainText(freshRoot), usedFallback: true, method: 'text' };
}

/**
 * Pages written by a documentation generator say so (`<meta name="generator">`) and put their text in a
 * known place, so they are stored from there whole instead of from Readability's pick, which keeps the
 * best-scoring block and drops the rest (a table without the paragraph that introduces it, one section of
 * a how-to, an index page's footer instead of its list):
 * - Docutils/Sphinx: the one `role="main"` element (else Docutils' one `div.document`), without the
 *   pilcrow links after each heading and any sidebar or related bar left inside it;
 * - DocBook XSL (PostgreSQL, Debian Policy): the body without its navigation header and footer;
 * - AsciiDoc/Asciidoctor (git's manuals): the body without its footer; its header holds the page's NAME
 *   line, which Readability and the section rule both leave out.
 * Nothing else of the page is trusted: nav, header, footer, aside and forms go as on any page. No page of
 * the annotated article benchmark carries one of these generators.
 */
function generatedDocument(doc: DomDocument, body: DomElement): { root: DomElement; chrome: string } | undefined {
  let generator = '';
  for (const meta of Array.from(doc.querySelectorAll('meta[name]')) as DomElement[]) {
    if ((meta.getAttribute('name') ?? '').toLowerCase() === 'generator') generator = meta.getAttribute('content') ?? '';
  }
  if (/^\s*(docutils|sphinx)\b/i.test(generator)) {
    const only = (selector: string): DomElement | undefined => {
      const found = body.querySelectorAll(selector);
      return found.length === 1 ? (found[0] as DomElement) : undefined;
    };
    const root = only('[role="main"]') ?? only('div.document');
    if (!root || words(root.textContent) === '') return undefined;
    return { root, chrome: 'a.headerlink, .sphinxsidebar, .related, div.footer' };
  }
  if (/^\s*docbook\b/i.test(generator)) return { root: body, chrome: '.navheader, .navfooter' };
  // An empty footnotes box holds only a rule.
  if (/^\s*asciidoc(tor)?\b/i.test(generator)) return { root: body, chrome: '#footer, #footnotes:not(:has(.footnote))' };
  return undefined;
}

/** Readability's title for a page it has not parsed (the same rules as its article's title). */
function readabilityTitle(doc: DomDocument): string {
  try {
    const reader = new Readability(doc as never) as unknown as { _getArticleTitle?: () => string };
    return typeof reader._getArticleTitle === 'function' ? reader._getArticleTitle() : '';
  } catch {
    return '';
  }
}

// Below this many characters an article may be Readability's pick of a footer on a page that is mostly a
// list of links (Sphinx index pages such as docs.python.org's concurrency.html).
const SHORT_ARTICLE_CHARS = 1500;

const PAGE_CHROME =
  'header, footer, aside, [role="navigation"], [role="banner"], [role="contentinfo"], [role="complementary"]';

/** A container of repeated document sections, as found before Readability edits the page. */
interface Sectioned {
  /** Position in document order, to find the same element in a fresh parse. */
  index: number;
  chars: number;
  linkChars: number;
  members: string[];
}

/**
 * Containers whose children include three or more of one tag and class that each hold a heading and
 * together hold most of its text: document sections (asciidoc's `div.sect1` on git-scm.com's manual
 * pages). Read before Readability runs, because Readability removes and rewrites nodes.
 */
function sectionedContainers(root: DomElement, complete: boolean): Sectioned[] {
  const found: Sectioned[] = [];
  const all = Array.from(root.querySelectorAll('*')) as DomElement[];
  for (let index = 0; index < all.length; index++) {
    const el = all[index] as DomElement;
    if (el.children.length < 2) continue;
    const groups = new Map<string, DomElement[]>();
    for (const child of Array.from(el.children) as DomElement[]) {
      const cls = (child.getAttribute('class') ?? '').trim();
      // Sphinx's sections carry no class; a <section> is a section by its tag.
      if (!cls && (!complete || child.nodeName !== 'SECTION')) continue;
      const key = `${child.nodeName} ${cls}`;
      const list = groups.get(key);
      if (list) list.push(child);
      else groups.set(key, [child]);
    }
    for (const list of groups.values()) {
      // Three or more: two same-class blocks with headings are as often a news page's article beside a
      // sidebar (both seen in the annotated article benchmark) as two sections of one document.
      if (list.length < 3 || !list.every((c) => c.querySelector('h1, h2, h3, h4, h5, h6'))) continue;
      const members = list.map((c) => words(c.textContent));
      const text = words(el.textContent);
      if (members.reduce((n, m) => n + m.length, 0) < 0.6 * text.length) continue;
      found.push({ index, chars: text.length, linkChars: linkChars(el), members });
      break;
    }
  }
  return found;
}

/**
 * A larger part of the page to take instead of Readability's article, when Readability kept only a piece
 * of it. Two shapes seen on real documentation sites:
 * - a short article (often the footer) where the page's one main landmark (`<main>`, `role="main"`) holds
 *   at least twice its text: Readability scores link-dense regions down (Sphinx index pages);
 * - one section of a page built of sections (see sectionedContainers): Readability keeps the best-scoring
 *   one, e.g. git-merge's OPTIONS without its DESCRIPTION. The container is taken when one of its sections
 *   holds the article, it holds more text than it (2% more; 15% before the completeness work, which left
 *   git-config's SYNOPSIS to FILES out beside a 7% larger container), and it is not mostly links.
 * The element is taken from a fresh parse because Readability has edited the document.
 */
function richerContainer(html: string, content: DomElement, sectioned: Sectioned[], wider: number): DomElement | undefined {
  const articleText = words(content.textContent);
  const articleChars = articleText.length;
  const short = articleChars < SHORT_ARTICLE_CHARS && /<main[\s>]|role=["']?main/i.test(html);
  const mid = Math.floor(articleChars / 2);
  const probe = articleText.slice(Math.max(0, mid - 40), mid + 40);
  let best: Sectioned | undefined;
  for (const c of sectioned) {
    if (c.chars < wider * articleChars || c.linkChars > 0.5 * c.chars || (best && c.chars >= best.chars)) continue;
    if (c.members.some((m) => m.includes(probe))) best = c;
  }
  if (!short && !best) return undefined;
  const root = parseDocument(html).body;
  if (!root) return undefined;
  const all = Array.from(root.querySelectorAll('*')) as DomElement[];
  const chosen = best ? all[best.index] : undefined;
  for (const el of Array.from(root.querySelectorAll(`${BODY_NOISE}, ${PAGE_CHROME}`))) el.remove();
  if (chosen) return chosen;
  const found = Array.from(root.querySelectorAll('main, [role="main"]'));
  const main = found.length === 1 ? (found[0] as DomElement) : undefined;
  return main && words(main.textContent).length >= 2 * Math.max(articleChars, 1) ? main : undefined;
}

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
function completed(html: string, picked: Extracted, base: URL | undefined, pageHref: string, generatorChrome?: string): Extracted {
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

const FULL_NOISE =
  'script, style, noscript, template, svg, canvas, iframe, object, embed, button, input, select, textarea, [hidden], [aria-hidden="true"]';

/**
 * The page's whole visible text as markdown (`fetch_source {full: true}`): the body with only what a
 * browser does not show removed; navigation, header and footer stay. It holds every sentence the normal
 * extraction keeps, so quotes grounded in that still ground in this.
 */
export function extractFullText(body: string, contentType: string, url: string): Extracted {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== 'text/html' && type !== 'application/xhtml+xml') return extractReadable(body, contentType, url);
  if (markupChars(body) > MAX_MARKUP_CHARS) return { title: url, markdown: stripTags(body), usedFallback: true, method: 'text' };
  try {
    const doc = parseDocument(body);
    const title = clean(doc.querySelector('title')?.textContent) || clean(doc.querySelector('h1, h2, h3, h4, h5, h6')?.textContent) || url;
    const root = doc.body ?? doc.documentElement;
    if (!root) return { title, markdown: '', usedFallback: true, method: 'text' };
    const shape = measure(root);
    if (shape.depth > MAX_DOM_DEPTH || shape.nodes > MAX_DOM_NODES) return { title, markdown: plainText(root), usedFallback: true, method: 'text' };
    for (const el of Array.from(root.querySelectorAll(FULL_NOISE))) el.remove();
    const base = /<base[\s/>]/i.test(body) ? baseUrl(doc, url) : pageUrl(url);
    const markdown = toMarkdown(root, base, pageAddress(url));
    return { title, markdown: markdown ?? plainText(root), usedFallback: true, method: markdown === undefined ? 'text' : 'body' };
  } catch {
    return { title: url, markdown: stripTags(body), usedFallback: true, method: 'text' };
  }
}

function linkChars(el: DomElement): number {
  return Array.from(el.querySelectorAll('a')).reduce((n, a) => n + words((a as DomElement).textContent).length, 0);
}

/** Lower-cased letters and digits, one space between runs: text compared across two parses. */
function words(s: string | null | undefined): string {
  return (s ?? '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/**
 * Readability 0.6.0 drops MathJax containers as "menu" clutter (their class names contain CtxtMenu), so
 * every formula vanishes from scientific pages; Readability's own test corpus expects them kept. Widen its
 * "maybe a candidate" pattern on this instance only; a future Readability without REGEXPS is left alone.
 */
function keepMathJax(reader: object): void {
  const regexps = (reader as { REGEXPS?: Record<string, RegExp> }).REGEXPS;
  const ok = regexps?.['okMaybeItsACandidate'];
  if (!regexps || !ok || ok.test('mathjax')) return;
  Object.defineProperty(reader, 'REGEXPS', {
    value: { ...regexps, okMaybeItsACandidate: new RegExp(`${ok.source}|mathjax`, ok.flags) },
  });
}

const BODY_NOISE =
  'script, style, noscript, template, svg, canvas, iframe, object, embed, nav, button, input, select, textarea, [hidden], [aria-hidden="true"]';

function parseDocument(html: string): DomDocument {
  let { document } = parseHTML(html) as unknown as { document: DomDocument };
  // linkedom builds no implied <html>/<body> for fragments or bare text (and then throws on .body).
  if (document.documentElement?.nodeName !== 'HTML') {
    const inner = /<body[\s>]/i.test(html) ? html : `<body>${html}</body>`;
    ({ document } = parseHTML(`<!DOCTYPE html><html><head></head>${inner}</html>`) as unknown as { document: DomDocument });
  }
  return document;
}

/** The URL relative links resolve against: a `<base href>` (itself relative to the page) or the page. */
function baseUrl(doc: DomDocument, url: string): URL | undefined {
  const page = pageUrl(url);
  if (!page) return undefined;
  const href = doc.querySelector('base[href]')?.getAttribute('href');
  if (href) {
    try {
      const b = new URL(href.trim(), page);
      if (b.protocol === 'http:' || b.protocol === 'https:') return b;
    } catch {
      // An unusable <base> is ignored, as browsers do.
    }
  }
  return page;
}

function pageUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

function pageAddress(url: string): string {
  try {
    return new URL(url).href.split('#')[0] ?? url;
  } catch {
    return url;
  }
}

/** Element depth and node count (all node types), by an explicit-stack walk. */
function measure(root: DomElement): { depth: number; nodes: number } {
  let depth = 0;
  let nodes = 0;
  const stack: Array<[DomNode, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [node, d] = stack.pop() as [DomNode, number];
    nodes++;
    if (node.nodeType !== ELEMENT_NODE) continue;
    if (d > depth) depth = d;
    const kids = node.childNodes;
    for (let i = 0; i < kids.length; i++) stack.push([kids[i] as DomNode, d + 1]);
  }
  return { depth, nodes };
}

const WRAPPERS = new Set(['DIV', 'SPAN', 'SECTION', 'ARTICLE', 'MAIN', 'FONT', 'CENTER']);

/** Replaces generic wrappers that hold nothing but one element by that element, deepest first. */
function flattenWrappers(root: DomElement): void {
  const all = Array.from(root.querySelectorAll('div, span, section, article, main, font, center'));
  for (let i = all.length - 1; i >= 0; i--) {
    const el = all[i] as DomElement;
    if (!WRAPPERS.has(el.nodeName) || el.children.length !== 1) continue;
    let onlyChild = true;
    const kids = el.childNodes;
    for (let j = 0; j < kids.length; j++) {
      const n = kids[j] as DomNode;
      if (n.nodeType === TEXT_NODE && (n.nodeValue ?? '').trim() !== '') onlyChild = false;
    }
    if (onlyChild) el.replaceWith(el.children[0] as DomElement);
  }
}

/** Markdown for `root`, or undefined when turndown fails (it recurses once per nesting level). */
function toMarkdown(root: DomElement, base: URL | undefined, pageHref: string): string | undefined {
  try {
    absolutise(root, base, pageHref);
    unwrapLayoutTables(root);
    expandSpans(root);
    const converter = turndown();
    memo = { rows: new WeakMap(), childNodes: new WeakMap(), children: new WeakMap() };
    try {
      return tidy(converter.turndown(root as never));
    } finally {
      memo = undefined;
    }
  } catch {
    return undefined;
  }
}

/** Makes links and images absolute (linkedom has no document URL, so nothing else will) and drops unsafe ones. */
function absolutise(root: DomElement, base: URL | undefined, pageHref: string): void {
  for (const a of Array.from(root.querySelectorAll('a[href], area[href]'))) {
    const href = (a.getAttribute('href') ?? '').trim();
    // In-page anchors stay relative unless a <base> points them at another document.
    if (href.startsWith('#') && (!base || base.href.split('#')[0] === pageHref)) continue;
    const abs = resolve(href, base);
    if (abs && /^(https?|mailto|ftp):/i.test(abs)) a.setAttribute('href', abs);
    else a.removeAttribute('href');
  }
  for (const img of Array.from(root.querySelectorAll('img[src], source[src], video[src], audio[src]'))) {
    const abs = resolve((img.getAttribute('src') ?? '').trim(), base);
    // data: URIs can be megabytes of base64 and say nothing to a reader.
    if (abs && /^https?:/i.test(abs)) img.setAttribute('src', abs);
    else img.removeAttribute('src');
  }
}

function resolve(ref: string, base: URL | undefined): string | undefined {
  try {
    return base ? new URL(ref, base).href : new URL(ref).href;
  } catch {
    return undefined;
  }
}

const LAYOUT_MARKERS = 'ul, ol, h1, h2, h3, h4, h5, h6, hr, blockquote, pre, table';

/**
 * The GFM plugin keeps tables that hold lists, headings, code or other tables as raw HTML, which costs the
 * reader tokens and says nothing more. Those are layout tables: their cells become plain blocks instead.
 */
function unwrapLayoutTables(root: DomElement): void {
  const tables = Array.from(root.querySelectorAll('table'));
  for (let i = tables.length - 1; i >= 0; i--) {
    const table = tables[i] as DomElement;
    if (!table.querySelector(LAYOUT_MARKERS)) continue;
    const doc = (table as unknown as { ownerDocument: DomDocument }).ownerDocument;
    const box = doc.createElement('div');
    for (const cell of Array.from(table.querySelectorAll('td, th'))) {
      if (nearestTable(cell) !== table) continue;
      const block = doc.createElement('div');
      block.append(...Array.from(cell.childNodes));
      box.append(block);
    }
    const caption = table.querySelector('caption');
    if (caption && nearestTable(caption) === table) {
      const p = doc.createElement('p');
      p.append(...Array.from(caption.childNodes));
      box.append(p);
    }
    table.replaceWith(box);
  }
  // Cells left without a table (Readability rewrites some tables) would crash the GFM rules, which
  // look up the enclosing table.
  const parts = Array.from(root.querySelectorAll('tr, td, th, thead, tbody, tfoot'));
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i] as DomElement;
    if (nearestTable(part) !== null) continue;
    const doc = (part as unknown as { ownerDocument: DomDocument }).ownerDocument;
    const block = doc.createElement('div');
    block.append(...Array.from(part.childNodes));
    part.replaceWith(block);
  }
}

/** Most cells a spanned table may grow to; past it the table is left as it is (every cell's text stays). */
const MAX_GRID_CELLS = 20_000;

/**
 * Cells spanning rows or columns leave the rows below them short, and a markdown table then shifts every
 * later cell into the wrong column (PostgreSQL's operator-class tables). The grid is filled in: a cell
 * spanning rows is repeated in each row it covers, one spanning columns is followed by empty cells, so
 * every row has every column and each cell's text sits under its header.
 */
function expandSpans(root: DomElement): void {
  polyfillTableRows();
  for (const table of Array.from(root.querySelectorAll('table')) as DomElement[]) {
    const spanned = (Array.from(table.querySelectorAll('td[rowspan], th[rowspan], td[colspan], th[colspan]')) as DomElement[]).filter(
      (c) => nearestTable(c) === table && (span(c, 'rowspan') > 1 || span(c, 'colspan') > 1),
    );
    if (spanned.length === 0) continue;
    const rows = (table as unknown as { rows: DomElement[] }).rows;
    const doc = (table as unknown as { ownerDocument: DomDocument }).ownerDocument;
    const grid: Array<Array<DomElement | undefined>> = rows.map(() => []);
    let cells = 0;
    for (const [r, row] of rows.entries()) {
      let col = 0;
      for (const cell of Array.from(row.children) as DomElement[]) {
        if (cell.nodeName !== 'TD' && cell.nodeName !== 'TH') continue;
        const line = grid[r] as Array<DomElement | undefined>;
        while (line[col] !== undefined) col++;
        const rs = Math.min(span(cell, 'rowspan'), rows.length - r);
        const cs = span(cell, 'colspan');
        cells += rs * cs;
        if (cells > MAX_GRID_CELLS) return;
        for (let dr = 0; dr < rs; dr++) {
          for (let dc = 0; dc < cs; dc++) {
            const target = grid[r + dr] as Array<DomElement | undefined>;
            if (dr === 0 && dc === 0) target[col] = cell;
            else if (dc === 0) target[col] = (cell as unknown as { cloneNode(deep: boolean): DomElement }).cloneNode(true);
            else target[col + dc] = doc.createElement(cell.nodeName.toLowerCase());
          }
        }
        cell.removeAttribute('rowspan');
        cell.removeAttribute('colspan');
        col += cs;
      }
    }
    const width = Math.max(...grid.map((l) => l.length));
    for (const [r, row] of rows.entries()) {
      const line = grid[r] as Array<DomElement | undefined>;
      // A header row stays one (the GFM rules want every cell a <th>).
      const pad = line.every((c) => c === undefined || c.nodeName === 'TH') ? 'th' : 'td';
      for (let c = 0; c < width; c++) {
        const cell = line[c] ?? doc.createElement(pad);
        cell.removeAttribute('rowspan');
        cell.removeAttribute('colspan');
        row.append(cell);
      }
    }
  }
}

function span(cell: DomElement, attr: 'rowspan' | 'colspan'): number {
  const n = Number.parseInt(cell.getAttribute(attr) ?? '', 10);
  return Number.isFinite(n) && n > 1 ? Math.min(n, 1000) : 1;
}

function nearestTable(node: DomNode): DomNode | null {
  for (let p = node.parentNode; p; p = p.parentNode) if (p.nodeName === 'TABLE') return p;
  return null;
}

let service: TurndownService | undefined;

function turndown(): TurndownService {
  if (service) return service;
  polyfillTableRows();
  memoiseChildLists();
  const s = new TurndownService({
    headingStyle: 'atx',
    hr: '---',
    bulletListMarker: '-',
    codeBlockStyle: 'fenced',
    emDelimiter: '_',
    strongDelimiter: '**',
  });
  s.use(gfm);
  // turndown pads list markers to four columns ("-   item"); one space reads the same and costs fewer tokens.
  s.addRule('compactListItem', {
    filter: 'li',
    replacement(content, node) {
      const li = node as unknown as DomElement & { nextSibling: unknown };
      const list = li.parentNode as DomElement | null;
      let prefix = '- ';
      if (list?.nodeName === 'OL') {
        const start = Number.parseInt(list.getAttribute('start') ?? '', 10);
        prefix = `${(Number.isFinite(start) ? start : 1) + Array.prototype.indexOf.call(list.children, li)}. `;
      }
      const endsParagraph = /\n$/.test(content);
      const body = content.replace(/^\n+|\n+$/g, '') + (endsParagraph ? '\n' : '');
      return prefix + body.replace(/\n/g, `\n${' '.repeat(prefix.length)}`) + (li.nextSibling ? '\n' : '');
    },
  });
  s.remove(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'canvas', 'svg', 'button', 'input', 'select', 'textarea']);
  service = s;
  return s;
}

/**
 * Child lists remembered while turndown runs. linkedom builds a fresh list on every `childNodes`,
 * `children` (and so `rows`) read, and the GFM rules read them inside loops: `table.rows` once per row and
 * column of a heading row, a node's `childNodes` on every step of a walk over it. A table of n rows cost n³
 * (PostgreSQL's 836-row keywords table: ten minutes). Safe because turndown works on its own copy and
 * changes it only while collapsing whitespace, before it reads any list (turndown 7.2).
 */
let memo: { rows: WeakMap<object, DomElement[]>; childNodes: WeakMap<object, unknown>; children: WeakMap<object, unknown> } | undefined;

/** Wraps linkedom's `childNodes` and `children` getters to answer from `memo` while it is set; once. */
function memoiseChildLists(): void {
  const { document } = parseHTML('<!DOCTYPE html><html><body><p></p></body></html>') as unknown as { document: DomDocument };
  for (const name of ['childNodes', 'children'] as const) {
    let proto: object | null = document.querySelector('p');
    let desc: PropertyDescriptor | undefined;
    while (proto && !(desc = Object.getOwnPropertyDescriptor(proto, name))) proto = Object.getPrototypeOf(proto) as object | null;
    const get = desc?.get;
    if (!proto || !get || (get as { memoised?: true }).memoised) continue;
    const memoised = function (this: object): unknown {
      const lists = memo?.[name];
      if (!lists) return get.call(this);
      let list = lists.get(this);
      if (list === undefined) {
        list = get.call(this);
        lists.set(this, list);
      }
      return list;
    };
    (memoised as { memoised?: true }).memoised = true;
    Object.defineProperty(proto, name, { ...desc, get: memoised });
  }
}

/**
 * The GFM table rules read `table.rows`, which linkedom does not implement; without it every table is
 * flattened into paragraphs. Patched on linkedom's table element class once, the first time it is needed.
 */
function polyfillTableRows(): void {
  const { document } = parseHTML('<!DOCTYPE html><html><body><table></table></body></html>') as unknown as { document: DomDocument };
  const proto = Object.getPrototypeOf(document.querySelector('table')) as object;
  if ('rows' in proto) return;
  Object.defineProperty(proto, 'rows', {
    configurable: true,
    get(this: DomElement) {
      const hit = memo?.rows.get(this);
      if (hit) return hit;
      const rows: DomElement[] = [];
      for (let i = 0; i < this.children.length; i++) {
        const child = this.children[i] as DomElement;
        if (child.nodeName === 'TR') rows.push(child);
        else if (child.nodeName === 'THEAD' || child.nodeName === 'TBODY' || child.nodeName === 'TFOOT') {
          for (let j = 0; j < child.children.length; j++) {
            const row = child.children[j] as DomElement;
            if (row.nodeName === 'TR') rows.push(row);
          }
        }
      }
      memo?.rows.set(this, rows);
      return rows;
    },
  });
}

const SKIP_TEXT = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'svg', 'CANVAS', 'IFRAME', 'OBJECT', 'EMBED', 'HEAD']);
const BLOCKS = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BR', 'DD', 'DIV', 'DL', 'DT', 'FIELDSET', 'FIGCAPTION', 'FIGURE',
  'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HR', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE',
  'SECTION', 'TABLE', 'TD', 'TH', 'TR', 'UL',
]);
const BLOCK_END = null;

/** Text of `root` by an explicit-stack walk, so no nesting depth can overflow the call stack. */
function plainText(root: DomNode): string {
  const out: string[] = [];
  const stack: Array<DomNode | typeof BLOCK_END> = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === BLOCK_END) {
      out.push('\n\n');
      continue;
    }
    if (node === undefined) break;
    if (node.nodeType === TEXT_NODE) {
      out.push((node.nodeValue ?? '').replace(/\s+/g, ' '));
      continue;
    }
    if (node.nodeType !== ELEMENT_NODE || SKIP_TEXT.has(node.nodeName)) continue;
    if (BLOCKS.has(node.nodeName)) {
      out.push('\n\n');
      stack.push(BLOCK_END);
    }
    const kids = node.childNodes;
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i] as DomNode);
  }
  return tidy(out.join('').split('\n').map((l) => l.trim()).join('\n'));
}

/**
 * Normalises line endings and blank lines, drops trailing spaces (turndown's hard breaks) and empty links.
 * Written without patterns that backtrack: page text can be megabytes of whatever a hostile page wants.
 */
function tidy(md: string): string {
  return md
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/(^|[^!])\[\]\([^)\s]{0,4096}\)/g, '$1')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function firstMarkdownHeading(md: string): string | undefined {
  for (const line of md.split('\n', 2000)) {
    const m = /^ {0,3}#{1,6}[ \t]/.exec(line);
    if (!m) continue;
    const title = clean(stripClosingHashes(line.slice(m[0].length, m[0].length + 1000)));
    if (title) return title;
  }
  return undefined;
}

function clean(s: string | null | undefined): string {
  const t = (s ?? '').replace(/\s+/g, ' ').trim();
  return t.length > 300 ? `${t.slice(0, 300)}…` : t;
}
