import { describe, expect, it } from 'vitest';
import { pageMemo } from '../../src/engine/page-memo.js';

describe('pageMemo', () => {
  it('works a page out once while it is among the last pages asked about, dropping the oldest first', () => {
    const made: string[] = [];
    const lengthOf = pageMemo(2, (text) => {
      made.push(text);
      return { length: text.length };
    });
    const first = lengthOf('page one');
    expect(lengthOf('page one')).toBe(first);
    lengthOf('page two');
    lengthOf('page three');
    // "page one" was the oldest of three with room for two: it is worked out again.
    lengthOf('page one');
    expect(made).toEqual(['page one', 'page two', 'page three', 'page one']);
  });
});
