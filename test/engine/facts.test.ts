import { describe, expect, it } from 'vitest';
import { admitFact, classifyNew, normalizeFactText, numbersNotInQuote, type FactInput } from '../../src/engine/facts.js';

const URL_A = 'https://example.org/a';
const stored: Record<string, string> = {
  [URL_A]: 'The trial ran for **six months**. Output per hour rose by 5–8%, see [table 2](https://example.org/t2).',
};
const on = { grounding: true, storedMarkdownFor: (u: string) => stored[u] };
const off = { grounding: false, storedMarkdownFor: (u: string) => stored[u] };
const fact = (over: Partial<FactInput> = {}): FactInput => ({
  fact: 'Output per hour rose',
  url: URL_A,
  quote: 'Output per hour rose by 5-8%, see table 2',
  confidence: 'VERIFIED',
  ...over,
});

describe('normalizeFactText', () => {
  it('folds case, quotes, dashes, spaces and trailing punctuation', () => {
    expect(normalizeFactText('  Output  ROSE by 5–8%. ')).toBe('output rose by 5-8%');
    expect(normalizeFactText('It’s “fine”!?')).toBe(normalizeFactText(`it's "fine"`));
  });
});

describe('admitFact with grounding on', () => {
  it('keeps the confidence of a fact whose quote is in the stored text', () => {
    expect(admitFact(fact(), on)).toEqual({ confidence: 'VERIFIED', grounded: true });
    expect(admitFact(fact({ confidence: 'PLAUSIBLE', quote: 'ran for six months' }), on)).toEqual({
      confidence: 'PLAUSIBLE',
      grounded: true,
    });
  });

  it('downgrades a fact without a quote and says to add one', () => {
    for (const quote of [undefined, '', '   ']) {
      const r = admitFact(fact({ quote }), on);
      expect(r.confidence).toBe('UNVERIFIED');
      expect(r.grounded).toBe(false);
      expect(r.notes).toBe('add a verbatim quote');
      expect(r.warning).toMatch(/no quote/);
    }
  });

  it('downgrades a fact whose URL was not read through fetch_source', () => {
    const r = admitFact(fact({ url: 'https://example.org/never-fetched' }), on);
    expect(r).toMatchObject({ confidence: 'UNVERIFIED', grounded: false });
    expect(r.notes).toMatch(/not read through fetch_source/);
    expect(r.warning).toContain('https://example.org/never-fetched');
  });

  it('downgrades a fact whose quote is not in the stored text', () => {
    const r = admitFact(fact({ quote: 'Output per hour rose by 12%' }), on);
    expect(r).toMatchObject({ confidence: 'UNVERIFIED', grounded: false });
    expect(r.notes).toMatch(/quote not found in the stored text/);
    expect(r.warning).toMatch(/not grounded/);
    expect(r.warning).not.toMatch(/fact \d/);
  });

  it('looks the text up by the fact URL', () => {
    const seen: string[] = [];
    admitFact(fact(), { grounding: true, storedMarkdownFor: (u) => (seen.push(u), undefined) });
    expect(seen).toEqual([URL_A]);
  });
});

describe('admitFact with grounding off', () => {
  it('never downgrades, but only calls a found quote grounded', () => {
    expect(admitFact(fact(), off)).toEqual({ confidence: 'VERIFIED', grounded: true });
    expect(admitFact(fact({ quote: 'not there' }), off)).toEqual({ confidence: 'VERIFIED', grounded: false });
    expect(admitFact(fact({ quote: undefined }), off)).toEqual({ confidence: 'VERIFIED', grounded: false });
    expect(admitFact(fact({ url: 'https://example.org/x' }), off)).toEqual({ confidence: 'VERIFIED', grounded: false });
  });
});

describe('classifyNew', () => {
  it('marks confirms_known facts and repeats of earlier thread facts as not new', () => {
    const earlier = new Set(['output rose by 5-8%']);
    expect(
      classifyNew(
        [
          { fact: 'Output rose by 5–8%.' },
          { fact: 'Sick days fell', confirms_known: true },
          { fact: 'Burnout fell' },
          { fact: 'Burnout fell', confirms_known: false },
        ],
        earlier,
      ),
    ).toEqual([false, false, true, false]);
  });

  it('counts a repeat within the same round once, even after a confirming copy', () => {
    expect(
      classifyNew([{ fact: 'A rose', confirms_known: true }, { fact: 'a ROSE' }, { fact: 'B fell' }], new Set()),
    ).toEqual([false, false, true]);
  });

  it('accepts earlier texts that were not normalised', () => {
    expect(classifyNew([{ fact: 'output rose' }], new Set(['  Output ROSE.']))).toEqual([false]);
  });
});

describe('numbersNotInQuote', () => {
  // A real run recorded a fact naming versions 3.8.0, 3.9.1, 4.0.0 and 4.1.3 with a quote holding none of them.
  it('names the numbers a fact states that its quote does not contain', () => {
    expect(numbersNotInQuote('Policy 3.8.0 and 4.1.3 changed the copyright rules.', 'The copyright file rules were revised.')).toEqual(['3.8.0', '4.1.3']);
    expect(numbersNotInQuote('Output rose 1.4% among 2,500 workers.', 'output rose 1.4 percent for the 2500 workers')).toEqual([]);
  });
  it('ignores digits inside words and facts without a quote', () => {
    expect(numbersNotInQuote('S3 runs on x86 with UTF8.', 'It runs.')).toEqual([]);
    // Trial 13: "Q2.14" of the R for Windows FAQ is an identifier, not the number 14.
    expect(numbersNotInQuote('The home directory is defined in the rw-FAQ Q2.14.', 'see the ‘rw-FAQ’ Q2.14.')).toEqual([]);
    expect(numbersNotInQuote('See Q2.14 and 3 more.', 'see Q2.14')).toEqual(['3']);
    expect(numbersNotInQuote('Revenue rose 4%.', undefined)).toEqual([]);
  });
});

describe('numbersNotInQuote: what states a number (trial 8)', () => {
  it('takes a number with a unit written onto it as stated', () => {
    expect(numbersNotInQuote('The default total timeout is 5 minutes', 'total=5*60 seconds (5min)')).toEqual([]);
    expect(numbersNotInQuote('Waits 300 ms between retries', 'a back-off of 300ms')).toEqual([]);
  });

  it('takes a release named by its minor version as stated by its patch release', () => {
    expect(numbersNotInQuote('Python 3.11 documents the timeout', 'the optional timeout parameter', ['Python 3.11.2 documentation'])).toEqual([]);
    // But not the other way round, and not another release.
    expect(numbersNotInQuote('Python 3.11.4 documents it', 'see the docs', ['Python 3.11 documentation'])).toEqual(['3.11.4']);
    expect(numbersNotInQuote('Python 3.1 documents it', 'see the docs', ['Python 3.11.2 documentation'])).toEqual(['3.1']);
  });
});
