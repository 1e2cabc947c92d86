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

/** A sentence cut at a word within `max` characters, marked, so one long report line cannot fill a reply. */
export function clipAtWord(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}
