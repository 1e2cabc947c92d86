// Ground truth for bench/pair-context.ts from an independent judge (issue 17): a second model judged a
// trial's report against its stored sources without ever seeing audit_report's passages, and its table
// names, per claim–source pair, the passage it relied on. This module reads that table, aligns its rows
// with the report's pairs, and decides whether a passage holds what the judge relied on. Pure functions.
//
// The judge table (trial-N/judge.md) has rows `| # | Statement (abridged) | Src | Label | Reason |`. From the
// reason, in this order of preference:
//   - quoted text ("…" or “…”, three words or more): the judge's words from the source; failing that,
//     "Verbatim": the report's own quotation in the statement (or the statement itself);
//   - line references ("S6 L245", "L310-343", "line 63"): those lines of sources/S<n>.md (frontmatter included);
//   - with neither, "#n" ("Same passage as #4", "as #10"): row n's evidence.
// A passage holding either the quotes or one of the lines holds the support. A row with none of these names
// no passage and is not counted.
import { projectForMatching } from '../src/engine/grounding.js';
import { terms } from '../src/engine/text.js';
import type { Pair } from '../src/engine/statements.js';

export interface JudgeRow {
  n: number;
  statement: string;
  source: string;
  label: string;
  reason: string;
}

/** What the judge relied on: its quotes, the source lines it cited, or both (a passage holding either counts). */
export interface Evidence {
  quotes: string[];
  lines?: { source: string; lines: Array<[number, number]> };
}

/** Rows of every judge table in `markdown` whose first cell is a number. */
export function parseJudgeTable(markdown: string): JudgeRow[] {
  const rows: JudgeRow[] = [];
  for (const line of markdown.split('\n')) {
    const m = /^\|\s*(\d+)\s*\|(.*)\|\s*$/.exec(line);
    if (!m) continue;
    const cells = (m[2] ?? '').split(/(?<!\\)\|/).map((c) => c.trim());
    if (cells.length < 4) continue;
    const [statement, source, label, ...rest] = cells as [string, string, string, ...string[]];
    if (!/^S\d+$/.test(source)) continue;
    rows.push({ n: Number(m[1]), statement, source, label: label.replace(/\*/g, ''), reason: rest.join('|') });
  }
  return rows;
}

const QUOTED = /"([^"]+)"|“([^”]+)”/g;

function quotesIn(text: string): string[] {
  // A quote of one or two words is the judge naming a term or a heading, not a passage.
  return [...text.matchAll(QUOTED)].map((m) => (m[1] ?? m[2] ?? '').trim()).filter((q) => words(q).length >= 3);
}

/** What the judge relied on for `row`, or undefined when it names no passage. */
export function evidenceOf(row: JudgeRow, rows: readonly JudgeRow[], pair: Pick<Pair, 'statement'> | undefined, depth = 0): Evidence | undefined {
  let quotes = quotesIn(row.reason);
  if (quotes.length === 0 && /\bverbatim\b/i.test(row.reason)) {
    quotes = quotesIn(pair?.statement ?? '');
    if (quotes.length === 0) quotes = quotesIn(row.statement);
    if (quotes.length === 0 && pair) quotes = [pair.statement];
  }
  const lines: Array<[number, number]> = [];
  let source = row.source;
  for (const m of row.reason.matchAll(/(?:\b(S\d+)\s+)?(?:\bL|\bline\s+)(\d+)(?:\s*[-–]\s*L?(\d+))?/gi)) {
    if (m[1]) source = m[1];
    const a = Number(m[2]);
    lines.push([a, m[3] ? Math.max(a, Number(m[3])) : a]);
  }
  if (quotes.length === 0 && lines.length === 0) {
    const ref = /#(\d+)/.exec(row.reason);
    const other = ref && depth < 3 ? rows.find((r) => r.n === Number(ref[1])) : undefined;
    return other && other !== row ? evidenceOf(other, rows, undefined, depth + 1) : undefined;
  }
  return { quotes, ...(lines.length > 0 ? { lines: { source, lines } } : {}) };
}

function words(text: string): string[] {
  return terms(projectForMatching(text));
}

/** Length of the longest common subsequence of two word lists. */
function lcs(a: readonly string[], b: readonly string[]): number {
  let prev = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    const cur = new Array<number>(b.length + 1).fill(0);
    for (let j = 0; j < b.length; j++) cur[j + 1] = x === b[j] ? (prev[j] as number) + 1 : Math.max(prev[j + 1] as number, cur[j] as number);
    prev = cur;
  }
  return prev[b.length] as number;
}

/** Length of the longest run of consecutive words the two lists share. */
function longestRun(a: readonly string[], b: readonly string[]): number {
  let best = 0;
  let prev = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    const cur = new Array<number>(b.length + 1).fill(0);
    for (let j = 0; j < b.length; j++) if (x === b[j]) best = Math.max(best, (cur[j + 1] = (prev[j] as number) + 1));
    prev = cur;
  }
  return best;
}

/** Share of a quote's words, in order, that a passage must hold. */
export const QUOTE_SHARE = 0.6;
/** Consecutive words a passage must share with a referenced line (or the whole line, if shorter). */
export const LINE_RUN = 8;

/**
 * Whether `passage` holds the judge's evidence, both after the grounding normalisation and cut into
 * words: for quotes, at least QUOTE_SHARE of all the quotes' words in order, including a run of
 * min(4, words) consecutive ones (so that scattered common words never count); for line references, a run
 * of LINE_RUN consecutive words (or the whole line when shorter) of one referenced line.
 */
export function holds(passage: string | undefined, evidence: Evidence, sourceLines: (id: string) => string[] | undefined): boolean {
  if (passage === undefined || passage === '') return false;
  const p = words(passage);
  const pieces = evidence.quotes.map(words).filter((q) => q.length > 0);
  const q = pieces.flat();
  if (q.length > 0) {
    // A quote the judge broke with inner quotation marks comes in pieces: the run is asked of the longest.
    const run = Math.min(4, Math.max(...pieces.map((x) => x.length)));
    if (lcs(q, p) >= QUOTE_SHARE * q.length && pieces.some((x) => longestRun(x, p) >= run)) return true;
  }
  const lines = evidence.lines ? sourceLines(evidence.lines.source) : undefined;
  if (!evidence.lines || !lines) return false;
  for (const [a, b] of evidence.lines.lines) {
    for (let i = a; i <= b && i <= lines.length; i++) {
      const l = words(lines[i - 1] ?? '');
      if (l.length > 0 && longestRun(l, p) >= Math.min(LINE_RUN, l.length)) return true;
    }
  }
  return false;
}

/**
 * Judge rows aligned with the report's pairs, in order (both lists follow the report): a row goes with a
 * pair of the same source whose statement (or sentence) holds most of the row's abridged statement's words;
 * the alignment maximises the total overlap and keeps both orders. Rows below a third overlap stay unmatched.
 */
export function alignRows(rows: readonly JudgeRow[], pairs: readonly Pair[]): Array<{ row: JudgeRow; pair: Pair }> {
  const overlap = (r: JudgeRow, p: Pair): number => {
    if (r.source !== p.source_id) return 0;
    const want = new Set(words(r.statement).filter((w) => w.length > 2));
    if (want.size === 0) return 0;
    const have = new Set(words(`${p.statement} ${p.context.sentence}`));
    const own = new Set(words(p.statement));
    let n = 0;
    for (const w of want) n += own.has(w) ? 1 : have.has(w) ? 0.5 : 0;
    const s = n / want.size;
    return s >= 1 / 3 ? s : 0;
  };
  const R = rows.length;
  const P = pairs.length;
  const best: number[][] = Array.from({ length: R + 1 }, () => new Array<number>(P + 1).fill(0));
  for (let i = R - 1; i >= 0; i--) {
    for (let j = P - 1; j >= 0; j--) {
      const s = overlap(rows[i] as JudgeRow, pairs[j] as Pair);
      best[i]![j] = Math.max(best[i + 1]![j]!, best[i]![j + 1]!, s > 0 ? s + best[i + 1]![j + 1]! : 0);
    }
  }
  const out: Array<{ row: JudgeRow; pair: Pair }> = [];
  let i = 0;
  let j = 0;
  while (i < R && j < P) {
    const s = overlap(rows[i] as JudgeRow, pairs[j] as Pair);
    if (s > 0 && best[i]![j] === s + best[i + 1]![j + 1]!) {
      out.push({ row: rows[i] as JudgeRow, pair: pairs[j] as Pair });
      i++;
      j++;
    } else if (best[i]![j] === best[i + 1]![j]) i++;
    else j++;
  }
  return out;
}
