// Stored text keeps a page's strike-through (`~~…~~`), which pages use for what is obsolete or withdrawn.
// The quote check ignores the marks, so a quote from struck text grounds like any other: say so.
import { projectForMatching, quoteNeedles } from './grounding.js';

const STRUCK = /~~(?=\S)([\s\S]*?\S)~~/g;

/** Whether `quote` lies inside a struck-through span of `markdown`. */
export function quoteStruckThrough(quote: string, markdown: string): boolean {
  if (!markdown.includes('~~')) return false;
  const needles = quoteNeedles(quote);
  if (needles.length === 0) return false;
  for (const m of markdown.matchAll(STRUCK)) {
    const span = projectForMatching(m[1] ?? '');
    if (needles.some((n) => span.includes(n))) return true;
  }
  return false;
}

export const STRUCK_WARNING =
  'its quote is struck through on the page (~~…~~), which usually marks it obsolete or withdrawn; recorded as given. Check what replaced it and quote that, or say in the fact that the page struck it';
