/**
 * Which phrases (runs of whole words) a text holds, each answered in time linear in the phrase. The
 * completeness check asks this for every sentence and line of a page against the stored text; a substring
 * search per question made a long page cost its length squared (a 16,000-item list: 10 s of 12).
 *
 * Hand-written: a suffix automaton over word ids, because string-search packages index characters (a node
 * per character, and a phrase must also start and end on word boundaries).
 */
export class Phrases {
  /** Characters of the text, as `hay.length` was before. */
  readonly length: number;
  private readonly ids = new Map<string, number>();
  private readonly next: Array<Map<number, number>> = [new Map()];
  private readonly link: number[] = [-1];
  private readonly len: number[] = [0];

  /** `text`: words separated by single spaces (see `words`). */
  constructor(text: string) {
    this.length = text.length;
    let last = 0;
    for (const word of text.split(' ')) {
      if (word === '') continue;
      let id = this.ids.get(word);
      if (id === undefined) {
        id = this.ids.size;
        this.ids.set(word, id);
      }
      last = this.extend(last, id);
    }
  }

  /** Whether `phrase` (words separated by single spaces) occurs in the text as whole words. */
  has(phrase: string): boolean {
    let state = 0;
    for (const word of phrase.split(' ')) {
      if (word === '') continue;
      const id = this.ids.get(word);
      const to = id === undefined ? undefined : this.next[state]?.get(id);
      if (to === undefined) return false;
      state = to;
    }
    return true;
  }

  // The standard online construction (Blumer et al.): one new state per word, at most one clone.
  private extend(last: number, c: number): number {
    const cur = this.add(this.len[last]! + 1, new Map());
    let p = last;
    while (p !== -1 && !this.next[p]!.has(c)) {
      this.next[p]!.set(c, cur);
      p = this.link[p]!;
    }
    if (p === -1) {
      this.link[cur] = 0;
      return cur;
    }
    const q = this.next[p]!.get(c)!;
    if (this.len[p]! + 1 === this.len[q]) {
      this.link[cur] = q;
      return cur;
    }
    const clone = this.add(this.len[p]! + 1, new Map(this.next[q]));
    this.link[clone] = this.link[q]!;
    while (p !== -1 && this.next[p]!.get(c) === q) {
      this.next[p]!.set(c, clone);
      p = this.link[p]!;
    }
    this.link[q] = clone;
    this.link[cur] = clone;
    return cur;
  }

  private add(len: number, next: Map<number, number>): number {
    this.next.push(next);
    this.link.push(-1);
    this.len.push(len);
    return this.next.length - 1;
  }
}
