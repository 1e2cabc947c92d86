import { describe, expect, it } from 'vitest';
import {
  DRIFT_STREAK_LIMIT,
  assessDrift,
  driftAction,
  keyTerms,
  nextDriftStreak,
  terms,
  type DriftInput,
} from '../../src/engine/drift.js';

const base: DriftInput = {
  text: '',
  subjects: ['Microsoft Japan', 'Iceland'],
  subQuestions: ['Does a four-day week change output per worker?'],
  include: ['working hours'],
  exclude: [],
};
const assess = (over: Partial<DriftInput>) => assessDrift({ ...base, ...over });

describe('terms and keyTerms', () => {
  it('lower-cases and splits on anything but Unicode letters and digits', () => {
    expect(terms('Four-day WEEK: Zürich, 2019!')).toEqual(['four', 'day', 'week', 'zürich', '2019']);
  });

  it('keeps sub-question words of 4+ letters that are not stop words, once', () => {
    expect(keyTerms(['What is the change in output per worker for a four-day week?', 'Which changes in OUTPUT?'])).toEqual([
      'change',
      'output',
      'worker',
      'four',
      'week',
      'changes',
    ]);
  });
});

describe('subject signal', () => {
  it('fires when no subject or include term appears', () => {
    expect(assess({ text: 'A recipe for banana bread.' })).toEqual({ drift: true, signals: ['subject'] });
  });

  it('does not count sub-question words, which are on nearly every page (issue 24)', () => {
    expect(assess({ text: 'Output per worker rose.' }).signals).toEqual(['subject']);
  });

  it('finds an include phrase and a multi-word subject with their words in any order, close together', () => {
    expect(assess({ text: 'Shorter Working Hours' }).signals).toEqual([]);
    expect(assess({ text: 'A trial at Microsoft Japan' }).signals).toEqual([]);
    expect(assess({ text: 'Hours spent working fell.' }).signals).toEqual([]);
    const apart = `Japan ${'and more words here '.repeat(5)} Microsoft`;
    expect(assessDrift({ ...base, include: [], text: apart }).signals).toEqual(['subject']);
  });

  it('matches whole words, and a plural of a subject word but not a singular of it', () => {
    expect(assessDrift({ ...base, include: [], text: 'Icelandic sagas' }).signals).toEqual(['subject']);
    const requests = { subjects: ['requests', 'timeout'], subQuestions: [], include: [], exclude: [] };
    expect(assessDrift({ ...requests, text: 'Each request waits.' }).signals).toEqual(['subject']);
    expect(assessDrift({ ...requests, text: 'Set timeouts.' }).signals).toEqual([]);
  });

  it('looks for a dotted name whole, and for a one- or two-letter name in its case', () => {
    const r = { subjects: ['R', 'read.csv'], subQuestions: [], include: [], exclude: [] };
    expect(assessDrift({ ...r, text: 'Read the CSV file with open(f, "r").' }).signals).toEqual(['subject']);
    expect(assessDrift({ ...r, text: 'Use read.csv() for that.' }).signals).toEqual([]);
    expect(assessDrift({ ...r, text: 'In R, data frames.' }).signals).toEqual([]);
  });

  it('looks at the title too, and not at link targets', () => {
    expect(assess({ text: 'Unrelated body.', title: 'Iceland trial results' }).signals).toEqual([]);
    expect(assess({ text: 'See [the report](https://example.org/iceland-trial).' }).signals).toEqual(['subject']);
  });

  it('falls back to sub-question words when the thread names no subject or include term, and has nothing to miss when it names nothing', () => {
    expect(assessDrift({ text: 'Output rose.', subjects: [], subQuestions: base.subQuestions, include: [], exclude: [] }).signals).toEqual([]);
    expect(assessDrift({ text: 'anything', subjects: [], subQuestions: [], include: [], exclude: [] })).toEqual({
      drift: false,
      signals: [],
    });
  });
});

describe('domain signal', () => {
  const java = { subjects: ['Java'], subQuestions: [], include: ['Indonesia', 'island'], exclude: ['programming', 'JVM'] };

  it('fires when exclude terms outnumber the subjects and include terms, case-insensitively', () => {
    expect(assess({ ...java, text: 'Java programming on the jvm, PROGRAMMING tips. Java island.' }).signals).toEqual([]);
    expect(assess({ ...java, text: 'Java programming on the jvm, PROGRAMMING tips and programming books.' }).signals).toEqual(['domain']);
  });

  it('does not fire on a tie or when the subject leads', () => {
    expect(assess({ ...java, text: 'Java island programming jvm' }).signals).toEqual([]);
    expect(assess({ ...java, text: 'Java, Indonesia: island life, some programming.' }).signals).toEqual([]);
  });

  it('counts whole words only and only runs with exclude terms', () => {
    expect(assess({ ...java, text: 'Java reprogramming island' }).signals).toEqual([]);
    expect(assess({ ...java, exclude: [], text: 'Java' }).signals).toEqual([]);
  });
});

describe('temporal signal', () => {
  const scope = { period: { from: 2015, to: 2020 } };

  it('uses the published year when known, with no slack', () => {
    expect(assess({ scope, published: 2014, text: 'Iceland 2016' }).signals).toEqual(['temporal']);
    expect(assess({ scope, published: 2021, text: 'Iceland' }).signals).toEqual(['temporal']);
    expect(assess({ scope, published: 2015, text: 'Iceland 1950' }).signals).toEqual([]);
    expect(assess({ scope, published: 2020, text: 'Iceland' }).signals).toEqual([]);
  });

  it('without a published year, fires only when every mentioned year is more than 5 years outside', () => {
    expect(assess({ scope, text: 'Iceland in 1990 and 2009' }).signals).toEqual(['temporal']);
    expect(assess({ scope, text: 'Iceland in 2026' }).signals).toEqual(['temporal']);
    expect(assess({ scope, text: 'Iceland in 1990 and 2010' }).signals).toEqual([]);
    expect(assess({ scope, text: 'Iceland in 2025' }).signals).toEqual([]);
    expect(assess({ scope, text: 'Iceland in 1990 and 2017' }).signals).toEqual([]);
  });

  it('needs at least one year 1900–2099 in the text', () => {
    expect(assess({ scope, text: 'Iceland, no dates, 1850 units, 2150 people' }).signals).toEqual([]);
    expect(assess({ scope, text: 'Iceland, 1850 and 1899' }).signals).toEqual([]);
  });

  it('never fires without a scope period', () => {
    expect(assess({ published: 1901, text: 'Iceland 1901' }).signals).toEqual([]);
  });
});

describe('geographic signal', () => {
  it('fires when the page names only out-of-scope countries', () => {
    expect(assess({ scope: { regions: ['Europe'] }, text: 'Iceland trial, compared with Japan' }).signals).toEqual([]);
    expect(assess({ scope: { regions: ['Europe'] }, text: 'Microsoft Japan trial' }).signals).toEqual(['geographic']);
  });

  it('expands EU to its members', () => {
    const scope = { regions: ['EU'] };
    expect(assess({ scope, text: 'working hours in Norway' }).signals).toEqual(['geographic']);
    expect(assess({ scope, text: 'working hours in Norway and Sweden' }).signals).toEqual([]);
  });

  it('does not fire when no country is named, or the scope cannot be placed', () => {
    expect(assess({ scope: { regions: ['EU'] }, text: 'working hours in general' }).signals).toEqual([]);
    expect(assess({ scope: { regions: ['Atlantis'] }, text: 'working hours in Japan' }).signals).toEqual([]);
    expect(assess({ scope: { regions: [] }, text: 'working hours in Japan' }).signals).toEqual([]);
  });
});

describe('signals together', () => {
  it('lists every signal that fired in the fixed order', () => {
    const r = assessDrift({
      ...base,
      include: ['hours'],
      exclude: ['football'],
      scope: { regions: ['EU'], period: { from: 2015, to: 2020 } },
      versionContext: ['Football 2.3'],
      text: 'Football 1.9: football in Brazil, football in 1970.',
    });
    expect(r).toEqual({ drift: true, signals: ['subject', 'domain', 'temporal', 'geographic', 'version'], excluded: [{ term: 'football', count: 3 }], stated: 0 });
  });
});

describe('drift streak', () => {
  it('reformulates on the third drift in a row and resets on a relevant result', () => {
    expect(DRIFT_STREAK_LIMIT).toBe(3);
    const seen: string[] = [];
    let streak = 0;
    for (const drift of [true, true, false, true, true, true, true, false]) {
      streak = nextDriftStreak(streak, drift);
      seen.push(`${streak}:${driftAction(streak, drift)}`);
    }
    expect(seen).toEqual([
      '1:skip',
      '2:skip',
      '0:extract',
      '1:skip',
      '2:skip',
      '3:reformulate',
      '4:reformulate',
      '0:extract',
    ]);
  });

  it('extracts a relevant result whatever the count says', () => {
    expect(driftAction(7, false)).toBe('extract');
  });
});
