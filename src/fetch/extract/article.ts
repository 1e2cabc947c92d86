/** Readability's article, and the larger containers taken instead when it kept only a piece of the page. */
import { BODY_NOISE, PAGE_CHROME } from './dom.js';
import { parseDocument } from './parse.js';
import type { DomElement } from './dom.js';
import { linkChars, words } from './text.js';

// list of links (Sphinx index pages such as docs.python.org's concurrency.html).
export const SHORT_ARTICLE_CHARS = 1500;

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
export function sectionedContainers(root: DomElement, complete: boolean): Sectioned[] {
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
export function richerContainer(html: string, content: DomElement, sectioned: Sectioned[], wider: number): DomElement | undefined {
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
 * Readability 0.6.0 drops MathJax containers as "menu" clutter (their class names contain CtxtMenu), so
 * every formula vanishes from scientific pages; Readability's own test corpus expects them kept. Widen its
 * "maybe a candidate" pattern on this instance only; a future Readability without REGEXPS is left alone.
 */
export function keepMathJax(reader: object): void {
  const regexps = (reader as { REGEXPS?: Record<string, RegExp> }).REGEXPS;
  const ok = regexps?.['okMaybeItsACandidate'];
  if (!regexps || !ok || ok.test('mathjax')) return;
  Object.defineProperty(reader, 'REGEXPS', {
    value: { ...regexps, okMaybeItsACandidate: new RegExp(`${ok.source}|mathjax`, ok.flags) },
  });
}
