// A PDF's stored text has no markdown headings: a section title is a plain line ("5.5 Creating shared
// objects"). The number check looks in the headings above a quote (a changelog's version, a manual's
// section), so for such text the numbered lines above the quote stand in for them.
import { projectForMatching, quoteNeedles } from './grounding.js';
import { pageMemo } from './page-memo.js';

/** A numbered section title on a line of its own: "5.5 Creating shared objects", "2. Scope", "A.1 Syntax". */
const NUMBERED_TITLE = /^(?:[A-Z]|\d+)(?:\.\d+)*\.?\s+\p{Lu}[^.!?:;]{0,80}$/u;

/**
 * The numbered title lines above `quote` where it occurs in `text`, nearest first: the nearest one, then
 * each nearer-to-the-top one of a shallower level ("5.5 …", then "5 …"). Searched paragraph by paragraph
 * (blank-line separated); a title joined to its paragraph's first line counts too.
 */
export function numberedHeadingsAbove(quote: string, text: string): string[] {
  const { lines, paragraphs } = paragraphsOf(text);
  const out: string[] = [];
  for (const k of holding(quote, text)) {
    for (const h of titlesAbove(lines, (paragraphs[k] as Paragraph).start)) if (!out.includes(h)) out.push(h);
  }
  return out;
}

/** The indexes of the paragraphs of `text` that hold `quote`. */
function holding(quote: string, text: string): number[] {
  const needles = quoteNeedles(quote);
  if (needles.length === 0) return [];
  return paragraphsOf(text).paragraphs.flatMap((p, k) => (needles.some((n) => p.projected.includes(n)) ? [k] : []));
}

/** A blank-line separated paragraph: its first line, the line after its last, and its projection. */
interface Paragraph {
  start: number;
  end: number;
  projected: string;
}

interface Paragraphs {
  lines: string[];
  paragraphs: Paragraph[];
}

// Every fact of a round asks about the same few pages: each page's paragraphs are projected once, not
// once per fact (that was 50 ms of a 60 ms record_round).
const paragraphsOf = pageMemo(16, (text: string): Paragraphs => {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const paragraphs: Paragraph[] = [];
  let start = 0;
  for (let i = 0; i <= lines.length; i++) {
    if (i < lines.length && lines[i]!.trim() !== '') continue;
    if (i > start) paragraphs.push({ start, end: i, projected: projectForMatching(lines.slice(start, i).join('\n')) });
    start = i + 1;
  }
  return { lines, paragraphs };
});

function titlesAbove(lines: readonly string[], from: number): string[] {
  const out: string[] = [];
  let depth = Infinity;
  for (let i = from; i >= 0 && depth > 1; i--) {
    const line = (lines[i] ?? '').trim();
    if (!NUMBERED_TITLE.test(line)) continue;
    const d = (/^\S+/.exec(line)?.[0] ?? '').replace(/\.$/, '').split('.').length;
    if (d >= depth) continue;
    depth = d;
    out.push(line);
  }
  return out;
}

/** A label line: one short line that names what the paragraph under it is about. */
const LABEL_CHARS = 60;
/** At most this many label paragraphs directly above a quote's paragraph count. */
const LABELS = 2;
/** A list's lead-in: one line ending in a colon, its items below it ("For versions of Python prior to 3.2, the behaviour is as follows:"). */
const LEAD_IN_CHARS = 200;
/** Items of one list walked over to its lead-in. */
const LIST_ITEMS = 12;
const LIST_ITEM = /^(?:[-*+•]|\d{1,3}[.)])\s/u;

/**
 * The short one-line paragraphs directly above `quote`'s paragraph, nearest first, at most LABELS and
 * none past a longer paragraph: an option a manual describes ("--min-vsize=N" above "For expert use only:
 * set the initial trigger sizes…"), a changelog entry's section numbers and date ("6.5 & 6.6", "Released
 * December, 2022."). Three trials were warned that such a term or number was not above their quote.
 * A quote in a list item also counts the lead-in line that introduces the list, over the items before
 * it: each item is stated under it (trial 32 was warned for "3.2" of "prior to 3.2, … as follows:").
 */
export function labelLinesAbove(quote: string, text: string): string[] {
  const { lines, paragraphs } = paragraphsOf(text);
  const out: string[] = [];
  const add = (line: string) => {
    if (!out.includes(line)) out.push(line);
  };
  for (const k of holding(quote, text)) {
    const within = termLines(lines, paragraphs[k] as Paragraph, quote);
    for (const line of within) add(line);
    // The terms of the quote's own entry stand for the labels above its paragraph.
    if (within.length > 0) continue;
    for (let j = k - 1; j >= 0 && k - j <= LABELS; j--) {
      const { start, end } = paragraphs[j] as Paragraph;
      const line = (lines[start] ?? '').trim();
      if (end - start !== 1 || line.length > LABEL_CHARS) break;
      add(line);
    }
    const lead = leadIn(lines, paragraphs, k);
    if (lead !== undefined) add(lead);
  }
  return out;
}

/** Lines of a paragraph searched for where a quote starts in it; a longer paragraph is prose, not a list entry. */
const ENTRY_LINES = 40;

/**
 * The short lines of paragraph `p` directly above the line `quote` starts on, nearest first, at most
 * LABELS and none past a longer line. A PDF sets a definition list's term on a line of its own with no
 * blank line under it ("--min-vsize=N", "--min-nsize=N", then "For expert use only: set the initial
 * trigger sizes…"): trial 71 was warned that the options it quoted were not above its quote.
 */
function termLines(lines: readonly string[], p: Paragraph, quote: string): string[] {
  if (p.end - p.start < 2 || p.end - p.start > ENTRY_LINES) return [];
  const needles = quoteNeedles(quote);
  let at = p.start;
  for (let i = p.end - 1; i > p.start; i--) {
    const projected = projectForMatching(lines.slice(i, p.end).join('\n'));
    if (needles.some((n) => projected.includes(n))) {
      at = i;
      break;
    }
  }
  const out: string[] = [];
  for (let j = at - 1; j >= p.start && at - j <= LABELS; j--) {
    const line = (lines[j] ?? '').trim();
    if (line.length > LABEL_CHARS) break;
    out.push(line);
  }
  return out;
}

/** The lead-in line of the list whose item is paragraph k, if k is a list item under one. */
function leadIn(lines: readonly string[], paragraphs: readonly Paragraph[], k: number): string | undefined {
  if (!LIST_ITEM.test((lines[(paragraphs[k] as Paragraph).start] ?? '').trim())) return undefined;
  for (let j = k - 1; j >= 0 && k - j <= LIST_ITEMS; j--) {
    const { start, end } = paragraphs[j] as Paragraph;
    const line = (lines[start] ?? '').trim();
    if (LIST_ITEM.test(line)) continue;
    return end - start === 1 && line.endsWith(':') && line.length <= LEAD_IN_CHARS ? line : undefined;
  }
  return undefined;
}
