// Word overlap for rules that compare short texts by meaning rather than spelling: open questions that
// are the same gap reworded, the fact closest to what an investigator named as its finding. Deterministic:
// stop-word-free stems, compared as sets.
import { isStopWord, terms } from './text.js';

/** A crude English stem: enough to make "documented", "documents" and "documentation" one word. */
export function stem(word: string): string {
  let w = word;
  for (const suffix of ['ations', 'ation', 'ings', 'ing', 'ies', 'ied', 'ed', 'es', 'ly', 's']) {
    if (w.length - suffix.length >= 3 && w.endsWith(suffix)) {
      w = w.slice(0, -suffix.length);
      if (suffix === 'ies' || suffix === 'ied') w += 'y';
      break;
    }
  }
  return w;
}

// Words that frame a question or a gap rather than say what it is about.
const FRAMING = new Set(['whether', 'does', 'do', 'did', 'say', 'says', 'said', 'source', 'sources', 'no', 'any', 'found', 'find']);

/** The stop-word-free stems of a text, as a set. */
export function stems(text: string): Set<string> {
  return new Set(terms(text).filter((t) => !isStopWord(t) && !FRAMING.has(t)).map(stem));
}

/** |A ∩ B| / |A ∪ B| of the two texts' stems; 0 when either has none. */
export function jaccard(a: string | Set<string>, b: string | Set<string>): number {
  const x = typeof a === 'string' ? stems(a) : a;
  const y = typeof b === 'string' ? stems(b) : b;
  if (x.size === 0 || y.size === 0) return 0;
  let shared = 0;
  for (const t of x) if (y.has(t)) shared += 1;
  return shared / (x.size + y.size - shared);
}

/**
 * |A ∩ B| / min(|A|, |B|): how much of the shorter text the longer one holds. A restated gap is often the
 * first one with its search notes cut, which Jaccard scores low because the longer text has more words.
 */
export function containment(a: string | Set<string>, b: string | Set<string>): { share: number; smaller: number } {
  const x = typeof a === 'string' ? stems(a) : a;
  const y = typeof b === 'string' ? stems(b) : b;
  const smaller = Math.min(x.size, y.size);
  if (smaller === 0) return { share: 0, smaller };
  let shared = 0;
  for (const t of x) if (y.has(t)) shared += 1;
  return { share: shared / smaller, smaller };
}
