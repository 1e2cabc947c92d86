// Mirrors (SPEC 4.1 origin): the same text on two sites is one origin. Cheap by construction: each stored
// source keeps a hash of its whole normalised text and the set of its sentences' hashes, so a new source
// is compared against the run's earlier ones by set lookups, never by re-reading their texts.
import { createHash } from 'node:crypto';
import { projectForMatching } from './grounding.js';

/** What the store keeps per source for the mirror check. */
export interface TextPrint {
  /** Hash of the whole text after normalisation. */
  text: string;
  /** Hashes of its distinct sentences (≥ 20 characters), sorted. */
  sentences: string[];
}

/** Share of one text's sentences the other must hold to be its mirror. */
export const MIRROR_SHARE = 0.9;
/** Fewer distinct sentences than this, and only an equal text makes a mirror. */
const MIN_SENTENCES = 3;

const hash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 12);

export function textPrint(markdown: string): TextPrint {
  const plain = projectForMatching(markdown);
  const sentences = new Set<string>();
  for (const s of plain.split(/(?<=[.!?。])\s+|\n+/u)) {
    const t = s.trim();
    if (t.length >= 20) sentences.add(hash(t));
  }
  return { text: hash(plain), sentences: [...sentences].sort() };
}

/**
 * The earlier source this text mirrors: the first, in store order, of another origin whose text is the
 * same, or one of the two holds ≥ 90% of the other's sentences. A mirror's own `mirror_of` is followed to
 * the source it mirrors, so a chain of mirrors counts as the first site.
 */
export function findMirror(
  print: TextPrint,
  origin: string,
  earlier: readonly { id: string; origin: string; print: TextPrint; mirror_of?: string }[],
): string | undefined {
  const mine = new Set(print.sentences);
  for (const e of earlier) {
    if (e.origin === origin) continue;
    if (e.print.text === print.text || contains(mine, e.print.sentences) || contains(new Set(e.print.sentences), print.sentences)) {
      return e.mirror_of ?? e.id;
    }
  }
  return undefined;
}

/** Whether `set` holds ≥ MIRROR_SHARE of `of` (which has enough sentences to judge). */
function contains(set: ReadonlySet<string>, of: readonly string[]): boolean {
  if (of.length < MIN_SENTENCES) return false;
  let held = 0;
  for (const h of of) if (set.has(h)) held++;
  return held >= MIRROR_SHARE * of.length;
}
