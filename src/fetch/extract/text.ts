/** Plain text out of a DOM or markdown: the walk used when turndown cannot run, and the normalisers. */
import { stripClosingHashes } from '../passages.js';
import { ELEMENT_NODE, TEXT_NODE } from './dom.js';
import type { DomElement, DomNode } from './dom.js';
import type { Extracted } from './types.js';

/** text/plain and markdown, stored as sent. */
export function passthrough(body: string, url: string): Extracted {
  const markdown = tidy(body);
  return { title: firstMarkdownHeading(markdown) ?? url, markdown, usedFallback: false, method: 'passthrough' };
}

export const SKIP_TEXT = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'svg', 'CANVAS', 'IFRAME', 'OBJECT', 'EMBED', 'HEAD']);
export const BLOCKS = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BR', 'DD', 'DIV', 'DL', 'DT', 'FIELDSET', 'FIGCAPTION', 'FIGURE',
  'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HR', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE',
  'SECTION', 'TABLE', 'TD', 'TH', 'TR', 'UL',
]);
const BLOCK_END = null;

/** Text of `root` by an explicit-stack walk, so no nesting depth can overflow the call stack. */
export function plainText(root: DomNode): string {
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
export function tidy(md: string): string {
  return md
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/(^|[^!])\[\]\([^)\s]{0,4096}\)/g, '$1')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function firstMarkdownHeading(md: string): string | undefined {
  for (const line of md.split('\n', 2000)) {
    const m = /^ {0,3}#{1,6}[ \t]/.exec(line);
    if (!m) continue;
    const title = clean(stripClosingHashes(line.slice(m[0].length, m[0].length + 1000)));
    if (title) return title;
  }
  return undefined;
}

export function clean(s: string | null | undefined): string {
  const t = (s ?? '').replace(/\s+/g, ' ').trim();
  return t.length > 300 ? `${t.slice(0, 300)}…` : t;
}

/** Lower-cased letters and digits, one space between runs: text compared across two parses. */
export function words(s: string | null | undefined): string {
  return (s ?? '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

export function linkChars(el: DomElement): number {
  return Array.from(el.querySelectorAll('a')).reduce((n, a) => n + words((a as DomElement).textContent).length, 0);
}
