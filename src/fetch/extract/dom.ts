/**
 * The DOM extraction works on (linkedom's, see parse.ts), its size guards, and the selectors of what is
 * never page text. Loads no DOM library, so the main thread can check a page's size without one.
 */

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
export interface DomNode {
  nodeType: number;
  nodeName: string;
  nodeValue: string | null;
  textContent: string | null;
  parentNode: DomNode | null;
  childNodes: ArrayLike<DomNode>;
}
export interface DomElement extends DomNode {
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
export interface DomDocument {
  documentElement: DomElement | null;
  body: DomElement | null;
  createElement(tag: string): DomElement;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
}

export const TEXT_NODE = 3;
export const ELEMENT_NODE = 1;

export function markupChars(html: string): number {
  let n = 0;
  for (let i = 0; i < html.length; i++) {
    const c = html.charCodeAt(i);
    if (c === 0x3c || c === 0x26) n++;
  }
  return n;
}

export const BODY_NOISE =
  'script, style, noscript, template, svg, canvas, iframe, object, embed, nav, button, input, select, textarea, [hidden], [aria-hidden="true"]';

export const PAGE_CHROME =
  'header, footer, aside, [role="navigation"], [role="banner"], [role="contentinfo"], [role="complementary"]';

/** Element depth and node count (all node types), by an explicit-stack walk. */
export function measure(root: DomElement): { depth: number; nodes: number } {
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
export function flattenWrappers(root: DomElement): void {
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
