// Statements and claim–source pairs (SPEC 4.1): what each citation group of a report vouches for, cut
// by a rule the writer, the auditor and verify_report all share. Pure: text in, structures out.
import { createHash } from 'node:crypto';
import { normalizeForMatch, plainTextProjection } from './grounding.js';
import { isStopWord, terms } from './text.js';

export interface Statement {
  /** 1-based line of the citation group. */
  line: number;
  /** The statement as written, markdown links reduced to their text, trimmed. */
  text: string;
  ids: string[];
  context: PairContext;
}

/**
 * What makes a statement a claim when it is only a fragment: the whole sentence it stands in, the
 * sentence before it (in the same section), and for a table cell the table's header and the row's label.
 */
export interface PairContext {
  sentence: string;
  previous?: string;
  /** A table cell's: the header cells, and the header of the cell's own column. */
  header?: string[];
  column?: string;
  row?: string;
}

export interface Pair {
  pair_id: string;
  line: number;
  statement: string;
  source_id: string;
  context: PairContext;
}

/** What the claim audit judges: a cited pair, or an uncited sentence (`source_id: null`). */
export interface AuditPair {
  pair_id: string;
  line: number;
  statement: string;
  source_id: string | null;
  context?: PairContext;
}

/** The cited pairs and the uncited sentences, in report order (by line, cited first on a line). */
export function auditPairs(parsed: Pick<ParsedReport, 'pairs' | 'uncited'>): AuditPair[] {
  const all: AuditPair[] = [...parsed.pairs, ...parsed.uncited.map((u) => ({ pair_id: u.pair_id, line: u.line, statement: u.text, source_id: null, context: u.context }))];
  return all.map((p, i) => ({ p, i })).sort((a, b) => a.p.line - b.p.line || a.i - b.i).map(({ p }) => p);
}

/**
 * The context a pair shows the auditor, or undefined when the statement is its whole sentence and has
 * none before it: the previous sentence, the whole sentence, and a table's columns and row label.
 */
export function contextText(statement: string, c: PairContext | undefined): string | undefined {
  if (!c) return undefined;
  const parts: string[] = [];
  if (c.previous) parts.push(c.previous);
  if (c.sentence && normalizeStatement(c.sentence) !== normalizeStatement(statement)) parts.push(c.sentence);
  if (c.header && c.header.some((h) => h !== '')) parts.push(`[table: ${c.header.join(' | ')}${c.row ? `; row: ${c.row}` : ''}]`);
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/**
 * The words that rank a pair's passages besides its statement, or undefined when the statement ranks
 * alone. Measured on real runs (bench/pair-context.ts, against an independent judge's passages and the
 * run's own auditor's), context words pulled the first passage away from the support for statements that
 * name their subject, at every weight tried (0.1 for every pair: 305 of 342 judged pairs of trials 1–4, against 309); they help a fragment that
 * does not ("or `max_redirects`", "Read Committed is the default", a table cell). So: a table cell ranks
 * with its column and row label, and a statement of at most FRAGMENT_TERMS (2) content words with its sentence
 * and the one before.
 */
export function rankingContext(c: PairContext | undefined, statement: string): string | undefined {
  if (!c) return undefined;
  const parts = c.header ? [c.column, c.row] : contentTerms(statement) <= FRAGMENT_TERMS ? [c.previous, c.sentence] : [];
  const text = parts.filter((x): x is string => Boolean(x)).join(' ');
  return text === '' ? undefined : text;
}

const FRAGMENT_TERMS = 2;

function contentTerms(s: string): number {
  return new Set(terms(s).filter((t) => !isStopWord(t) && t.length > 1)).size;
}

/** A body sentence (or table row) that states something checkable and cites nothing (SPEC 4.1). */
export interface Uncited {
  /** Derived like a pair's id, from the sentence and no source. */
  pair_id: string;
  line: number;
  text: string;
  context: PairContext;
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
  /** Uncited checkable sentences, in report order. */
  uncited: Uncited[];
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
  /** Counts headings passed: a previous sentence is taken only from the same section. */
  section: number;
  /** In `## Open Questions`: its sentences are questions, not claims, and need no citation. */
  exempt: boolean;
  /** A table cell's place: its row's cells, the table's header cells, and its column. */
  table?: { row: string[]; header: string[]; column: number; header_row: boolean };
}

/** Splits the report body into statements, pairs and quotations (SPEC 4.1 statements and pairs). */
export function parseReport(markdown: string): ParsedReport {
  const statements: Statement[] = [];
  const quotations: Quotation[] = [];
  const uncited: Uncited[] = [];
  let previous: { section: number; sentence: string } | undefined;
  const rowsSeen = new Set<number>();
  for (const block of bodyBlocks(markdown)) {
    const before = previous && previous.section === block.section && !block.table ? previous.sentence : undefined;
    const parsed = parseBlock(block, before);
    statements.push(...parsed.statements);
    quotations.push(...parsed.quotations);
    if (block.table) {
      // A table row is one unit for citing: a row none of whose cells cites is uncited when it is checkable.
      const t = block.table;
      const line = block.lines[0] ?? 1;
      if (!block.exempt && !t.header_row && !rowsSeen.has(line)) {
        rowsSeen.add(line);
        const cells = t.row.map(cleanStatement).filter((c) => c !== '');
        const text = cells.join(' | ');
        if (!t.row.some((c) => hasGroup(c)) && checkableRow(cells)) {
          const context: PairContext = { sentence: text, header: t.header, ...(cells[0] ? { row: cells[0] } : {}) };
          uncited.push({ pair_id: pairId(text, ''), line, text, context });
        }
      }
      previous = undefined;
      continue;
    }
    if (!block.exempt) uncited.push(...parsed.uncited);
    if (parsed.last !== undefined) previous = { section: block.section, sentence: parsed.last };
  }
  const pairs: Pair[] = [];
  const seen = new Set<string>();
  for (const s of statements) {
    for (const id of s.ids) {
      const pair_id = pairId(s.text, id);
      if (seen.has(pair_id)) continue;
      seen.add(pair_id);
      pairs.push({ pair_id, line: s.line, statement: s.text, source_id: id, context: s.context });
    }
  }
  const once = new Set<string>();
  const distinct = uncited.filter((u) => !once.has(u.pair_id) && Boolean(once.add(u.pair_id)));
  return { statements, pairs, quotations, uncited: distinct };
}

function hasGroup(text: string): boolean {
  return new RegExp(CITATION_GROUP.source).test(text);
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
      current = { text: '', lines: [], section, exempt: skipUncited };
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
  let skipUncited = false;
  let section = 0;
  let header: string[] = [];
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
      if (depth <= 2) {
        skip = depth === 2 && name === 'Methods';
        skipUncited = depth === 2 && name === 'Open Questions';
      }
      section += 1;
      continue;
    }
    if (skip) continue;
    if (raw.trim() === '') {
      close();
      continue;
    }
    if (/^ {0,3}\|/.test(raw) || /^\s*\|?\s*:?-{3,}:?\s*\|/.test(raw)) {
      close();
      if (SEPARATOR.test(raw)) continue;
      const row = tableCells(raw);
      // The row above a separator line is the table's header.
      const headerRow = SEPARATOR.test(lines[i + 1] ?? '');
      if (headerRow) header = row.map((c) => cleanStatement(c));
      row.forEach((c, column) => {
        if (c === '') return;
        blocks.push({ text: c, lines: Array.from({ length: c.length }, () => n), section, exempt: skipUncited, table: { row, header, column, header_row: headerRow } });
      });
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
  return cells.map((c) => c.trim());
}

const SEPARATOR = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;

// --- sentences and statements ---------------------------------------------------------------------

interface Span {
  start: number;
  end: number;
}

function parseBlock(block: Block, previous: string | undefined): { statements: Statement[]; quotations: Quotation[]; uncited: Uncited[]; last?: string } {
  const text = block.text;
  const quotes = quoteSpans(text);
  const groups = [...text.matchAll(CITATION_GROUP)].map((m) => ({
    start: m.index ?? 0,
    end: (m.index ?? 0) + m[0].length,
    ids: [...new Set((m[1] ?? '').split(',').map((s) => s.trim()))],
  }));
  const starts = sentenceStarts(text, quotes, groups);
  const lineAt = (i: number) => block.lines[Math.min(i, block.lines.length - 1)] ?? 1;
  // Each sentence's text without its citation groups: the context of its statements.
  const uncitedText = (from: number, to: number) => cleanStatement(text.slice(from, to).replace(/\s*\[S\d+(?:\s*,\s*S\d+)*\]/g, ''));
  const sentences = starts.map((st, k) => uncitedText(st, starts[k + 1] ?? text.length));
  const cited = new Set<number>();
  /** Per cited sentence, where its last citation group ends: a clause after it cites nothing. */
  const tailFrom = new Map<number, number>();
  const contextOf = (k: number): PairContext => {
    const before = k > 0 ? sentences[k - 1] : previous;
    const t = block.table;
    return {
      sentence: sentences[k] ?? '',
      ...(before ? { previous: before } : {}),
      ...(t ? { header: t.header, ...(t.header[t.column] ? { column: t.header[t.column] } : {}), ...(t.column > 0 && t.row[0] ? { row: cleanStatement(t.row[0]) } : {}) } : {}),
    };
  };

  const statements: Statement[] = [];
  const spans: Array<Span & { ids: string[] }> = [];
  let prevEnd = -1;
  for (const g of groups) {
    let s = lastAtOrBefore(starts, g.start);
    // A group opening a sentence ("… expensive. [S7]") belongs to the sentence before it.
    if (text.slice(s, g.start).trim() === '' && s > 0) s = lastAtOrBefore(starts, s - 1);
    const k = starts.indexOf(s);
    cited.add(k);
    tailFrom.set(k, g.end);
    const from = Math.max(s, prevEnd);
    prevEnd = g.end;
    const raw = text.slice(from, g.start);
    // A table cell that holds only citations (a "Source" column) cites what the rest of its row states:
    // those rows were cited but never paired, so nothing audited them (trial 68).
    const clean = cleanStatement(raw) || (block.table && text.slice(0, g.start).replace(CITATION_GROUP, '').trim() === '' ? rowStatement(block.table.row) : '');
    if (clean === '') continue;
    statements.push({ line: lineAt(g.start), text: clean, ids: g.ids, context: contextOf(k) });
    spans.push({ start: from, end: g.start, ids: g.ids });
  }

  const quotations: Quotation[] = [];
  for (const q of quotes) {
    const words = text.slice(q.start + 1, q.end - 1).trim().split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
    if (words.length < 3) continue;
    const owner = spans.find((sp) => q.start >= sp.start && q.end <= sp.end);
    quotations.push({ line: lineAt(q.start), text: text.slice(q.start + 1, q.end - 1), ids: owner?.ids ?? [] });
  }

  const uncited: Uncited[] = [];
  if (!block.table) {
    sentences.forEach((sentence, k) => {
      if (cited.has(k) || sentence === '' || !isCheckable(sentence)) return;
      if (k < sentences.length - 1 && RUN_IN_LABEL.test(sentence)) return;
      uncited.push({ pair_id: pairId(sentence, ''), line: lineAt(starts[k] ?? 0), text: sentence, context: contextOf(k) });
    });
    // A checkable clause after a sentence's last citation ("… [S1], while 4.2 million were spent.") cites
    // nothing either (trial 65's report passed verify_report with one).
    for (const [k, from] of tailFrom) {
      const end = starts[k + 1] ?? text.length;
      if (from >= end) continue;
      const tail = uncitedText(from, end);
      if (tail === '' || !isCheckable(tail)) continue;
      uncited.push({ pair_id: pairId(tail, ''), line: lineAt(from), text: tail, context: contextOf(k) });
    }
    uncited.sort((a, b) => a.line - b.line);
  }
  const last = [...sentences].reverse().find((x) => x !== '');
  return { statements, quotations, uncited, ...(last !== undefined ? { last } : {}) };
}

// --- checkable statements -------------------------------------------------------------------------

/*
 * What needs a citation (SPEC 4.1 "uncited statements"). A sentence is checkable when, besides being a
 * statement (not a question) of at least MIN_WORDS words, it holds any of:
 *   - a number, date or version: a digit anywhere ("3.12", "2024", "50%"), or a count in words
 *     ("three", "twelve", "hundred"), as in "Three qualifications apply", unless a determiner makes it a
 *     reference to what the text already named ("The three clients differ most in their defaults");
 *   - a quotation: a span in double quotes;
 *   - a code term: a span in backticks ("depends on `PRAGMA synchronous`"), or a dotted name without
 *     them ("urllib.request");
 *   - a named thing, of which the rest of the sentence states a property or behaviour: a word with a
 *     capital after its first letter ("SQLite", "PostgreSQL", "macOS"), an acronym of 2+ capitals ("WAL"),
 *     a capitalised possessive ("Python's"), or a capitalised word that does not open the sentence (or a
 *     clause after a colon) and is not "I" ("rests on Linux file locks").
 * Not checkable: a sentence with none of these ("The checkpoints differ in what they do, who runs them
 * and what holds them back"), a question, and, unless it holds a quotation, a sentence about the report
 * ("The sections below compare …", "as follows", "Confidence is high for …", "Suppose …") or one saying what
 * the evidence lacks ("None of the stored pages says where `-c` falls"): no passage supports an absence.
 * Tuned on two real-model trial reports: of 19 sentences the first version flagged, the ten left are claims
 * a reader can check, two of them borderline. A table row is one unit: checkable when
 * it holds a number, quotation, code term or named thing, or at least MIN_WORDS words over 2+ cells.
 * What is missed on purpose: a claim about a common noun with none of the marks ("Serialization anomalies
 * remain possible"); telling it from connective prose needs more than surface features, and a reader
 * forced to cite connective prose would learn to ignore the check.
 */
const MIN_WORDS = 3;
/**
 * A run-in label: a wholly bold sentence with more of its paragraph after it ("**Modes and blocking in
 * SQLite.** Readers …"). It names what follows, like a heading, and claims nothing.
 */
const RUN_IN_LABEL = /^(\*\*|__)[^*_]+\1$/;
/** Capitalised possessives that name no particular thing. */
const NOT_NAMES = new Set(['today', 'everyone', 'everybody', 'nobody', 'one', 'someone', 'somebody', 'anyone', 'each']);
const NUMBER_WORDS = new Set(
  'two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million billion trillion dozen twice thrice'.split(' '),
);
const ABOUT_THE_REPORT = /\b(?:this|the following|the) (?:report|section|sections|table|list)\b|\b(?:below|above|as follows)\b|^(?:see|in short|in summary|to summari[sz]e|suppose|imagine|confidence is|confidence in)\b/i;
// A sentence about the evidence itself, saying what it does not hold ("None of the stored pages says …",
// "The documentation does not settle …"): no passage can support an absence, and it is no claim about the
// subject. It is exempt only when it has a negation and names the evidence.
const ABOUT_THE_EVIDENCE = /\b(?:sources?|pages?|documents?|documentation|docs|reference|manual|copy|copies|evidence|releases?)\b/i;
/**
 * A dotted name: a module, attribute or host written without backticks ("urllib.request", "os.path",
 * "docs.python.org"), each part two characters or more so that "e.g." and "U.S." are not names. A
 * lower-case library name has no capital to find it by: trial 74's "only aiohttp applies a time limit …;
 * urllib.request and requests do not" passed verify_report uncited.
 */
const DOTTED_NAME = /(?<![\p{L}\p{N}_.])[\p{L}_][\p{L}\p{N}_]+(?:\.[\p{L}_][\p{L}\p{N}_]+)+(?![\p{L}\p{N}_])/u;
const DETERMINERS = new Set(['the', 'these', 'those', 'its', 'their', 'both', 'all', 'our', 'my', 'your', 'his', 'her', 'first', 'last', 'other']);

export function isCheckable(sentence: string): boolean {
  const plain = sentence.replace(/[*_]{1,3}(?=\S)|(?<=\S)[*_]{1,3}/g, '').trim();
  if (/\?["'\u201d\u2019)]*$/.test(plain)) return false;
  const words = plain.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
  if (words.length < MIN_WORDS) return false;
  const quotation = /"[^"]+"|\u201c[^\u201d]+\u201d/.test(plain);
  const code = /`[^`]+`/.test(plain);
  if (quotation) return true;
  if (ABOUT_THE_REPORT.test(plain) || ABOUT_THE_EVIDENCE.test(plain) && /\b(?:no|not|neither|nor|none|lacks?|without|never)\b|n't\b/i.test(plain)) return false;
  if (quotation || code) return true;
  if (/\p{N}/u.test(plain)) return true;
  if (DOTTED_NAME.test(plain)) return true;
  // "Three qualifications apply" counts; "the three clients" refers to what the text already named.
  const bare = words.map((w) => w.toLowerCase().replace(/[^\p{L}]/gu, ''));
  if (bare.some((w, i) => NUMBER_WORDS.has(w) && !DETERMINERS.has(bare[i - 1] ?? ''))) return true;
  return hasNamedThing(plain);
}

function hasNamedThing(sentence: string): boolean {
  const tokens = sentence.split(/\s+/);
  let opening = true;
  for (const raw of tokens) {
    const w = raw.replace(/^[("'\u201c\u2018[]+/, '').replace(/[)"'\u201d\u2019\].,;:!?]+$/, '');
    if (w !== '' && /\p{L}/u.test(w)) {
      if (/^\p{L}[\p{L}\p{N}]*\p{Lu}/u.test(w) && /\p{Ll}/u.test(w)) return true; // SQLite, macOS, PostgreSQL
      if (/^\p{Lu}{2,}\d*s?$/u.test(w)) return true; // WAL, HTTP2, APIs
      const possessive = /^(\p{Lu}\p{Ll}+)['\u2019]s$/u.exec(w);
      if (possessive && !isStopWord((possessive[1] ?? '').toLowerCase()) && !NOT_NAMES.has((possessive[1] ?? '').toLowerCase())) return true; // Python's
      if (!opening && /^\p{Lu}/u.test(w) && w !== 'I') return true;
      opening = false;
    }
    // After a colon or a dash a new clause opens, whose first word may be capitalised.
    if (/[:;]$/.test(raw) || raw === '—' || raw === '–') opening = true;
  }
  return false;
}

/** What a row states apart from its citations: its other cells, cleaned, joined as the uncited rows are. */
function rowStatement(row: readonly string[]): string {
  return row
    .map((c) => cleanStatement(c.replace(CITATION_GROUP, '')))
    .filter((c) => c !== '')
    .join(' | ');
}

/** A table row: its cells, markup reduced. */
function checkableRow(cells: string[]): boolean {
  const text = cells.join(' ');
  if (/\p{N}|`|"|\u201c/u.test(text)) return true;
  const words = text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
  if (cells.length >= 2 && words.length >= MIN_WORDS) return true;
  return cells.some((c) => hasNamedThing(`x ${c}`));
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
  // A code span is one term, whatever it holds: `SELECT ... FOR UPDATE` ends no sentence.
  const code = [...text.matchAll(/(`+)[^`]+?\1/g)].map((m) => ({ start: m.index ?? 0, end: (m.index ?? 0) + m[0].length }));
  const inside = (i: number) =>
    quotes.some((q) => i > q.start && i < q.end - 1) || groups.some((g) => i >= g.start && i < g.end) || code.some((c) => i > c.start && i < c.end);
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
