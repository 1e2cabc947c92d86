// The span of a PDF read as its own source (fetch_source `pages`): its spelling in urls and keys, its
// limits, and the outline entries past the cap that a focus picks.
import { describe, expect, it } from 'vitest';
import { canonicalKey } from '../../src/engine/canonical-url.js';
import { MAX_RANGE_PAGES, rangeOf, rangeProblem, withoutRange, withRange, spanTitle } from '../../src/engine/page-range.js';
import { matchEntries } from '../../src/engine/outline-match.js';

describe('page ranges', () => {
  it('reads and writes #pages=FROM-TO, and nothing else, as a range', () => {
    expect(rangeOf('https://x.org/a.pdf#pages=12-20')).toEqual({ from: 12, to: 20 });
    expect(rangeOf('https://x.org/a.pdf#page=12')).toBeUndefined();
    expect(rangeOf('https://x.org/a.pdf#pages=0-3')).toBeUndefined();
    expect(withRange('https://x.org/a.pdf#toc', { from: 3, to: 4 })).toBe('https://x.org/a.pdf#pages=3-4');
    expect(withoutRange('https://x.org/a.pdf#pages=3-4')).toBe('https://x.org/a.pdf');
  });

  it('keeps the range in the canonical key, of web and local addresses alike, as a fixpoint', () => {
    const key = canonicalKey('https://www.x.org/a.pdf?utm_source=t#pages=3-4');
    expect(key).toBe('x.org/a.pdf#pages=3-4');
    expect(canonicalKey(`https://${key}`)).toBe(key);
    expect(canonicalKey('https://x.org/a.pdf#page=3')).toBe('x.org/a.pdf');
    expect(canonicalKey('local:docs/R manual.pdf#pages=1-2')).toBe('local:docs/R%20manual.pdf#pages=1-2');
  });

  it('refuses a reversed or too long range with the range to ask for instead', () => {
    expect(rangeProblem({ from: 5, to: 5 })).toBeUndefined();
    expect(rangeProblem({ from: 1, to: MAX_RANGE_PAGES })).toBeUndefined();
    expect(rangeProblem({ from: 9, to: 3 })).toMatch(/"to" \(3\) is before "from" \(9\).*\{from: 3, to: 9\}/);
    expect(rangeProblem({ from: 301, to: 301 + MAX_RANGE_PAGES })).toMatch(new RegExp(`is ${MAX_RANGE_PAGES + 1} pages.*\\{from: 301, to: ${300 + MAX_RANGE_PAGES}\\}`));
  });
});

describe('outline entries a focus picks', () => {
  const entries = ['The base package (p. 301)', '  libPaths (p. 358)', '  library (p. 360)', '  EnvVar (p. 219)', '  Startup (p. 616)', '  start (p. 1890)', 'The stats package (p. 1400)', '  lm (p. 1500)'];

  it('matches words, camel-case parts and prefixes, the best covered entry first', () => {
    expect(matchEntries(entries, '.libPaths', 3)).toEqual(['  libPaths (p. 358)']);
    expect(matchEntries(entries, 'library paths', 3)).toEqual(['  libPaths (p. 358)', '  library (p. 360)']);
    expect(matchEntries(entries, 'environment variables', 3)).toEqual(['  EnvVar (p. 219)']);
    expect(matchEntries(entries, 'what happens at startup', 2)[0]).toBe('  Startup (p. 616)');
    expect(matchEntries(entries, 'quantum chromodynamics', 5)).toEqual([]);
  });

  it('gives the top-level entries without a focus', () => {
    expect(matchEntries(entries, undefined, 5)).toEqual(['The base package (p. 301)', 'The stats package (p. 1400)']);
    expect(matchEntries(entries, '  ', 1)).toEqual(['The base package (p. 301)']);
  });
});

describe('spanTitle (trial 10: spans were titled "See Also" and "Value")', () => {
  it('names the document, the pages and the outline entries that start in them', () => {
    expect(spanTitle('refman.pdf', { from: 616, to: 620 }, ['Startup (p. 616)', 'stop (p. 620)'])).toBe('refman.pdf, pages 616–620: Startup, stop');
    expect(spanTitle('R: A Language and Environment', { from: 10, to: 12 }, ['Intro (p. 9)'])).toBe('R: A Language and Environment, pages 10–12');
    expect(spanTitle('x.pdf', { from: 1, to: 50 }, ['a (p. 1)', 'b (p. 2)', 'c (p. 3)', 'd (p. 4)'])).toBe('x.pdf, pages 1–50: a, b, c, …');
  });
});
