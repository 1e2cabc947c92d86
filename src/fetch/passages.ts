/**
 * What of a stored page goes back to the model: an outline of its headings, the passages most relevant
 * to a focus within a character budget, or a page of the text from an offset. Pure functions, no IO.
 *
 * Ranking is BM25 over the page's sections (long sections are split into paragraph chunks). It is
 * hand-written because one page is a few dozen documents with no index to keep, and forty lines with no
 * dependency are easier to keep deterministic than a search library's tie-breaking.
 */

import { projectForMatching, quoteNeedles } from '../engine/grounding.js';
import { upperBound } from '../engine/sorted.js';

export const DEFAULT_BUDGET_CHARS = 8000;
const CHUNK_CHARS = 800;
const GAP_MARK = '[…]';
/** A gap before a passage, with the passage's offset in the page: where `start_index` reads around it (trials 43, 44). */
const gapBefore = (at: number) => `[… @${at}]`;
const IS_GAP = /^\[…(?: @\d+)?\]$/;
const K1 = 1.2;
const B = 0.75;

interface Heading {
  level: number;
  title: string;
  /** Offset of the heading's first line. */
  start: number;
  /** The heading's markdown line(s), verbatim. */
  line: string;
}

interface Unit {
  index: number;
  start: number;
  end: number;
  /** The heading the unit falls under, if any; used as scoring context and as a label when cut off from it. */
  heading?: Heading;
  /** True when the unit begins with its own heading line. */
  startsSection: boolean;
}

/** Headings of `markdown`, two spaces of indent per level below 1, at most `max` lines. */
export function outline(markdown: string, max = 40): string[] {
  const heads = headings(markdown).filter((h) => h.title !== '');
  if (heads.length === 0) return [];
  const minLevel = Math.min(...heads.map((h) => h.level));
  const lines = heads.map((h) => `${'  '.repeat(h.level - minLevel)}${clip(h.title, 100)}`);
  if (lines.length <= max) return lines;
  const keep = Math.max(0, max - 1);
  return [...lines.slice(0, keep), `… ${lines.length - keep} more headings`];
}

/**
 * As `outline`, each entry ending in ` @<offset>` of its heading: on a first read the model picks where to
 * read next from it (`start_index`) without paging through the page.
 */
export function outlineWithOffsets(markdown: string, max = 40): string[] {
  const heads = headings(markdown).filter((h) => h.title !== '');
  if (heads.length === 0) return [];
  const minLevel = Math.min(...heads.map((h) => h.level));
  const lines = heads.map((h) => `${'  '.repeat(h.level - minLevel)}${clip(h.title, 100)} @${h.start}`);
  if (lines.length <= max) return lines;
  const keep = Math.max(0, max - 1);
  return [...lines.slice(0, keep), `… ${lines.length - keep} more headings`];
}

/**
 * The titles of the sections `content` (a part of `markdown` as fetch_source shows it) lies in: the section
 * its first line falls under, then every heading inside it, in order, without repeats.
 */
export function sectionsShown(markdown: string, content: string): string[] {
  const heads = headings(markdown).filter((h) => h.title !== '');
  if (heads.length === 0) return [];
  const out: string[] = [];
  const firstLine = content.split('\n').find((l) => l.trim() !== '' && !IS_GAP.test(l.trim()))?.trim() ?? '';
  const at = firstLine === '' ? -1 : markdown.indexOf(firstLine.slice(0, 80));
  if (at >= 0) {
    const enclosing = heads.filter((h) => h.start <= at).pop();
    if (enclosing) out.push(enclosing.title);
  }
  const inside = new Set(content.split('\n').map((l) => l.trim()));
  for (const h of heads) if (inside.has(h.line.split('\n')[0]?.trim() ?? '') && !out.includes(h.title)) out.push(h.title);
  return out.map((t) => clip(t, 100));
}

/**
 * The passages of `markdown` most relevant to `focus`, in document order, within `budgetChars`.
 * Without a focus (or a focus with no searchable words), the beginning of the page. Text is never cut
 * mid-sentence: a passage that does not fit is shortened to its last whole sentence, and skipped text
 * is marked `[…]`. `truncated` is true whenever any of the page was left out.
 */
export function selectPassages(
  markdown: string,
  focus: string | undefined,
  budgetChars = DEFAULT_BUDGET_CHARS,
  options: SelectOptions = {},
): { content: string; truncated: boolean; shown?: number[]; skipped?: number; skippedAt?: number[]; more?: boolean } {
  if (markdown.length <= budgetChars && !options.skip?.size) return { content: markdown, truncated: false, ...(options.record ? { shown: splitUnits(markdown).map((u) => u.start) } : {}) };
  const units = splitUnits(markdown);
  const query = [...new Set(terms(focus ?? ''))];
  const scores = query.length > 0 ? bm25(markdown, units, query) : units.map(() => 0);

  let order: Unit[];
  let skipped = 0;
  let skippedAt: number[] = [];
  if (scores.some((s) => s > 0)) {
    // Matching units by score, ties in document order; the page's opening unit is kept as context.
    const floor = Math.max(...scores) * (options.floor ?? 0);
    order = units
      .filter((u) => (scores[u.index] ?? 0) > 0 && (scores[u.index] ?? 0) >= floor)
      .sort((a, b) => (scores[b.index] ?? 0) - (scores[a.index] ?? 0) || a.index - b.index);
    const lead = units[0];
    if (lead && options.lead !== false && !order.includes(lead)) order.push(lead);
    skippedAt = order.filter((u) => options.skip?.has(u.start) === true).map((u) => u.start).sort((a, b) => a - b);
    order = order.filter((u) => !options.skip?.has(u.start));
    skipped = skippedAt.length;
  } else {
    order = units;
  }

  const picked = new Map<number, string>();
  // Units shown whole: only these count as shown, so a unit cut to fit comes back whole on a later read.
  const whole = new Set<number>();
  let used = 0;
  let more = false;
  for (const u of order) {
    if (options.maxUnits !== undefined && query.length > 0 && picked.size >= options.maxUnits) break;
    const remaining = budgetChars - used;
    if (remaining < 200) break;
    // Budgeted as if every unit needed its heading and a gap mark; assembly adds them only where needed.
    const overhead = label(u).length + gapBefore(u.start).length + 4;
    const text = markdown.slice(u.start, u.end).trim();
    if (text === '') continue;
    if (text.length + overhead <= remaining) {
      picked.set(u.index, text);
      whole.add(u.index);
      used += text.length + overhead;
    } else if (remaining - overhead >= 300) {
      const part = trimToSentence(text, remaining - overhead);
      more = true;
      if (part !== '') {
        picked.set(u.index, part);
        used += part.length + overhead;
      }
    } else if (query.length === 0) {
      break; // reading from the top: a later unit would leave a hole before it
    }
  }

  const parts: string[] = [];
  let previous = -1;
  for (const u of units) {
    const text = picked.get(u.index);
    if (text === undefined) continue;
    // A unit cut off from its section's start carries the heading, unless it directly follows its
    // predecessor in the reply.
    const follows = u.index === previous + 1;
    if (!follows) parts.push(gapBefore(u.start));
    parts.push(follows ? text : label(u) + text);
    previous = u.index;
  }
  if (previous !== units.length - 1) parts.push(GAP_MARK);
  // Matching units left out, or cut, by the budget or the count: the reader may ask for more.
  if (query.length > 0 && order.some((u) => !picked.has(u.index) && markdown.slice(u.start, u.end).trim() !== '')) more = true;
  let content = parts.join('\n\n');
  // Labels and gap marks are counted approximately above; never let them push past the budget.
  if (content.length > budgetChars) content = trimToSentence(content, budgetChars);
  const shown = units.filter((u) => whole.has(u.index) && content.includes(picked.get(u.index) as string)).map((u) => u.start);
  return { content, truncated: true, shown, ...(skipped > 0 ? { skipped, skippedAt } : {}), ...(more ? { more } : {}) };
}

export interface SelectOptions {
  /**
   * Units scoring below this share of the best unit's score are left out, so a reply can be shorter than
   * its budget when little of the page is about the focus (SPEC 11.1, reply economy). Default 0: fill it.
   */
  floor?: number;
  /** Keep the page's opening unit as context (default true). */
  lead?: boolean;
  /** Start offsets of units the reader was shown before: left out, as the reader has them (SPEC 11.1). */
  skip?: ReadonlySet<number>;
  /** At most this many matching units for a focus; `more` says when others matched (SPEC 11.1, reply economy). */
  maxUnits?: number;
  /** Give `shown` also when the whole page fits and is returned as it is. */
  record?: boolean;
}

function label(u: Unit): string {
  return u.startsSection || !u.heading ? '' : `${u.heading.line}\n\n`;
}

/**
 * `maxChars` of `markdown` from `startIndex`, ending at a paragraph, line, sentence or word boundary
 * when one falls in the second half of the window. Consecutive pages cover the text exactly once.
 */
export function pageFrom(markdown: string, startIndex: number, maxChars = DEFAULT_BUDGET_CHARS): { content: string; next_start_index?: number } {
  const start = Math.min(Math.max(0, Math.floor(startIndex)), markdown.length);
  const size = Math.max(1, Math.floor(maxChars));
  if (start + size >= markdown.length) return { content: markdown.slice(start) };
  const hardEnd = start + size;
  const floor = start + Math.floor(size / 2);
  const window = markdown.slice(floor, hardEnd);
  let cut = -1;
  for (const re of [/\n\n/g, /\n/g, /[.!?。！？]["'”’)\]]*\s/g, /\s/g]) {
    let last = -1;
    for (const m of window.matchAll(re)) last = (m.index ?? 0) + m[0].length;
    if (last > 0) {
      cut = floor + last;
      break;
    }
  }
  let end = cut > start ? cut : hardEnd;
  if (isHighSurrogate(markdown.charCodeAt(end - 1)) && end - 1 > start) end--;
  return { content: markdown.slice(start, end), next_start_index: end };
}

/** The units lying whole between `start` and `end`, with their text's trimmed bounds. */
function wholeUnits(markdown: string, start: number, end: number): { start: number; from: number; to: number }[] {
  const out: { start: number; from: number; to: number }[] = [];
  for (const u of splitUnits(markdown)) {
    const text = markdown.slice(u.start, u.end);
    const from = u.start + (text.length - text.trimStart().length);
    const to = u.start + text.trimEnd().length;
    if (to > from && from >= start && to <= end) out.push({ start: u.start, from, to });
  }
  return out;
}

/**
 * Start offsets of the units `pageFrom` showed whole between `start` and `end`: a later focused read leaves
 * them out, as the reader has them (SPEC 11.1, reply economy). A unit the page cut is not counted.
 */
export function unitsWithin(markdown: string, start: number, end: number): number[] {
  return wholeUnits(markdown, start, end).map((u) => u.start);
}

/** Left out only when the line saying so is much shorter than the text. */
const MIN_LEFT_OUT = 160;

/**
 * The page of `markdown` between `start` and `end` with the units in `skip` it holds whole left out, each
 * stretch of them replaced by a line saying how many characters: the reader has them in its context
 * (SPEC 11.1, reply economy). `left` counts the units left out; `whole` gives the start of every unit the
 * page holds whole, as `unitsWithin` does, from the same cut.
 */
export function pageWithout(markdown: string, start: number, end: number, skip: ReadonlySet<number>): { content: string; left: number; whole: number[] } {
  const units = wholeUnits(markdown, start, end);
  const out = units.filter((u) => skip.has(u.start));
  // Neighbouring units with only whitespace between them make one stretch.
  const stretches: { from: number; to: number; units: number }[] = [];
  for (const u of out) {
    const last = stretches[stretches.length - 1];
    if (last && markdown.slice(last.to, u.from).trim() === '') {
      last.to = u.to;
      last.units += 1;
    } else stretches.push({ from: u.from, to: u.to, units: 1 });
  }
  let content = '';
  let at = start;
  let left = 0;
  for (const s of stretches) {
    if (s.to - s.from < MIN_LEFT_OUT) continue;
    content += `${markdown.slice(at, s.from)}[… @${s.from}: ${s.to - s.from} characters shown to you earlier in this round …]`;
    at = s.to;
    left += s.units;
  }
  return { content: content + markdown.slice(at, end), left, whole: units.map((u) => u.start) };
}

// --- sections -------------------------------------------------------------------------------------

function headings(markdown: string): Heading[] {
  const out: Heading[] = [];
  let offset = 0;
  let fence: string | undefined;
  let prev: { text: string; start: number; paragraph: boolean } | undefined;
  for (const line of markdown.split('\n')) {
    const start = offset;
    offset += line.length + 1;
    const fenceMatch = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence !== undefined) {
      if (fenceMatch && fenceMatch[1]?.[0] === fence[0] && (fenceMatch[1]?.length ?? 0) >= fence.length) fence = undefined;
      prev = undefined;
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1];
      prev = undefined;
      continue;
    }
    const atx = /^ {0,3}(#{1,6})(?=[ \t]|$)/.exec(line);
    if (atx) {
      out.push({ level: atx[1]?.length ?? 1, title: headingText(stripClosingHashes(line.slice(atx[0].length))), start, line });
      prev = undefined;
      continue;
    }
    const setext = /^ {0,3}(=+|-+)[ \t]*$/.exec(line);
    if (setext && prev?.paragraph) {
      out.push({ level: setext[1]?.startsWith('=') ? 1 : 2, title: headingText(prev.text), start: prev.start, line: `${prev.text}\n${line}` });
      prev = undefined;
      continue;
    }
    const paragraph = line.trim() !== '' && !/^ {0,3}([-*+]\s|\d+[.)]\s|>|\|)/.test(line);
    prev = { text: line, start, paragraph };
  }
  return out;
}

function splitUnits(markdown: string): Unit[] {
  const heads = headings(markdown);
  const bounds: Array<{ start: number; end: number; heading?: Heading }> = [];
  const firstStart = heads[0]?.start ?? markdown.length;
  if (firstStart > 0) bounds.push({ start: 0, end: firstStart });
  heads.forEach((h, i) => bounds.push({ start: h.start, end: heads[i + 1]?.start ?? markdown.length, heading: h }));

  const { paragraphs, sentences } = cutPoints(markdown);
  const units: Unit[] = [];
  for (const section of bounds) {
    // Units of at most about CHUNK_CHARS: small enough that a matching passage is returned whole rather
    // than trimmed away, cut at a paragraph break if one is in reach, else at a sentence end.
    let pos = section.start;
    while (pos < section.end) {
      let end = section.end;
      if (section.end - pos > CHUNK_CHARS) {
        const lo = pos + CHUNK_CHARS / 3;
        const hi = pos + CHUNK_CHARS;
        end =
          lastIn(paragraphs, lo, hi) ??
          lastIn(sentences, lo, hi) ??
          firstAfter(paragraphs, hi, section.end) ??
          firstAfter(sentences, hi, section.end) ??
          section.end;
      }
      const u: Unit = { index: units.length, start: pos, end, startsSection: pos === section.start && section.heading !== undefined };
      if (section.heading) u.heading = section.heading;
      units.push(u);
      pos = end;
    }
  }
  return units;
}

/** Offsets just after blank lines, and just after sentence ends, outside fenced code; both ascending. */
function cutPoints(markdown: string): { paragraphs: number[]; sentences: number[] } {
  const paragraphs: number[] = [];
  const sentences: number[] = [];
  let inFence = false;
  let lineStart = 0;
  while (lineStart <= markdown.length) {
    let lineEnd = markdown.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = markdown.length;
    const line = markdown.slice(lineStart, lineEnd);
    if (/^ {0,3}(`{3,}|~{3,})/.test(line)) inFence = !inFence;
    else if (!inFence) {
      if (line.trim() === '' && lineEnd + 1 < markdown.length) paragraphs.push(lineEnd + 1);
      for (const m of line.matchAll(/[.!?。！？]["'”’)\]]*[ \t]+/g)) sentences.push(lineStart + (m.index ?? 0) + m[0].length);
    }
    lineStart = lineEnd + 1;
  }
  return { paragraphs, sentences };
}

/** The largest value in (lo, hi], by binary search. */
function lastIn(sorted: number[], lo: number, hi: number): number | undefined {
  const i = upperBound(sorted, hi) - 1;
  const x = sorted[i];
  return x !== undefined && x > lo ? x : undefined;
}

/** The smallest value in (lo, hi). */
function firstAfter(sorted: number[], lo: number, hi: number): number | undefined {
  const x = sorted[upperBound(sorted, lo)];
  return x !== undefined && x < hi ? x : undefined;
}

/** Index of the first value greater than `v`. */
// --- BM25 ------------------------------------------------------------------------------------------

function bm25(markdown: string, units: Unit[], query: string[]): number[] {
  return bm25Weighted(unitDocs(markdown, units), new Map(query.map((q) => [q, 1])));
}

interface Doc {
  counts: Map<string, number>;
  length: number;
}

function unitDocs(markdown: string, units: Unit[]): Doc[] {
  return units.map((u) => {
    // A unit cut off from its heading still belongs to that section: score the heading with it.
    const head = u.heading && !u.startsSection ? `${u.heading.title}\n` : '';
    const counts = new Map<string, number>();
    const toks = terms(head + markdown.slice(u.start, u.end));
    for (const t of toks) counts.set(t, (counts.get(t) ?? 0) + 1);
    return { counts, length: toks.length };
  });
}

/** BM25 with a weight per query term (1 for the statement's own words, less for its context's). */
function bm25Weighted(docs: Doc[], query: ReadonlyMap<string, number>): number[] {
  const n = docs.length;
  const avg = docs.reduce((s, d) => s + d.length, 0) / Math.max(1, n) || 1;
  const idf = new Map<string, number>();
  for (const q of query.keys()) {
    const df = docs.filter((d) => d.counts.has(q)).length;
    idf.set(q, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
  }
  return docs.map((d) => {
    let score = 0;
    for (const [q, w] of query) {
      const tf = d.counts.get(q) ?? 0;
      if (tf === 0) continue;
      score += w * (idf.get(q) ?? 0) * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * d.length) / avg)));
    }
    return score;
  });
}

const STOP = new Set(
  'a an and are as at be been but by can could did do does for from had has have how i if in into is it its of on or our should so than that the their them then there these they this those to was we were what when where which while who whom why will with would you your'.split(' '),
);
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Lower-cased words of letters and digits, stop words dropped, plural -s folded; CJK runs as bigrams. */
function terms(text: string): string[] {
  const out: string[] = [];
  for (const w of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (w === '' || STOP.has(w)) continue;
    if (CJK.test(w)) {
      const chars = Array.from(w);
      if (chars.length === 1) out.push(w);
      for (let i = 0; i + 1 < chars.length; i++) out.push(`${chars[i]}${chars[i + 1]}`);
      continue;
    }
    out.push(w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w);
  }
  return out;
}

// --- cutting ---------------------------------------------------------------------------------------

/**
 * The longest prefix of `text` within `limit` that ends at a paragraph or sentence end; failing that, at
 * a word boundary with an ellipsis. Empty when not even one word fits.
 */
function trimToSentence(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const head = text.slice(0, limit);
  let best = -1;
  for (const m of head.matchAll(/[.!?。！？]["'”’)\]]*(?=\s|$)|\n\n/g)) best = (m.index ?? 0) + m[0].length;
  if (best > limit * 0.3) return head.slice(0, best).trimEnd();
  const space = head.slice(0, limit - 2).search(/\s\S*$/);
  if (space <= 0) return '';
  return `${head.slice(0, space).trimEnd()} …`;
}

/** `Title ##` → `Title`, by hand: the obvious regex backtracks quadratically on long runs of spaces. */
export function stripClosingHashes(text: string): string {
  const t = text.trimEnd();
  let i = t.length;
  while (i > 0 && t[i - 1] === '#') i--;
  if (i === t.length) return t;
  if (i === 0 || t[i - 1] === ' ' || t[i - 1] === '\t') return t.slice(0, i).trimEnd();
  return t;
}

/** Heading text without markdown syntax; long headings are cut first so no pattern sees a page's worth. */
function headingText(raw: string): string {
  return raw
    .slice(0, 500)
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[\s(])[*_](\S(?:.*?\S)?)[*_](?=[\s).,;:!?]|$)/g, '$1$2')
    .replace(/`/g, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

// --- passages for a claim --------------------------------------------------------------------------

/** Words of a claim's context (its sentence, the sentence before, a table's column and row) weigh this much. */
export const CONTEXT_WEIGHT = 0.25;

/** The statement's words at weight 1, the context's other words at CONTEXT_WEIGHT. */
function claimQuery(statement: string, context?: string): Map<string, number> {
  const query = new Map<string, number>(terms(statement).map((t) => [t, 1]));
  for (const t of terms(context ?? '')) if (!query.has(t)) query.set(t, CONTEXT_WEIGHT);
  return query;
}

/**
 * The `count` passages of `markdown` that best match `statement`, best first, each at most `maxChars`:
 * the same units and ranking as `selectPassages`, cut down to the run of sentences around the unit's
 * best-matching sentence, so that an auditor reads evidence rather than pages. Empty when nothing matches.
 * `context` (the words that make a fragment a claim) ranks too, at a lower weight than the statement's.
 */
export function rankedPassages(markdown: string, statement: string, count = 2, maxChars = 420, context?: string, options?: PassageOptions): string[] {
  return rankedPassagesAcross([{ id: '', markdown }], statement, count, maxChars, context, options).map((p) => p.passage);
}

export interface PassageOptions {
  /**
   * How a sentence longer than maxChars is cut: to its stretch holding most of the statement's words
   * (`window`, the default), or to its head (`head`, the ranking before issue 17, kept for bench/pair-context.ts).
   */
  longSentence?: 'window' | 'head';
  /**
   * A weight per sentence of the unit (default 1) that multiplies its matching words when the passage's
   * sentence is picked; 0 leaves a sentence out of the pick, and a unit all of whose sentences weigh 0 gives
   * no passage. The coverage audit weighs out what the report states and up what a manual requires.
   */
  sentenceWeight?: (sentence: string) => number;
  /**
   * Which neighbours widen the picked sentence up to maxChars: any (`all`, the default), or only those that
   * share a word with the statement (`matching`): the claim audit's passages, whose trailing sentences on the
   * next topic cost the auditor a ninth of each passage and held the support for none more pairs (bench/pair-context.ts).
   */
  widen?: 'all' | 'matching';
  /**
   * Among the best few units by BM25, the passage that holds more of the statement's own words comes first
   * (`strength`): BM25 rewards a unit that repeats the statement's common words, and trial 59's auditor was
   * shown "When a logger is created, the level is set to NOTSET" for "A new handler has level NOTSET".
   */
  order?: 'score' | 'strength';
}

/** How many of the best units by BM25 `order: 'strength'` reorders. */
const REORDERED = 3;

/**
 * As `rankedPassages`, over the units of several sources ranked together (one BM25 index, so that scores
 * compare): the passages for a sentence that cites nothing, each with the source it comes from.
 */
export function rankedPassagesAcross(
  sources: readonly { id: string; markdown: string }[],
  statement: string,
  count = 2,
  maxChars = 420,
  context?: string,
  options: PassageOptions = {},
): { source_id: string; passage: string }[] {
  return passageIndex(sources)
    .rank(statement, count, maxChars, context, options)
    .map(({ source_id, passage }) => ({ source_id, passage }));
}

export interface ScoredPassage {
  source_id: string;
  passage: string;
  /** BM25 over every unit of the index: comparable between units of one query only. */
  score: number;
  /** The share of the query's own distinct words (not its context's) found in the index that the unit holds, 0–1. */
  share: number;
  /** The unit's place, `<source id>@<offset>`: the same unit ranked for two queries has the same key. */
  unit: string;
}

/**
 * The units of several sources cut and counted once, for ranking many queries against them (the coverage
 * audit ranks every sub-question of a run over all its stored sources).
 */
export function passageIndex(sources: readonly { id: string; markdown: string }[]): {
  rank: (statement: string, count: number, maxChars: number, context?: string, options?: PassageOptions) => ScoredPassage[];
} {
  const split = sources.map((s) => ({ s, units: splitUnits(s.markdown) }));
  const all = split.flatMap(({ s, units }) => units.map((u) => ({ s, u })));
  const docs = split.flatMap(({ s, units }) => unitDocs(s.markdown, units));
  // Each unit's text in the form quotes are matched in, made on the first query that quotes.
  const projected: (string | undefined)[] = [];
  return {
    rank(statement, count, maxChars, context, options = {}) {
      const query = claimQuery(statement, context);
      if (query.size === 0) return [];
      // Words no stored text holds ("documentation", "describe") cannot be matched: the share leaves them out.
      const own = [...query].filter(([t, w]) => w === 1 && docs.some((d) => d.counts.has(t))).map(([t]) => t);
      const scores = bm25Weighted(docs, query);
      // A statement that quotes its source is about the words it quotes: the units that hold a quotation
      // verbatim (as grounding finds quotes) rank above every unit that only shares its words.
      const quoted = quotationsOf(statement);
      const holds = new Map<number, string[]>();
      if (quoted.length > 0) {
        const top = Math.max(0, ...scores);
        for (const [i, x] of all.entries()) {
          const text = (projected[i] ??= projectForMatching(x.s.markdown.slice(x.u.start, x.u.end)));
          const found = quoted.filter((q) => q.some((n) => text.includes(n)));
          if (found.length === 0) continue;
          scores[i] = (scores[i] ?? 0) + top * found.length + 1;
          holds.set(i, found.map((q) => q[0] as string));
        }
      }
      const best = all
        .map((x, i) => ({ ...x, score: scores[i] ?? 0, i }))
        .filter((x) => x.score > 0)
        .sort((a, b) => b.score - a.score || a.i - b.i)
        .slice(0, options.order === 'strength' ? Math.max(count, REORDERED) : count);
      const ranked = best
        .map((x) => ({
          source_id: x.s.id,
          passage: around(x.s.markdown.slice(x.u.start, x.u.end), query, maxChars, options.longSentence ?? 'window', holdingQuote(holds.get(x.i), options.sentenceWeight), options.widen ?? 'all'),
          score: x.score,
          share: own.length === 0 ? 0 : own.filter((t) => docs[x.i]?.counts.has(t)).length / own.length,
          unit: `${x.s.id}@${x.u.start}`,
        }))
        .filter((p) => p.passage !== '');
      if (options.order !== 'strength') return ranked;
      // Stable: among passages of equal strength, BM25's order stands.
      const strength = new Map(ranked.map((p) => [p, passageStrength(p.passage, statement)]));
      return [...ranked].sort((a, b) => (strength.get(b) ?? 0) - (strength.get(a) ?? 0)).slice(0, count);
    },
  };
}

/** Quotations of at least three words in a statement, each as the forms grounding searches a quote in. */
function quotationsOf(statement: string): string[][] {
  const out: string[][] = [];
  for (const m of statement.matchAll(/["“”]([^"“”]+)["“”]/g)) {
    const q = (m[1] ?? '').trim();
    if (q.split(/\s+/).length < 3) continue;
    const needles = quoteNeedles(q);
    if (needles.length > 0) out.push(needles);
  }
  return out;
}

/** A sentence holding the start of a quotation the unit holds outweighs the others when the passage's sentence is picked. */
function holdingQuote(needles: string[] | undefined, weight?: (sentence: string) => number): ((sentence: string) => number) | undefined {
  if (!needles || needles.length === 0) return weight;
  const starts = needles.map((n) => n.split(' ').slice(0, 4).join(' '));
  return (sentence) => {
    const w = weight ? weight(sentence) : 1;
    if (w <= 0) return w;
    const text = projectForMatching(sentence);
    return starts.some((s) => text.includes(s)) ? w * 100 : w;
  };
}

/**
 * The ranker's own score of a passage it chose, 0–1: the share of the statement's distinct words the passage
 * holds (the measure that picked its sentence). Below WEAK_PASSAGE the passage is weak: a second is worth showing.
 */
export function passageStrength(passage: string, statement: string): number {
  const want = new Set(terms(statement));
  if (want.size === 0) return 1;
  const have = new Set(terms(passage));
  let n = 0;
  for (const t of want) if (have.has(t)) n++;
  return n / want.size;
}

export const WEAK_PASSAGE = 0.5;

/** The unit's best sentence (most query terms), widened by its neighbours while within maxChars. */
function around(unit: string, query: ReadonlyMap<string, number>, maxChars: number, longSentence: 'window' | 'head', weight?: (sentence: string) => number, widen: 'all' | 'matching' = 'all'): string {
  const flat = unit
    .split('\n')
    .filter((l) => !/^ {0,3}#{1,6}(\s|$)/.test(l))
    // A thematic break is not text a source states.
    .filter((l) => !/^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/.test(l))
    // Nor is a table's delimiter row; flattened into the passage it only reads as dashes (trial 63).
    .filter((l) => !/^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(l))
    // Bullet and quote markers go, as in the grounding projection, so a passage quoted back is found; a
    // step's number stays, as the projection keeps it.
    .map((l) => l.replace(/^\s*(?:>\s?)*(?:[-*+]\s+)?/, ''))
    // A code fence's delimiters (and its info string) cannot be quoted back (trial 11: record_audit refused
    // seven passages copied with "```python3"), also one opened on a step's line (trial 24: "6. ``` postrm purge").
    .map((l) => l.replace(/^(\d{1,9}[.)])\s+(?:```|~~~).*$/, '$1'))
    .filter((l) => !/^ {0,3}(?:```|~~~)/.test(l))
    .join(' ')
    // Links and images read as their text: the URL is no evidence, and it would crowd out the words.
    .replace(/!?\[([^\]]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  const sentences = flat.split(/(?<=[.!?。！？]["'”’)\]]*)\s+/).filter((s) => s !== '');
  if (sentences.length === 0) return '';
  // The statement's own words pick the sentence; its context's only break ties.
  let hits = sentences.map((s) => [...new Set(terms(s))].reduce((n, t) => n + (query.get(t) === 1 ? 1 : query.has(t) ? 1e-3 : 0), 0));
  if (weight) {
    const w = sentences.map(weight);
    if (w.every((x) => x <= 0)) return '';
    // Of equal scores the heavier sentence wins; a sentence weighed out is never the pick.
    hits = hits.map((h, i) => ((w[i] ?? 1) <= 0 ? -1 : h * (w[i] ?? 1) + 1e-6 * (w[i] ?? 1)));
  }
  let lo = hits.indexOf(Math.max(...hits));
  let hi = lo;
  let text = sentences[lo] ?? '';
  // A sentence too long for the budget (a code block, a signature, a run-on list) is cut at words, unmarked,
  // so that the passage stays verbatim text: to the stretch of it that holds the most of the statement's words.
  if (text.length > maxChars) return longSentence === 'window' ? bestWindow(text, query, maxChars) : headOf(text, maxChars);
  const joins = (s: string | undefined): s is string => s !== undefined && text.length + 1 + s.length <= maxChars && (widen === 'all' || terms(s).some((t) => query.get(t) === 1));
  for (;;) {
    const after = sentences[hi + 1];
    const before = sentences[lo - 1];
    if (joins(after)) {
      text = `${text} ${after}`;
      hi++;
    } else if (joins(before)) {
      text = `${before} ${text}`;
      lo--;
    } else break;
  }
  return text;
}

/**
 * The stretch of `sentence`, whole words within `maxChars`, that holds the most distinct words of the
 * statement (context words only break ties), the earliest of equals; the head when none matches.
 */
export function bestWindow(sentence: string, query: ReadonlyMap<string, number>, maxChars: number): string {
  const words = [...sentence.matchAll(/\S+/g)].map((m) => ({ start: m.index ?? 0, end: (m.index ?? 0) + m[0].length, terms: terms(m[0]) }));
  let best = { score: 0, lo: 0, hi: -1 };
  let hi = 0;
  for (let lo = 0; lo < words.length; lo++) {
    const start = words[lo]?.start ?? 0;
    hi = Math.max(hi, lo);
    while (hi + 1 < words.length && (words[hi + 1]?.end ?? 0) - start <= maxChars) hi++;
    if ((words[hi]?.end ?? 0) - start > maxChars) continue; // one word longer than the budget
    const seen = new Set<string>();
    for (let i = lo; i <= hi; i++) for (const t of words[i]?.terms ?? []) seen.add(t);
    let score = 0;
    for (const t of seen) score += query.get(t) === 1 ? 1 : query.has(t) ? 1e-3 : 0;
    if (score > best.score + 1e-9) best = { score, lo, hi };
  }
  if (best.hi < 0) return headOf(sentence, maxChars);
  return sentence.slice(words[best.lo]?.start ?? 0, words[best.hi]?.end ?? 0);
}

function headOf(sentence: string, maxChars: number): string {
  return sentence.slice(0, maxChars).replace(/\s+\S*$/, '');
}
