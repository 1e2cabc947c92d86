/**
 * PDF text items → markdown (SPEC 4.1 "PDF text"). Pure: the worker hands over positioned text items, and
 * everything that decides what a reader sees happens here, where it can be tested without a PDF.
 *
 * - Lines: items in content-stream order (pdf.js keeps the producer's reading order), broken where pdf.js
 *   marks a line end or the baseline jumps; a space goes in where the gap between items asks for one.
 * - Footnote marks: a short run of digits or dagger signs, smaller and raised above its line, is dropped,
 *   so "as most do.5" reads "as most do." as in the HTML edition; raised digits right after a digit are an
 *   exponent and read "2^31".
 * - Running headers and footers: the topmost and bottom-most line of a page is dropped when the same text
 *   (digits aside) recurs at that edge on several pages, or when it stands apart from the body by more than
 *   a line's leading at an edge position where many pages have such a line (chapter titles that change,
 *   page numbers); a footnote at the foot of the text block is not at such a position on enough pages.
 * - Words hyphenated across a line end (or a page end) are joined, keeping the hyphen of compounds the
 *   document spells with one (see softHyphen); NFKC folds ligatures.
 * - Paragraphs: a blank line where the vertical gap is larger than the body's leading.
 * - A marker line `<!-- page N -->` before each page; markdown syntax in the text is escaped so that page
 *   text never turns into headings, links or HTML (and a literal marker in the text stays text).
 */
import type { PdfItem, PdfRaw } from './types.js';

export const MAX_PAGES = 300;
// Entries kept with the stored text; a reply shows a digest of them (src/engine/outline-digest.ts).
const OUTLINE_MAX = 400;

export interface PdfMarkdown {
  markdown: string;
  /** Pages stored. */
  pages: number;
  /** Pages of the file not read: past the cap, or outside the range asked for. */
  notRead: number;
  /** The number of the first page read (1 unless a range was asked for). */
  first: number;
  outline: string[];
  /** Outline entries whose page lies past the cap (same form as `outline`): the map of what was not read. */
  pastCap: string[];
  title: string;
}

interface Line {
  text: string;
  /** Baseline of the line's dominant item. */
  y: number;
  size: number;
}

const FOOTNOTE_MARK = /^[0-9*†‡§¶]{1,3}$/u;
const PAGE_MARKER = /^<!-- page \d+ -->$/;

export function pdfToMarkdown(raw: PdfRaw, maxPages = MAX_PAGES): PdfMarkdown {
  const first = raw.first ?? 1;
  const pages = raw.pages.slice(0, maxPages).map(pageLines);
  dropRunningLines(pages);
  const parts: string[] = [];
  const vocab = vocabulary(pages);
  // The previous page ended in a letter and a hyphen, which was taken off pending its next word.
  let pendingLine: string | undefined;
  pages.forEach((lines, i) => {
    const paragraphs = toParagraphs(lines);
    if (pendingLine !== undefined) {
      // A word hyphenated across the page break is joined on the earlier page, before the marker.
      const first = paragraphs[0];
      const m = first ? /^(\S+)\s*/u.exec(first[0] ?? '') : null;
      if (first && m && /^\p{Ll}/u.test(m[1]!)) {
        parts[parts.length - 1] += (softHyphen(pendingLine, m[1]!, vocab) ? '' : '-') + escapeInline(m[1]!);
        first[0] = first[0]!.slice(m[0].length);
        if (first[0] === '') first.shift();
      } else {
        parts[parts.length - 1] += '-';
      }
    }
    let body = paragraphs
      .filter((p) => p.length > 0)
      .map((p) => joinLines(p, vocab).map(escapeLine).join('\n'))
      .join('\n\n');
    const last = paragraphs[paragraphs.length - 1];
    pendingLine = i + 1 < pages.length && /\p{L}[-\u2010\u00ad]$/u.test(body) ? (last?.[last.length - 1] ?? '') : undefined;
    if (pendingLine !== undefined) body = body.slice(0, -1);
    parts.push(`<!-- page ${first + i} -->\n\n${body}`);
  });
  const markdown = `${parts.join('\n\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
  return {
    markdown,
    pages: pages.length,
    notRead: Math.max(0, raw.total - pages.length),
    first,
    outline: makeOutline(raw, pages, first),
    pastCap: first === 1 && raw.total > pages.length ? entryLines(raw.outline.filter((o) => o.page !== undefined && o.page > pages.length)) : [],
    title: cleanTitle(raw.title) || firstPageHeading(pages[0] ?? []),
  };
}

/**
 * The title a reader takes from a PDF whose metadata has none: the largest text at the top of the first
 * page (up to three lines of it), or its first line of words when no line stands out by size.
 */
export function firstPageHeading(lines: readonly Line[]): string {
  const words = lines.filter((l) => /\p{L}{2}/u.test(l.text));
  if (words.length === 0) return '';
  const sizes = words.map((l) => l.size).sort((a, b) => a - b);
  const median = sizes[Math.floor(sizes.length / 2)] ?? 0;
  const max = sizes[sizes.length - 1] ?? 0;
  let picked: Line[] = [words[0]!];
  if (max >= median * 1.2) {
    const start = words.findIndex((l) => l.size >= max * 0.9);
    picked = [];
    for (let i = start; i < words.length && picked.length < 3 && words[i]!.size >= max * 0.9; i++) picked.push(words[i]!);
  }
  return clip(picked.map((l) => l.text).join(' ').normalize('NFKC').replace(/\s+/gu, ' ').trim(), 200);
}

/** Lines of a page in reading order, footnote marks removed. */
export function pageLines(items: readonly PdfItem[]): Line[] {
  const groups: PdfItem[][] = [];
  let current: PdfItem[] = [];
  let baseline: number | undefined;
  let size = 0;
  for (const item of items) {
    const [str, , y, s, , eol] = item;
    if (str !== '' && baseline !== undefined && Math.abs(y - baseline) > 0.6 * Math.max(size, s, 1) && !isMark(item, baseline, size)) {
      groups.push(current);
      current = [];
      baseline = undefined;
    }
    if (str !== '') {
      current.push(item);
      if (baseline === undefined || (s >= size && str.trim() !== '')) {
        baseline = y;
        size = s;
      }
    }
    if (eol) {
      groups.push(current);
      current = [];
      baseline = undefined;
      size = 0;
    }
  }
  groups.push(current);
  const lines: Line[] = [];
  for (const g of groups) {
    const line = joinItems(g);
    if (line) lines.push(line);
  }
  return lines;
}

function isMark(item: PdfItem, baseline: number, size: number): boolean {
  const [str, , y, s] = item;
  return s > 0 && s < 0.85 * size && y > baseline + 0.12 * size && FOOTNOTE_MARK.test(str.trim());
}

/**
 * The line so far with raised digits read as an exponent, or undefined when they are a footnote mark.
 * An exponent's base is a number of up to 3 digits standing alone ("2^31 − 1", "2 × 10^−308"); after a
 * name or version ("C99", "UCS-2", "ISO/IEC 60559") raised digits mark a footnote, and a 3-digit power is
 * taken only on 2 or 10 (R's manuals: "gcc 10" with footnote 107 beside "2^129" and "10^308"). Without
 * this, trial 71 could not quote R's size limits: "limited to 2 − 1 ≈ 2 10".
 */
export function exponent(text: string, digits: string): string | undefined {
  if (!/^[0-9]{1,3}$/.test(digits)) return undefined;
  const m = /(^|[\s(±×·=≈~])([0-9]{1,3})([−-]?)$/u.exec(text);
  if (!m) return undefined;
  if (digits.length === 3 && m[2] !== '2' && m[2] !== '10') return undefined;
  return `${text.slice(0, text.length - (m[3] ?? '').length)}^${m[3] ? '−' : ''}${digits}`;
}

function joinItems(items: readonly PdfItem[]): Line | undefined {
  // The dominant item (most characters) sets the line's size and baseline.
  let dominant: PdfItem | undefined;
  for (const it of items) if (it[0].trim() !== '' && (!dominant || it[0].length > dominant[0].length)) dominant = it;
  if (!dominant) return undefined;
  const baseline = dominant[2];
  const size = dominant[3];
  let text = '';
  let prevEnd: number | undefined;
  for (const it of items) {
    if (it !== dominant && isMark(it, baseline, size)) {
      const power = exponent(text, it[0].trim());
      if (power !== undefined) {
        text = power;
        prevEnd = it[1] + it[4];
      }
      continue;
    }
    const str = it[0];
    if (prevEnd !== undefined && str !== '' && !isSpace(text.charCodeAt(text.length - 1)) && !isSpace(str.charCodeAt(0)) && it[1] - prevEnd > 0.15 * Math.max(size, 1)) text += ' ';
    text += str;
    prevEnd = it[1] + it[4];
  }
  // One NFKC pass per line rather than per item: a page has a few dozen lines and hundreds of items.
  text = text.normalize('NFKC').replace(/\s+/gu, ' ').trim();
  return text === '' ? undefined : { text, y: baseline, size };
}

const SPACE = /\s/u;
function isSpace(code: number): boolean {
  if (Number.isNaN(code)) return false;
  if (code === 32) return true;
  if (code > 32 && code < 127) return false;
  return SPACE.test(String.fromCharCode(code));
}

/**
 * Drops running headers and footers in place. Looks only at each page's topmost and bottom-most line:
 * headers and footers live there, and body text never repeats verbatim across pages at those edges.
 */
export function dropRunningLines(pages: Line[][]): void {
  if (pages.length < 3) return;
  for (const edge of ['top', 'bottom'] as const) {
    const pick = (lines: Line[]): number => {
      if (lines.length === 0) return -1;
      let at = 0;
      for (let i = 1; i < lines.length; i++) {
        const better = edge === 'top' ? lines[i]!.y > lines[at]!.y : lines[i]!.y < lines[at]!.y;
        if (better) at = i;
      }
      return at;
    };
    const picks = pages.map(pick);
    const keys = new Map<string, number>();
    // Edge positions of lines that stand apart from the body. Only those count: the last body line of
    // every full page shares one position too, and so does a footnote set at the foot of the text block.
    const positions = new Map<number, number>();
    pages.forEach((lines, p) => {
      const i = picks[p]!;
      if (i < 0) return;
      const k = edgeKey(lines[i]!.text);
      keys.set(k, (keys.get(k) ?? 0) + 1);
      if (!apart(lines, i, edge)) return;
      const y = Math.round(lines[i]!.y);
      positions.set(y, (positions.get(y) ?? 0) + 1);
    });
    const minRepeat = Math.max(3, Math.ceil(pages.length * 0.1));
    const minShared = Math.max(3, Math.ceil(pages.length * 0.3));
    pages.forEach((lines, p) => {
      const i = picks[p]!;
      if (i < 0 || lines.length < 2) return;
      const line = lines[i]!;
      const repeated = (keys.get(edgeKey(line.text)) ?? 0) >= minRepeat;
      const shared = (positions.get(Math.round(line.y)) ?? 0) >= minShared && apart(lines, i, edge);
      const pageNumber = /^(?:page\s+)?(?:\d{1,4}|[ivxlc]{1,7})(?:\s*(?:of|\/)\s*\d{1,4})?$/i.test(line.text);
      if (repeated || shared || pageNumber) lines.splice(i, 1);
    });
  }
}

function edgeKey(text: string): string {
  return text.toLowerCase().replace(/[0-9ivxlc]+\b/g, '#').replace(/[^\p{L}#]+/gu, ' ').trim();
}

/** True when the edge line stands apart from the nearest other line by more than a normal leading. */
function apart(lines: Line[], i: number, edge: 'top' | 'bottom'): boolean {
  const line = lines[i]!;
  let gap = Infinity;
  let next: Line | undefined;
  for (const other of lines) {
    if (other === line) continue;
    const d = edge === 'top' ? line.y - other.y : other.y - line.y;
    if (d > 0 && d < gap) {
      gap = d;
      next = other;
    }
  }
  return next !== undefined && gap > 1.6 * Math.max(next.size, line.size, 1);
}

/** Lines grouped into paragraphs: a break where the gap exceeds the page's usual leading or the size changes. */
function toParagraphs(lines: Line[]): string[][] {
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const d = lines[i - 1]!.y - lines[i]!.y;
    if (d > 0) gaps.push(d);
  }
  gaps.sort((a, b) => a - b);
  const leading = gaps.length > 0 ? gaps[Math.floor(gaps.length / 2)]! : 0;
  const out: string[][] = [];
  let current: string[] = [];
  lines.forEach((line, i) => {
    if (i > 0) {
      const prev = lines[i - 1]!;
      const d = prev.y - line.y;
      const sizeChange = Math.abs(prev.size - line.size) > 0.15 * Math.max(prev.size, line.size);
      if (d > leading * 1.3 + 0.5 || d < -0.5 || sizeChange) {
        out.push(current);
        current = [];
      }
    }
    current.push(line.text);
  });
  out.push(current);
  return out.filter((p) => p.length > 0);
}

/**
 * Joins words hyphenated at a line end ("com-" + "puter" → "computer"), keeping the hyphen of a compound
 * ("machine-" + "readable" → "machine-readable") when `softHyphen` says so; other lines stay lines.
 */
export function joinLines(lines: readonly string[], vocab: Vocabulary = new Set<string>()): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const prev = out[out.length - 1];
    if (prev !== undefined && /\p{L}[-\u2010\u00ad]$/u.test(prev) && /^\p{Ll}/u.test(line)) {
      const m = /^(\S+)\s*(.*)$/u.exec(line)!;
      out[out.length - 1] = (softHyphen(prev, m[1]!, vocab) ? prev.slice(0, -1) : prev) + m[1];
      if (m[2] !== '') out.push(m[2]!);
    } else {
      out.push(line);
    }
  }
  return out;
}

/** What `softHyphen` asks of the document: does this word occur in it, whole (lower case)? */
export interface Vocabulary {
  has(word: string): boolean;
}

/**
 * The document's words, looked up on demand: only line-end hyphens ask, a few hundred times in a long
 * document, so one lower-cased copy of the text and a bounded search beat indexing every word.
 */
export function vocabulary(pages: readonly Line[][]): Vocabulary {
  let text: string | undefined;
  const known = new Map<string, boolean>();
  return {
    has(word) {
      let hit = known.get(word);
      if (hit !== undefined) return hit;
      text ??= pages.map((lines) => lines.map((l) => l.text).join('\n')).join('\n').toLowerCase().replace(/\u2010/g, '-');
      hit = false;
      for (let at = text.indexOf(word); at !== -1 && !hit; at = text.indexOf(word, at + 1)) {
        hit = !isWordChar(text.charCodeAt(at - 1)) && !isWordChar(text.charCodeAt(at + word.length));
      }
      known.set(word, hit);
      return hit;
    },
  };
}

const WORD_CHAR = /[\p{L}\p{N}-]/u;
function isWordChar(code: number): boolean {
  return !Number.isNaN(code) && WORD_CHAR.test(String.fromCharCode(code));
}

/**
 * Whether the hyphen ending `line` only breaks a word (drop it) rather than belonging to it (keep it), the
 * next line starting with `next`. A soft hyphen character always breaks. A word that already holds a
 * hyphen before this one breaks only at its hyphens (TeX and most typesetters), so that one is kept. Else
 * the document decides: the joined word elsewhere in it means a break, the hyphenated one a compound.
 * Failing both, a capital inside the first part (an acronym, "DBMS-specific") means a compound, and
 * anything else a break, the far more common case in justified text.
 */
export function softHyphen(line: string, next: string, vocab: Vocabulary): boolean {
  if (line.endsWith('\u00ad')) return true;
  const head = /([\p{L}\p{N}]+(?:[-\u2010][\p{L}\p{N}]+)*)[-\u2010]$/u.exec(line)?.[1];
  const tail = /^[\p{L}\p{N}]+/u.exec(next)?.[0];
  if (!head || !tail) return true;
  if (/[-\u2010]/.test(head)) return false;
  const joined = (head + tail).toLowerCase();
  if (vocab.has(joined)) return true;
  if (vocab.has(`${head}-${tail}`.toLowerCase())) return false;
  return !/\p{Lu}/u.test(head.slice(1));
}

/** Escapes what markdown would read as syntax, so PDF text stays text (the grounding projection undoes it). */
export function escapeLine(line: string): string {
  return escapeInline(line).replace(/^[#>+=-]/, (m) => `\\${m}`);
}

function escapeInline(s: string): string {
  return s.replace(/[\\`*_[\]<~]/g, '\\$&');
}

/** The outline shown with the text: the bookmarks of the pages read (all of them for a read from page 1), else each page's first line. */
function makeOutline(raw: PdfRaw, pages: Line[][], first: number): string[] {
  const last = first + pages.length - 1;
  const lines = entryLines(first === 1 ? raw.outline : raw.outline.filter((o) => o.page !== undefined && o.page >= first && o.page <= last));
  if (lines.length === 0) {
    pages.forEach((page, i) => {
      const text = page[0]?.text;
      lines.push(text ? `p. ${first + i}: ${clip(text, 60)}` : `p. ${first + i}`);
    });
  }
  if (lines.length <= OUTLINE_MAX) return lines;
  const keep = OUTLINE_MAX - 1;
  return [...lines.slice(0, keep), `… ${lines.length - keep} more entries`];
}

/** Entries as lines: two spaces of indentation a level, the title, and ` (p. N)` when it has a page. */
function entryLines(outline: PdfRaw['outline']): string[] {
  if (outline.length === 0) return [];
  const lines: string[] = [];
  const minDepth = Math.min(...outline.map((o) => o.depth));
  for (const o of outline) {
    const title = o.title.normalize('NFKC').replace(/\s+/gu, ' ').trim();
    if (title === '') continue;
    lines.push(`${'  '.repeat(o.depth - minDepth)}${clip(title, 100)}${o.page !== undefined ? ` (p. ${o.page})` : ''}`);
  }
  return lines;
}

function cleanTitle(title: string): string {
  const t = title.normalize('NFKC').replace(/\s+/gu, ' ').trim();
  // Producers often leave a file name or a placeholder in the title field.
  if (t === '' || /\.(?:pdf|docx?|tex|dvi)$/i.test(t) || /^(?:untitled|microsoft word)/i.test(t)) return '';
  return clip(t, 200);
}

/** Passages and focus text leave the page markers out (SPEC 4.1); stored text and paging keep them. */
export function dropPageMarkers(text: string): string {
  return text
    .split('\n')
    .filter((l) => !PAGE_MARKER.test(l))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
