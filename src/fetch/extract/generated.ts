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
 * Nothing else of the page is trusted: nav, header, footer, aside and forms go as on any page. No page of
 * the annotated article benchmark carries one of these generators.
 */
export function generatedDocument(doc: DomDocument, body: DomElement): { root: DomElement; chrome: string } | undefined {
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
export function readabilityTitle(doc: DomDocument): string {
  try {
    const reader = new Readability(doc as never) as unknown as { _getArticleTitle?: () => string };
    return typeof reader._getArticleTitle === 'function' ? reader._getArticleTitle() : '';
  } catch {
    return '';
  }
}

// Below this many characters an article may be Readability's pick of a footer on a page that is mostly a
