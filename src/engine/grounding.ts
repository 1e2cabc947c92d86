// Grounding text (SPEC 4.1): a quote counts when its words occur in the stored page, whatever markdown
// dressed them and however quotes, dashes, case and spacing were typed.

import { pageMemo } from './page-memo.js';

// Escaped punctuation is parked on private-use code points while markup is stripped, so "\*" survives
// as a literal asterisk instead of being read as emphasis.
const PARK_BASE = 0xf000;
const park = (ch: string): string => String.fromCharCode(PARK_BASE + ch.charCodeAt(0));
const PARKED = /[\uf021-\uf07e]/g;
const unpark = (s: string): string => s.replace(PARKED, (c) => String.fromCharCode(c.charCodeAt(0) - PARK_BASE));

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  ndash: '\u2013',
  mdash: '\u2014',
  lsquo: '\u2018',
  rsquo: '\u2019',
  ldquo: '\u201c',
  rdquo: '\u201d',
  hellip: '\u2026',
  shy: '\u00ad',
};

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}

// Tags inside a line of prose; anything else (p, br, div, li, td…) separates words.
const INLINE_TAGS = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'font', 'i', 'ins', 'kbd',
  'mark', 'q', 's', 'samp', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'time', 'tt', 'u', 'var',
]);

// A link destination: no spaces, balanced single-level parentheses, optional "title".
const DEST = String.raw`(?:[^()\s]|\([^()\s]*\))*(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?`;
const IMAGE = new RegExp(String.raw`!\[([^\]]*)\]\(\s*<?${DEST}>?\s*\)`, 'g');
const INLINE_LINK = new RegExp(String.raw`\[([^\]]*)\]\(\s*<?${DEST}>?\s*\)`, 'g');
const REFERENCE_IMAGE = /!\[([^\]]*)\]\[[^\]]*\]/g;
const REFERENCE_LINK = /\[([^\]]*)\]\[[^\]]*\]/g;

/**
 * The words of a markdown document without its markup: escapes resolved, links and images reduced to
 * their text, emphasis, code, strike-through, heading, quote, list and table markers and HTML tags gone.
 */
export function plainTextProjection(markdown: string): string {
  let s = parkFencedCode(markdown.replace(/\r\n?/g, '\n'));
  s = s.replace(/\\([!-\/:-@\[-`{-~])/g, (_, ch: string) => park(ch));

  s = s.replace(/<((?:https?|ftp):\/\/[^\s<>]+|mailto:[^\s<>]+|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)>/gi, '$1');
  s = s.replace(/<!--[\s\S]*?-->/g, ' ');
  // A tag never spans lines here: turndown writes raw HTML on one line, and a literal "<coroutine object…\>"
  // in prose must not swallow everything up to the next ">" (a blockquote marker hundreds of lines on).
  s = s.replace(/<\/?([a-z][a-z0-9-]*)\b[^<>\n]*>/gi, (_, tag: string) => (INLINE_TAGS.has(tag.toLowerCase()) ? '' : ' '));
  s = decodeEntities(s);

  s = s.replace(/^ {0,3}(?:```|~~~).*$/gm, '');
  s = s.replace(/^ {0,3}\[[^\]\n]+\]:\s*\S+(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?\s*$/gm, '');
  s = s.replace(/^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$/gm, '');
  // The same row flattened into a line, as a table passage quoted back on one line carries it (trial 63).
  s = s.replace(/\|(?:[ \t]*:?-{3,}:?[ \t]*\|)+/g, '|');
  s = s.replace(/^ {0,3}([-*_])(?:\s*\1){2,}\s*$/gm, '');

  // Images first, so a linked image "[![alt](img)](url)" becomes a link around "alt".
  s = s.replace(IMAGE, '$1').replace(REFERENCE_IMAGE, '$1');
  for (let before = ''; before !== s; ) {
    before = s;
    s = s.replace(INLINE_LINK, '$1').replace(REFERENCE_LINK, '$1');
  }

  s = s.replace(/^ {0,3}#{1,6}(?=\s|$)/gm, '');
  s = s.replace(/[ \t]+#+[ \t]*$/gm, '');
  s = s.replace(/^[ \t]*(?:>[ \t]?)+/gm, '');
  s = s.replace(/^[ \t]*[-*+][ \t]+/gm, '');
  s = s.replace(/\|/g, ' ');

  s = s.replace(/`+/g, '').replace(/~~/g, '');
  // A run of * or _ opens or closes emphasis when it has a space on one side only, or sits between a
  // word and punctuation; standing alone or inside a word (snake_case, 2*3) it is a literal.
  s = s.replace(/[*_]+/g, (run: string, at: number, all: string) => {
    const before = all[at - 1] ?? ' ';
    const after = all[at + run.length] ?? ' ';
    const spaceBefore = /\s/.test(before);
    const spaceAfter = /\s/.test(after);
    if (spaceBefore && spaceAfter) return run;
    if (spaceBefore !== spaceAfter) return '';
    return isWordChar(before) !== isWordChar(after) ? '' : run;
  });

  return unpark(s);
}

/**
 * Fenced code is literal text: its punctuation is parked, so no markup rule reads it (a ">>>" prompt or a
 * "# comment" at a line's start is not a quote or heading marker there, "<T>" is not a tag).
 */
function parkFencedCode(s: string): string {
  if (!/^ {0,3}(?:```|~~~)/m.test(s)) return s;
  const lines = s.split('\n');
  let fence = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === '') {
      if (open) fence = open;
      continue;
    }
    if (open && open[0] === fence[0] && open.length >= fence.length && /^ {0,3}(`{3,}|~{3,})\s*$/.test(line)) {
      fence = '';
      continue;
    }
    lines[i] = line.replace(/[!-\/:-@\[-`{-~]/g, park);
  }
  return lines.join('\n');
}

function isWordChar(ch: string): boolean {
  return /[\p{L}\p{N}]/u.test(ch);
}

const QUOTES = /['"‘’‚‛“”„‟«»‹›″′]/g;
const DASHES = /[‐‑‒–—―−]/g;
const INVISIBLE = /[\u00ad\u200b-\u200d\u2060\ufeff]/g;

/** NFKC, lower case, one quote mark, one dash, no invisible characters, single spaces. */
export function normalizeForMatch(s: string): string {
  return s
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .toLowerCase()
    .replace(QUOTES, "'")
    .replace(DASHES, '-')
    .replace(/\s+/gu, ' ')
    .trim();
}

/**
 * The form a stored source is searched in; compute it once per source. Marker characters the
 * projection kept as literals are dropped on both sides, so a quote typed without an escaped "*" still
 * matches a page that had one.
 */
export function projectForMatching(markdown: string): string {
  // A line break after an underscore is where a PDF broke a long name ("R_" then "CHECK_ENVIRON" on the
  // next line): it is dropped on both sides, so "R_CHECK_ENVIRON" typed whole is found (trial 77).
  return normalizeForMatch(plainTextProjection(markdown).replace(/_\s+(?=[\p{L}\p{N}])/gu, '_').replace(/[*_`~]/g, ''));
}

/**
 * The forms a quote is searched in: as typed, and (when it differs) without the pieces of link syntax a
 * quote cut out of a page can start or end with, which the page's projection drops but the quote's own
 * cannot read as a link: "see [the decimal", "the [decimal](https://docs…", "decimal](url) module". The
 * first form keeps a literal "[options]" matching; a third reads the quote as code. Any must occur as one
 * contiguous run.
 */
export function quoteNeedles(quote: string): string[] {
  let s = quote.replace(/\r\n?/g, '\n');
  // Ends inside a link's destination or right after its text: "[text](dest", "[text](", "[text]", "[text][ref".
  s = s.replace(/(^|[^\\\p{L}\p{N}])\[([^\[\]\n]*)\](?:\(\s*<?[^\s()]*(?:\s+"[^"\n]*)?|\[[^\[\]\s]*)?$/u, '$1$2');
  // Ends inside a link's text: an unclosed "[" that opens a word.
  s = s.replace(/(^|[^\\\p{L}\p{N}])\[(?=[^\[\]]*$)/u, '$1');
  // Starts inside a link's text: "text](dest) more" or "text][ref] more" with no "[" before.
  s = s.replace(new RegExp(String.raw`^([^\[\]]*)\](?:\(\s*<?${DEST}>?\s*\)|\[[^\[\]\s]*\])`), '$1');
  // A quote of code is also read as code (literally, as fenced code is stored): "# comment" or "<T>" kept.
  const literal = /^ {0,3}(?:```|~~~)/m.test(quote) ? '' : projectForMatching(`~~~\n${quote}\n~~~`);
  const needles = [projectForMatching(quote), projectForMatching(s), literal].filter((n) => n.length > 0);
  return [...new Set(needles)];
}

/** Whether `quote` occurs in a source already passed through projectForMatching. Empty quotes never do. */
export function quoteFoundIn(quote: string, projected: string): boolean {
  return quoteNeedles(quote).some((n) => projected.includes(n));
}

export function quoteFound(quote: string, markdown: string): boolean {
  return quoteFoundIn(quote, projectForMatching(markdown));
}

interface Section {
  /** The headings open at the section, outermost first, as plain text. */
  context: string[];
  /** The section's body (its heading line and text up to the next heading), projected for matching. */
  projected: string;
}

// A page's sections are the same whichever fact asks: a long-lived server quotes one page many times
// across rounds, and projecting a 20,000-character page section by section is the costly part.
const sectionsOf = pageMemo(16, splitSections);

/** A stored page split at its ATX headings (not those inside fenced code), each section projected. */
function splitSections(markdown: string): Section[] {
  const out: Section[] = [];
  const open: string[] = [];
  let context: string[] = [];
  let body: string[] = [];
  let fenced = false;
  const flush = () => {
    if (body.length > 0) out.push({ context, projected: projectForMatching(body.join('\n')) });
    body = [];
  };
  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    if (/^ {0,3}(?:```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^ {0,3}(#{1,6})(?:[ \t]+(.*))?$/.exec(line);
    if (heading) {
      flush();
      const level = heading[1]!.length;
      open.length = Math.min(open.length, level - 1);
      open[level - 1] = plainTextProjection(heading[0]).trim();
      context = open.filter((h) => h !== undefined && h.length > 0);
    }
    body.push(line);
  }
  flush();
  return out;
}

/**
 * The headings that enclose `quote` where it occurs in a stored page: at each level the nearest ATX
 * heading above it, as plain text, outermost first, for every section the quote occurs in. Empty when
 * it occurs in none by itself (a quote across two sections). A changelog states the version only there.
 */
export function enclosingHeadings(quote: string, markdown: string): string[] {
  const needles = quoteNeedles(quote);
  const out: string[] = [];
  if (needles.length === 0) return out;
  for (const section of sectionsOf(markdown)) {
    if (needles.some((n) => section.projected.includes(n))) for (const h of section.context) if (!out.includes(h)) out.push(h);
  }
  return out;
}
