// An HTML page's words for the search index, from one streaming parse: htmlparser2 (the tokenizer linkedom
// itself builds its DOM from) with linkedom's options, so the text is what a DOM's textContent gives, without
// building the DOM. A linkedom tree costs a WeakMap entry and a Map per node; on 1,000 manual pages that
// and its garbage were most of the index's build time.
import { Parser } from 'htmlparser2';

// Elements whose text is navigation or code, not the page's words (with any element of role="navigation").
const DROP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'nav', 'header', 'footer']);
// Block boundaries become line breaks, so words of adjacent blocks stay apart.
const BLOCK = new Set(['p', 'div', 'br', 'li', 'dt', 'dd', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'tr', 'td', 'th', 'pre', 'section', 'article', 'blockquote', 'table', 'ul', 'ol', 'dl', 'hr']);

/**
 * Deeper nesting than this is not read: htmlparser2 keeps its open elements in an array it unshifts, so each
 * open tag costs the depth, and a page of nothing but `<div>`s (200,000 deep: 1 MB) took 9 s where 20,000
 * took 30 ms. Manual pages nest under 30 deep.
 */
export const MAX_DEPTH = 1_000;

export class TooDeep extends Error {}

const DROPPED = 1;
const BODY = 2;
const HEAD = 4;
const TITLE = 8;
const H1 = 16;

export interface HtmlText {
  /** The first `<title>`'s text, else the first `<h1>`'s; undefined when the page has neither. */
  title?: string;
  /** The text of `<body>` (of everything outside `<head>` when there is no body), dropped elements left out. */
  text: string;
}

/** Throws TooDeep for a page nested past MAX_DEPTH. */
export function htmlText(html: string): HtmlText {
  const flags: number[] = [];
  let dropped = 0;
  let body = 0;
  let head = 0;
  let bodySeen = false;
  let inTitle = 0;
  let inH1 = 0;
  let title: string[] | undefined;
  let h1: string[] | undefined;
  let titleDone = false;
  let h1Done = false;
  const inBody: string[] = [];
  const outsideHead: string[] = [];
  const emit = (s: string): void => {
    if (dropped > 0) return;
    if (body > 0) inBody.push(s);
    if (head === 0) outsideHead.push(s);
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (flags.length >= MAX_DEPTH) throw new TooDeep(`elements nested more than ${MAX_DEPTH} deep`);
        const tag = name.toLowerCase();
        if (BLOCK.has(tag)) emit('\n');
        let f = 0;
        if (DROP.has(tag) || attributes.role === 'navigation') f |= DROPPED;
        if (tag === 'body') f |= BODY;
        if (tag === 'head') f |= HEAD;
        if (tag === 'title' && !titleDone) f |= TITLE;
        if (tag === 'h1' && !h1Done) f |= H1;
        flags.push(f);
        if (f & DROPPED) dropped++;
        if (f & BODY) {
          body++;
          bodySeen = true;
        }
        if (f & HEAD) head++;
        if (f & TITLE) {
          inTitle++;
          title ??= [];
        }
        if (f & H1) {
          inH1++;
          h1 ??= [];
        }
      },
      ontext(text) {
        if (inTitle > 0) title!.push(text);
        if (inH1 > 0) h1!.push(text);
        emit(text);
      },
      onclosetag(name, implied) {
        if (!implied && BLOCK.has(name.toLowerCase())) emit('\n');
        const f = flags.pop() ?? 0;
        if (f & DROPPED) dropped--;
        if (f & BODY) body--;
        if (f & HEAD) head--;
        if (f & TITLE && --inTitle === 0) titleDone = true;
        if (f & H1 && --inH1 === 0) h1Done = true;
      },
    },
    { lowerCaseAttributeNames: false, decodeEntities: true, xmlMode: false },
  );
  parser.write(html);
  parser.end();
  const heading = title ?? h1;
  return { ...(heading ? { title: heading.join('') } : {}), text: (bodySeen ? inBody : outsideHead).join('') };
}
