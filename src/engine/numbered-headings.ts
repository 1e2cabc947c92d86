// A PDF's stored text has no markdown headings: a section title is a plain line ("5.5 Creating shared
// objects"). The number check looks in the headings above a quote (a changelog's version, a manual's
// section), so for such text the numbered lines above the quote stand in for them.
import { projectForMatching, quoteNeedles } from './grounding.js';

/** A numbered section title on a line of its own: "5.5 Creating shared objects", "2. Scope", "A.1 Syntax". */
const NUMBERED_TITLE = /^(?:[A-Z]|\d+)(?:\.\d+)*\.?\s+\p{Lu}[^.!?:;]{0,80}$/u;

/**
 * The numbered title lines above `quote` where it occurs in `text`, nearest first: the nearest one, then
 * each nearer-to-the-top one of a shallower level ("5.5 …", then "5 …"). Searched paragraph by paragraph
 * (blank-line separated); a title joined to its paragraph's first line counts too.
 */
export function numberedHeadingsAbove(quote: string, text: string): string[] {
  const needles = quoteNeedles(quote);
  if (needles.length === 0) return [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i <= lines.length; i++) {
    if (i < lines.length && lines[i]!.trim() !== '') continue;
    if (i > start && needles.some((n) => projectForMatching(lines.slice(start, i).join('\n')).includes(n))) {
      for (const h of titlesAbove(lines, start)) if (!out.includes(h)) out.push(h);
    }
    start = i + 1;
  }
  return out;
}

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
