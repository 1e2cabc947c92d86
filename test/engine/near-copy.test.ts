import { describe, expect, it } from 'vitest';
import { editionRank, isNearCopy } from '../../src/engine/near-copy.js';

// Debian Policy 7.2 as its HTML page and its reStructuredText source give it (trial 15's search results).
const HTML = '…actions that require a dependency if that dependency isn’t available. Recommends This declares a strong, but not absolute, dependency. The Recommends field should list packages that would be found together…';
const RST = "…a dependency if that dependency isn't available. ``Recommends`` This declares a strong, but not absolute, dependency. The ``Recommends`` field should list packages that would be found together with this one in all…";

describe('isNearCopy', () => {
  it('takes the same passage in two markups for one text', () => {
    expect(isNearCopy(HTML, RST)).toBe(true);
  });
  it('keeps apart two passages on one subject', () => {
    expect(isNearCopy(HTML, '…Suggests This is used to declare that one package may be more useful with one or more others. Using this field tells the packaging system…')).toBe(false);
    expect(isNearCopy('', RST)).toBe(false);
  });
});

describe('editionRank', () => {
  it('prefers a rendered page, then a PDF, then a source text', () => {
    expect(editionRank('local:policy/ch-files.html')).toBe(0);
    expect(editionRank('https://x.org/a.xhtml?x=1')).toBe(0);
    expect(editionRank('local:policy/policy.pdf')).toBe(1);
    expect(editionRank('local:policy/_sources/ch-files.rst.txt')).toBe(2);
    expect(editionRank('local:policy/notes.txt')).toBe(2);
  });
});
