// Statements and claim–source pairs (SPEC 4.1): what each citation group of a report vouches for, cut
// by a rule the writer, the auditor and verify_report all share. Pure: text in, structures out.
import { createHash } from 'node:crypto';
import { normalizeForMatch, plainTextProjection } from './grounding.js';

export interface Statement {
  /** 1-based line of the citation group. */
  line: number;
  /** The statement as written, markdown links reduced to their text, trimmed. */
  text: string;
  ids: string[];
}

export interface Pair {
  pair_id: string;
  line: number;
  statement: string;
  source_id: string;
}

export interface Quotation {
  line: number;
  text: string;
  /** The ids of the group that follows it within its statement; empty when none does. */
  ids: string[];
}

export interface ParsedReport {
  statements: Statement[];
  /** One per distinct (statement, source id), in report order. */
  pairs: Pair[];
  quotations: Quotation[];
}

export const CITATION_GROUP = /\[(S\d+(?:\s*,\s*S\d+)*)\]/g;

// Words after which a period does not end a sentence (lower-cased, with their periods).
const ABBREVIATIONS = new Set([
  'e.g.', 'i.e.', 'al.', 'et al.', 'etc.', 'cf.', 'vs.', 'fig.', 'figs.', 'no.', 'nos.', 'vol.', 'pp.', 'p.',
  'ch.', 'sec.', 'eq.', 'ref.', 'approx.', 'ca.', 'mr.', 'mrs.', 'ms.', 'dr.', 'prof.', 'st.', 'jr.', 'sr.',
  'inc.', 'ltd.', 'co.', 'corp.', 'dept.', 'est.', 'jan.', 'feb.', 'mar.', 'apr.', 'jun.', 'jul.', 'aug.',
  'sep.', 'sept.', 'oct.', 'nov.', 'dec.',
]);

/** A block of prose: a paragraph, a list item or a table cell, with the report line of each character. */
interface Block {
  text: string;
  lines: number[];
}

/** Splits the report body into statements, pairs and quotations (SPEC 4.1 statements and pairs). */
export function parseReport(markdown: string): ParsedReport {
  const statements: Statement[] = [];
  const quotations: Quotation[] = [];
  for (const block of bodyBlocks(markdown)) {
    const { statements: s, quotations: q } = parseBlock(block);
    statements.push(...s);
    quotations.push(...q);
  }
  const pairs: Pair[] = [];
  const seen = new Set<string>();
  for (const s of statements) {
    for (const id of s.ids) {
      const pair_id = pairId(s.text, id);
      if (seen.has(pair_id)) continue;
      seen.add(pair_id);
      pairs.push({ pair_id, line: s.line, statement: s.text, source_id: id });
    }
  }
  return { statements, pairs, quotations };
}

/** Derived from the normalised statement and the source id only, so it survives edits elsewhere. */
export function pairId(statement: string, sourceId: string): string {
  const digest = createHash('sha256').update(`${normalizeStatement(statement)}\u0000${sourceId}`).digest('hex');
  return `P${digest.slice(0, 10)}`;
}

function normalizeStatement(s: string): string {
  return normalizeForMatch(plainTextProjection(s)).replace(/^[\s,;:.\-–—]+|[\s,;:.!?\-–—]+$/gu, '');
}

// --- blocks -----------------------------------------------------------------------------------------

/** The body: everything above `## Sources`, less frontmatter, headings, code blocks and Methods. */
function bodyBlocks(markdown: string): Block[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let current: Block | undefined;
  let kind: 'paragraph' | 'item' | undefined;
  const close = () => {
    if (current && current.text.trim() !== '') blocks.push(current);
    current = undefined;
    kind = undefined;
  };
  const append = (text: string, line: number, k: 'paragraph' | 'item', fresh: boolean) => {
    if (fresh || !current || kind !== k) {
      close();
      current = { text: '', lines: [] };
      kind = k;
    } else {
      current.text += ' ';
      current.lines.push(line);
    }
    current.text += text;
    for (let i = 0; i < text.length; i++) current.lines.push(line);
  };

  let fence: string | undefined;
  let skip = false;
  let start = 0;
  if (lines[0] === '---') {
    const end = lines.indexOf('---', 1);
    if (end > 0) start = end + 1;
  }
  for (let i = start; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    const n = i + 1;
    const fenceMatch = /^ {0,3}(`{3,}|~{3,})/.exec(raw);
    if (fence !== undefined) {
      if (fenceMatch && fenceMatch[1]?.[0] === fence[0] && (fenceMatch[1]?.length ?? 0) >= fence.length) fence = undefined;
      continue;
    }
    if (fenceMatch) {
      close();
      fence = fenceMatch[1];
      continue;
    }
    const heading = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/.exec(raw);
    if (heading) {
      close();
      const depth = heading[1]?.length ?? 0;
      const name = (heading[2] ?? '').replace(/[ \t]+#+$/, '').trim();
      if (depth === 2 && name === 'Sources') break;
      if (depth <= 2) skip = depth === 2 && name === 'Methods';
      continue;
    }
    if (skip) continue;
    if (raw.trim() === '') {
      close();
      continue;
    }
    if (/^ {0,3}\|/.test(raw) || /^\s*\|?\s*:?-{3,}:?\s*\|/.test(raw)) {
      close();
      if (/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(raw)) continue;
      for (const c of tableCells(raw)) blocks.push({ text: c, lines: Array.from({ length: c.length }, () => n) });
      continue;
    }
    const quote = raw.replace(/^ {0,3}(?:>[ \t]?)+/, '');
    const item = /^\s*(?:[-*+]|\d{1,9}[.)])[ \t]+/.exec(quote);
    if (item) {
      append(quote.slice(item[0].length), n, 'item', true);
      continue;
    }
    // A line right below a list item continues it (indented or lazy); otherwise it is paragraph text.
    if (kind === 'item') append(quote.trim(), n, 'item', false);
    else append(quote.trim(), n, 'paragraph', false);
  }
  close();
  return blocks;
}

function tableCells(row: string): string[] {
  const cells: string[] = [];
  let cur = '';
  const body = row.trim().replace(/^\|/, '').replace(/(?<!\\)\|$/, '');
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch === '\\' && body[i + 1] === '|') {
      cur += '|';
      i++;
    } else if (ch === '|') {
      cells.push(cur);
      cur = '';
    } else cur += ch;
  }
  cells.push(cur);
  return cells.map((c) => c.trim()).filter((c) => c !== '');
}

// --- sentences and statements ---------------------------------------------------------------------

interface Span {
  start: number;
  end: number;
}

function parseBlock(block: Block): { statements: Statement[]; quotations: Quotation[] } {
  const text = block.text;
  const quotes = quoteSpans(text);
  const groups = [...text.matchAll(CITATION_GROUP)].map((m) => ({
    start: m.index ?? 0,
    end: (m.index ?? 0) + m[0].length,
    ids: [...new Set((m[1] ?? '').split(',').map((s) => s.trim()))],
  }));
  const starts = sentenceStarts(text, quotes, groups);
  const lineAt = (i: number) => block.lines[Math.min(i, block.lines.length - 1)] ?? 1;

  const statements: Statement[] = [];
  const spans: Array<Span & { ids: string[] }> = [];
  let prevEnd = -1;
  for (const g of groups) {
    let s = lastAtOrBefore(starts, g.start);
    // A group opening a sentence ("… expensive. [S7]") belongs to the sentence before it.
    if (text.slice(s, g.start).trim() === '' && s > 0) s = lastAtOrBefore(starts, s - 1);
    const from = Math.max(s, prevEnd);
    prevEnd = g.end;
    const raw = text.slice(from, g.start);
    const clean = cleanStatement(raw);
    if (clean === '') continue;
    statements.push({ line: lineAt(g.start), text: clean, ids: g.ids });
    spans.push({ start: from, end: g.start, ids: g.ids });
  }

  const quotations: Quotation[] = [];
  for (const q of quotes) {
    const words = text.slice(q.start + 1, q.end - 1).trim().split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
    if (words.length < 3) continue;
    const owner = spans.find((sp) => q.start >= sp.start && q.end <= sp.end);
    quotations.push({ line: lineAt(q.start), text: text.slice(q.start + 1, q.end - 1), ids: owner?.ids ?? [] });
  }
  return { statements, quotations };
}

function cleanStatement(raw: string): string {
  return plainLinks(raw)
    .replace(/\s+/g, ' ')
    .replace(/^[\s,;:]+/, '')
    .replace(/[\s,;:]+$/, '')
    .trim();
}

/** `[text](url)` → `text`, images to their alt text; nothing else of the markup changes. */
function plainLinks(s: string): string {
  return s.replace(/!?\[([^\]]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g, '$1');
}

/** Double-quoted spans, straight or curly, paired left to right; unpaired marks are ignored. */
function quoteSpans(text: string): Span[] {
  const spans: Span[] = [];
  let open: { at: number; close: string } | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (open) {
      if (ch === open.close || (open.close === '"' && ch === '"')) {
        spans.push({ start: open.at, end: i + 1 });
        open = undefined;
      }
    } else if (ch === '"') open = { at: i, close: '"' };
    else if (ch === '\u201c') open = { at: i, close: '\u201d' };
  }
  return spans;
}

/** Offsets where sentences begin: 0, and after `.`, `?` or `!` + space that is not an abbreviation. */
function sentenceStarts(text: string, quotes: Span[], groups: Span[]): number[] {
  const inside = (i: number) => quotes.some((q) => i > q.start && i < q.end - 1) || groups.some((g) => i >= g.start && i < g.end);
  const starts = [0];
  for (const m of text.matchAll(/[.?!]+["'\u201d\u2019)\]*_]*(?=\s|$)/g)) {
    const at = m.index ?? 0;
    if (inside(at)) continue;
    if (text[at] === '.' && m[0].startsWith('.') && !m[0].startsWith('..') && isAbbreviation(text, at)) continue;
    const next = at + m[0].length;
    const rest = /^\s*/.exec(text.slice(next))?.[0].length ?? 0;
    if (next + rest < text.length) starts.push(next + rest);
  }
  return starts;
}

function isAbbreviation(text: string, dot: number): boolean {
  const before = text.slice(0, dot + 1);
  const token = /(\S+)$/.exec(before)?.[1] ?? '';
  const word = token.replace(/^[("'\u201c\u2018[]+/, '');
  const lower = word.toLowerCase();
  if (ABBREVIATIONS.has(lower)) return true;
  if (/^al\.$/.test(lower) && /\bet\s+al\.$/i.test(before)) return true;
  // Initials and dotted acronyms: "J.", "U.S.", "U.K.".
  if (/^(?:\p{Lu}\.)+$/u.test(word)) return true;
  return false;
}

function lastAtOrBefore(sorted: number[], v: number): number {
  let best = sorted[0] ?? 0;
  for (const x of sorted) {
    if (x <= v) best = x;
    else break;
  }
  return best;
}
