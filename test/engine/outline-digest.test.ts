import { describe, expect, it } from 'vitest';
import { outlineDigest } from '../../src/engine/outline-digest.js';

// A manual: 4 chapters, 3 sections each, 2 subsections each (4 + 12 + 24 = 40 entries).
const manual = Array.from({ length: 4 }, (_, c) => [
  `${c + 1} Chapter ${c + 1} (p. ${c * 10 + 1})`,
  ...Array.from({ length: 3 }, (_, s) => [`  Section ${c + 1}.${s + 1} (p. ${c * 10 + s + 2})`, ...Array.from({ length: 2 }, (_, u) => `    Sub ${c + 1}.${s + 1}.${u + 1} (p. ${c * 10 + s + 2})`)]).flat(),
]).flat();

describe('outlineDigest', () => {
  it('returns an outline that fits as it is', () => {
    expect(outlineDigest(manual, 40)).toEqual(manual);
  });

  it('shows every chapter and section of the whole document before any subsection, in document order', () => {
    const d = outlineDigest(manual, 20);
    expect(d).toHaveLength(17);
    expect(d.slice(0, 4)).toEqual(['1 Chapter 1 (p. 1)', '  Section 1.1 (p. 2)', '  Section 1.2 (p. 3)', '  Section 1.3 (p. 4)']);
    // The last chapter is there, which a cut of the first 19 entries would lose.
    expect(d).toContain('4 Chapter 4 (p. 31)');
    expect(d.some((l) => l.includes('Sub'))).toBe(false);
    expect(d[16]).toBe('… 24 deeper entries not shown');
  });

  it('fills an outline of whole levels that uses less than half of max to half, from the next level, spread over the document (trial 62)', () => {
    // The Logging Cookbook: one title over 49 sections.
    const cookbook = ['Logging Cookbook @0', ...Array.from({ length: 49 }, (_, i) => `  Section ${i + 1} @${(i + 1) * 3000}`)];
    const d = outlineDigest(cookbook, 40);
    expect(d).toHaveLength(20);
    expect(d[0]).toBe('Logging Cookbook @0');
    expect(d.at(-1)).toBe('… 31 deeper entries not shown');
    const shown = d.slice(1, -1).map((l) => Number(/Section (\d+)/.exec(l)?.[1]));
    // In document order, from the first section to near the last, not the first 18.
    expect(shown).toEqual([...shown].sort((a, b) => a - b));
    expect(shown[0]).toBe(1);
    expect(shown.at(-1)).toBeGreaterThanOrEqual(46);
    expect(new Set(shown).size).toBe(18);
  });

  it('falls back to the top level alone, then to its head with a count', () => {
    expect(outlineDigest(manual, 8)).toEqual(['1 Chapter 1 (p. 1)', '2 Chapter 2 (p. 11)', '3 Chapter 3 (p. 21)', '4 Chapter 4 (p. 31)', '… 36 deeper entries not shown']);
    expect(outlineDigest(manual, 4)).toEqual(['1 Chapter 1 (p. 1)', '2 Chapter 2 (p. 11)', '3 Chapter 3 (p. 21)', '… 37 more entries']);
  });

  it('keeps the trailer of an outline a store kept cut, at the end', () => {
    const stored = [...manual.slice(0, 39), '… 70 more entries'];
    const d = outlineDigest(stored, 20);
    expect(d.at(-1)).toBe('… 70 more entries');
    expect(d.length).toBeLessThanOrEqual(21);
  });
});
