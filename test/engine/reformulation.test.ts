import { describe, expect, it } from 'vitest';
import {
  REFORMULATION_MIN_CHANGE,
  REPEAT_SIMILARITY,
  checkQuery,
  jaccard,
  queryTerms,
  termChangeRatio,
} from '../../src/engine/reformulation.js';

// Distinct content words; none is an English stop word.
const words = (prefix: string, n: number): string[] => Array.from({ length: n }, (_, k) => `${prefix}${k}`);
const q = (...parts: string[][]): string => parts.flat().join(' ');

describe('queryTerms', () => {
  it('lower-cases, drops stop words, dedupes in first-seen order', () => {
    expect(queryTerms('What is the Effect of the four-day WEEK on the week output?')).toEqual([
      'effect',
      'four',
      'day',
      'week',
      'output',
    ]);
  });

  it('splits on anything but Unicode letters and digits', () => {
    expect(queryTerms('Zürich/Genève: 2024 COVID-19 naïve—Ωmega')).toEqual([
      'zürich',
      'genève',
      '2024',
      'covid',
      '19',
      'naïve',
      'ωmega',
    ]);
  });

  it('is empty for a query of stop words only', () => {
    expect(queryTerms('what is the')).toEqual([]);
    expect(queryTerms('  ')).toEqual([]);
  });
});

describe('termChangeRatio', () => {
  it('uses the constants of SPEC 4.1', () => {
    expect(REFORMULATION_MIN_CHANGE).toBe(0.5);
    expect(REPEAT_SIMILARITY).toBe(0.85);
  });

  it('is 1 − shared / terms of the previous query', () => {
    expect(termChangeRatio('remote work productivity', 'remote work productivity')).toBe(0);
    expect(termChangeRatio('remote work productivity', 'hybrid office output')).toBe(1);
    expect(termChangeRatio('alpha beta gamma delta', 'alpha beta omega')).toBe(0.5);
  });

  it('ignores stop words, case and word order', () => {
    expect(termChangeRatio('The REMOTE work', 'work of a remote')).toBe(0);
  });

  it('is 1 when the previous query has no terms', () => {
    expect(termChangeRatio('what is it', 'anything')).toBe(1);
  });

  it('exactly 0.5 change counts as reformulated, 0.49 does not', () => {
    const half = checkQuery({ query: 'alpha omega', earlierQueries: [], reformulateFrom: 'alpha beta' });
    expect(half.changeRatio).toBe(0.5);
    expect(half.reformulated).toBe(true);
    expect(half.warnings).toEqual([]);

    const prev = words('w', 100);
    const next = q(prev.slice(0, 51), words('n', 49));
    const almost = checkQuery({ query: next, earlierQueries: [], reformulateFrom: q(prev) });
    expect(almost.changeRatio).toBeCloseTo(0.49, 10);
    expect(almost.reformulated).toBe(false);
    expect(almost.warnings).toHaveLength(1);
    expect(almost.warnings[0]).toContain('0.49');
    expect(almost.warnings[0]).toContain('reformulation required');
  });
});

describe('jaccard', () => {
  it('is |∩| / |∪| over term sets', () => {
    expect(jaccard('alpha beta', 'beta gamma')).toBeCloseTo(1 / 3, 12);
    expect(jaccard('Alpha the BETA', 'beta alpha alpha')).toBe(1);
  });

  it('is 1 when both have no terms and 0 when only one has', () => {
    expect(jaccard('the of', 'a an')).toBe(1);
    expect(jaccard('the of', 'alpha')).toBe(0);
  });
});

describe('checkQuery repeats', () => {
  const base = words('t', 20);

  it('flags a query exactly 0.85 similar to an earlier one, and names it', () => {
    // 17 shared of a 20-term union.
    const earlier = q(base.slice(0, 18));
    const now = q(base.slice(0, 17), base.slice(18, 20));
    expect(jaccard(now, earlier)).toBe(0.85);
    const r = checkQuery({ query: now, earlierQueries: ['unrelated words', earlier] });
    expect(r.repeat).toBe(true);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toContain(`"${earlier}"`);
    expect(r.reformulated).toBeUndefined();
    expect(r.changeRatio).toBeUndefined();
  });

  it('does not flag 0.84 (21 of 25)', () => {
    const all = words('t', 25);
    const earlier = q(all.slice(0, 23));
    const now = q(all.slice(0, 21), all.slice(23, 25));
    expect(jaccard(now, earlier)).toBe(0.84);
    expect(checkQuery({ query: now, earlierQueries: [earlier] })).toEqual({ repeat: false, warnings: [] });
  });

  it('treats case and stop words as noise', () => {
    const r = checkQuery({
      query: 'What is the EFFECT of remote work on productivity',
      earlierQueries: ['effect remote work productivity'],
    });
    expect(r.repeat).toBe(true);
  });

  it('names the most similar earlier query when several repeat', () => {
    const r = checkQuery({
      query: q(base),
      earlierQueries: [q(base.slice(0, 18)), q(base), q(base.slice(0, 19))],
    });
    expect(r.warnings[0]).toContain(`"${q(base)}"`);
    expect(r.warnings[0]).toContain('100%');
  });

  it('reports both a repeat and a failed reformulation', () => {
    const r = checkQuery({ query: 'remote work', earlierQueries: ['remote work'], reformulateFrom: 'remote work' });
    expect(r).toMatchObject({ repeat: true, changeRatio: 0, reformulated: false });
    expect(r.warnings).toHaveLength(2);
  });
});
