// A SUPPORTED verdict rests on a passage. A number in the statement that neither the passage nor a heading
// above it holds (a version, a count, a date) is checked by no other step: trial 51's writer moved an
// entry from Policy 4.0.1 to 4.1.0 after misreading its source, and its own audit and verify_report passed
// it. Said, not refused: a number can rightly come from elsewhere on the page (50 of 3,876 SUPPORTED
// verdicts in trials 1-51 had one).
import { numbersNotInQuote } from './facts.js';
import { enclosingHeadings } from './grounding.js';
import { labelLinesAbove, numberedHeadingsAbove } from './numbered-headings.js';

export function numbersOutsidePassage(statement: string, passage: string, source: { markdown: string; title?: string }): string[] {
  const bare = numbersNotInQuote(statement, passage);
  if (bare.length === 0) return bare;
  const md = source.markdown;
  return numbersNotInQuote(statement, passage, [...(source.title ? [source.title] : []), ...enclosingHeadings(passage, md), ...numberedHeadingsAbove(passage, md), ...labelLinesAbove(passage, md)]);
}
