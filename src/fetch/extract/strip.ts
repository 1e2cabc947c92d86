/** Page text without a DOM, for pages too large or too hostile to parse. */
import { tidy } from './text.js';
import type { Extracted } from './types.js';

/** A page stored as its tag-stripped text: too much markup to parse, or its extraction failed or ran out of time. */
export function strippedPage(html: string, url: string): Extracted {
  return { title: url, markdown: stripTags(html), usedFallback: true, method: 'text' };
}

const RAW_TEXT = /^<(script|style|noscript|template|textarea|title|svg)[\s>/]/;
const BLOCK_TAG = /^<\/?(p|div|br|li|dt|dd|h[1-6]|tr|td|th|section|article|header|footer|blockquote|pre|table|ul|ol|hr)[\s>/]/;

/**
 * Text of an HTML string without building a DOM, in one pass: tags dropped (block tags become paragraph
 * breaks), script-like elements skipped, a '<' that opens no tag kept as text, common entities decoded.
 */
export function stripTags(html: string): string {
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
