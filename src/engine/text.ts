// Shared tokenisation for the rules that compare words (reformulation, drift).
import { eng } from 'stopword';

const STOP_WORDS: ReadonlySet<string> = new Set(eng);

export function isStopWord(term: string): boolean {
  return STOP_WORDS.has(term);
}

/** Lower-cased runs of Unicode letters and digits, in text order, repeats kept. */
export function terms(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}
