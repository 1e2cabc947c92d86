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
import { Readability } from '@mozilla/readability';
import { keepMathJax, richerContainer, sectionedContainers } from './article.js';
import { completed } from './completeness.js';
import { BODY_NOISE, flattenWrappers, markupChars, MAX_DOM_DEPTH, MAX_DOM_NODES, MAX_MARKUP_CHARS, measure, PAGE_CHROME } from './dom.js';
import { parseDocument } from './parse.js';
import type { DomElement } from './dom.js';
import { generatedDocument, readabilityTitle } from './generated.js';
import { toMarkdown } from './markdown.js';
import { strippedPage } from './strip.js';
import { clean, passthrough, plainText } from './text.js';
import type { Extracted, ExtractLimits } from './types.js';
import { baseUrl, pageAddress, pageUrl } from './urls.js';


export function extractReadable(body: string, contentType: string, url: string, limits: ExtractLimits = {}): Extracted {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== 'text/html' && type !== 'application/xhtml+xml') {
    return passthrough(body, url);
  }
  if (markupChars(body) > MAX_MARKUP_CHARS) return strippedPage(body, url);
  try {
    return extractHtml(body, url, limits.maxDepth ?? MAX_DOM_DEPTH, limits.maxNodes ?? MAX_DOM_NODES, limits.complete ?? true);
  } catch {
    // Last resort for anything the DOM stack chokes on.
    return strippedPage(body, url);
  }
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
  if (markupChars(body) > MAX_MARKUP_CHARS) return strippedPage(body, url);
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
    return strippedPage(body, url);
  }
}
