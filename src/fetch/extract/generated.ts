/** Pages of documentation generators, read from their text root whole. */
import { Readability } from '@mozilla/readability';
import type { DomDocument, DomElement } from './dom.js';
import { words } from './text.js';

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
 * A page without the meta line (a site that re-templates a manual drops it) is known by its structure
 * instead (see structuredDocument). Nothing else of the page is trusted: nav, header, footer, aside and
 * forms go as on any page. No page of the annotated article benchmark carries one of these generators.
 */
export function generatedDocument(doc: DomDocument, body: DomElement): { root: DomElement; chrome: string } | undefined {
  let generator = '';
  for (const meta of Array.from(doc.querySelectorAll('meta[name]')) as DomElement[]) {
    if ((meta.getAttribute('name') ?? '').toLowerCase() === 'generator') generator = meta.getAttribute('content') ?? '';
  }
  if (/^\s*(docutils|sphinx)\b/i.test(generator)) {
    const root = only(body, '[role="main"]') ?? only(body, 'div.document');
    if (!root || words(root.textContent) === '') return undefined;
    return { root, chrome: SPHINX_CHROME };
  }
  if (/^\s*docbook\b/i.test(generator)) return { root: body, chrome: '.navheader, .navfooter' };
  // An empty footnotes box holds only a rule.
  if (/^\s*asciidoc(tor)?\b/i.test(generator)) return { root: body, chrome: '#footer, #footnotes:not(:has(.footnote))' };
  return structuredDocument(body);
}

/** Permalink anchors that generators put after (or before) each heading: Sphinx, MkDocs, Docusaurus, Jupyter Book, VitePress. */
const PERMALINKS = 'a.headerlink, a.header-anchor, a.hash-link, a.anchor-link, a.anchorjs-link';
const SPHINX_CHROME = `${PERMALINKS}, .sphinxsidebar, .related, div.footer`;

function only(body: DomElement, selector: string): DomElement | undefined {
  const found = body.querySelectorAll(selector);
  return found.length === 1 ? (found[0] as DomElement) : undefined;
}

/**
 * A generated manual page known by its structure: one main landmark (`role="main"`, else `<main>`) whose
 * headings mostly carry a permalink, a short link (a pilcrow, '#', an icon) to the heading's own anchor or
 * its section's. Hand-written articles rarely link every heading to itself; documentation generators do.
 * The landmark is its text root, as for a Sphinx page that says so.
 */
function structuredDocument(body: DomElement): { root: DomElement; chrome: string } | undefined {
  const root = only(body, '[role="main"]') ?? only(body, 'main');
  if (!root || words(root.textContent) === '') return undefined;
  const headings = Array.from(root.querySelectorAll('h1, h2, h3, h4, h5, h6')) as DomElement[];
  const linked = headings.filter(permalinked).length;
  if (linked === 0 || linked * 2 < headings.length) return undefined;
  return { root, chrome: SPHINX_CHROME };
}

function permalinked(heading: DomElement): boolean {
  const anchors = new Set<string>();
  for (const el of [heading, heading.parentNode as DomElement | null]) {
    const id = el?.getAttribute?.('id');
    if (id) anchors.add(id);
  }
  for (const a of Array.from(heading.querySelectorAll('a[href^="#"]')) as DomElement[]) {
    if ((a.textContent ?? '').trim().length > 2) continue;
    const cls = ` ${a.getAttribute('class') ?? ''} `;
    if (anchors.has((a.getAttribute('href') ?? '').slice(1)) || /\s(headerlink|header-anchor|hash-link|anchor-link|anchorjs-link)\s/.test(cls)) return true;
  }
  return false;
}

/** Readability's title for a page it has not parsed (the same rules as its article's title). */
export function readabilityTitle(doc: DomDocument): string {
  try {
    const reader = new Readability(doc as never) as unknown as { _getArticleTitle?: () => string };
    return typeof reader._getArticleTitle === 'function' ? reader._getArticleTitle() : '';
  } catch {
    return '';
  }
}

// Below this many characters an article may be Readability's pick of a footer on a page that is mostly a
