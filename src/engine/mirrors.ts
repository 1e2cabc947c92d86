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

/** What the index keeps of one stored source. */
export interface PrintEntry {
  id: string;
  origin: string;
  print: TextPrint;
  mirror_of?: string;
}

/**
 * The run's stored sources by whole-text hash and by sentence hash. Finding the mirror of a new text costs
 * one lookup per sentence of it (and its postings), not a pass over every earlier source.
 */
export class MirrorIndex {
  private readonly byText = new Map<string, string[]>();
  private readonly bySentence = new Map<string, string[]>();
  /** `site` is the origin a source counts for: its own, or that of the source it mirrors. */
  private readonly entries = new Map<string, { site: string; sentences: number; mirror_of?: string }>();
  /** Store order of each id: the earliest mirrored source wins. */
  private readonly position = new Map<string, number>();

  has(id: string): boolean {
    return this.entries.has(id);
  }

  add(e: PrintEntry): void {
    if (this.entries.has(e.id)) return;
    const root = e.mirror_of !== undefined ? this.entries.get(e.mirror_of) : undefined;
    this.entries.set(e.id, { site: root?.site ?? e.origin, sentences: e.print.sentences.length, ...(e.mirror_of !== undefined ? { mirror_of: e.mirror_of } : {}) });
    this.position.set(e.id, this.position.size);
    push(this.byText, e.print.text, e.id);
    for (const h of e.print.sentences) push(this.bySentence, h, e.id);
  }

  /**
   * The earlier source this text mirrors: the first, in store order, counting for another site, whose text is the
   * same, or one of the two holds ≥ 90% of the other's sentences. A mirror's own `mirror_of` is followed to
   * the source it mirrors, so a chain of mirrors counts as the first site.
   */
  find(print: TextPrint, origin: string): string | undefined {
    const hits = new Map<string, number>();
    for (const id of this.byText.get(print.text) ?? []) hits.set(id, Number.POSITIVE_INFINITY);
    for (const h of print.sentences) for (const id of this.bySentence.get(h) ?? []) hits.set(id, (hits.get(id) ?? 0) + 1);
    const mine = print.sentences.length;
    let found: string | undefined;
    for (const [id, shared] of hits) {
      const e = this.entries.get(id)!;
      // A copy of a page of its own site is no second site, and no mirror.
      if (e.site === origin) continue;
      if (shared !== Number.POSITIVE_INFINITY && !holds(shared, e.sentences) && !holds(shared, mine)) continue;
      if (found === undefined || this.position.get(id)! < this.position.get(found)!) found = id;
    }
    return found === undefined ? undefined : (this.entries.get(found)!.mirror_of ?? found);
  }
}

/** The earlier source this text mirrors (see MirrorIndex.find), for a list of entries. */
export function findMirror(print: TextPrint, origin: string, earlier: readonly PrintEntry[]): string | undefined {
  const index = new MirrorIndex();
  for (const e of earlier) index.add(e);
  return index.find(print, origin);
}

/** Whether `shared` sentences are ≥ MIRROR_SHARE of a text of `of` sentences (enough to judge). */
function holds(shared: number, of: number): boolean {
  return of >= MIN_SENTENCES && shared >= MIRROR_SHARE * of;
}

function push(m: Map<string, string[]>, k: string, v: string): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}
