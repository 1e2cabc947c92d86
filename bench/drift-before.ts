// The drift rules before issue 24, kept only as the bench's reference (bench/drift.ts): subject = none of
// the subjects, include phrases (as written, in sequence) or sub-question words of 4+ letters on the page;
// domain = exclude phrases outnumber include phrases. Temporal and geographic are unchanged and left out.
import { keyTerms } from '../src/engine/drift.js';
import { terms } from '../src/engine/text.js';

function count(words: readonly string[], phrase: readonly string[]): number {
  let n = 0;
  for (let at = 0; at < words.length; at++) if (phrase.length > 0 && phrase.every((t, k) => words[at + k] === t)) n++;
  return n;
}

export function driftBefore(i: { text: string; subjects: readonly string[]; subQuestions: readonly string[]; include: readonly string[]; exclude: readonly string[] }): string[] {
  const words = terms(i.text);
  const total = (phrases: readonly string[]) => phrases.reduce((s, p) => s + count(words, terms(p)), 0);
  const signals: string[] = [];
  const wanted = [...i.subjects, ...i.include, ...keyTerms(i.subQuestions)].filter((p) => terms(p).length > 0);
  if (wanted.length > 0 && total(wanted) === 0) signals.push('subject');
  if (i.exclude.length > 0 && total(i.exclude) > total(i.include)) signals.push('domain');
  return signals;
}
