// Defects the real-model trials of the merged pack logged: numbers stated only in a heading, contradiction
// ids in the reply, quotes cut inside a markdown link.
import { describe, expect, it } from 'vitest';
import { decideRound, type RoundContext, type RoundInput } from '../../src/engine/round.js';
import { newThreadState, type ThreadState } from '../../src/engine/thread-state.js';
import { enclosingHeadings, projectForMatching, quoteFound, quoteFoundIn } from '../../src/engine/grounding.js';
import { numbersNotInQuote } from '../../src/engine/facts.js';
import { InputError } from '../../src/errors.js';

const CHANGELOG = [
  '# Changelog',
  '',
  '## [2.31.0](https://example.org/releases/2.31.0) (2023-05-22)',
  '',
  '### Security',
  '',
  '- Proxy-Authorization headers are no longer forwarded to destination servers when following redirects.',
  '',
  '### Bugfixes',
  '',
  '- Fixed a bug where sessions leaked connections.',
  '',
  '## 2.30.0 (2023-05-03)',
  '',
  '- Added support for urllib3 2.0.',
  '',
  '```',
  '# 9.9 is a comment in a code block, not a heading',
  'print("the example")',
  '```',
].join('\n');

function thread(): ThreadState {
  return newThreadState({
    definition: { name: 'T', sub_questions: [{ id: 'SQ-1', question: 'What changed?' }], subjects: [], primary_origins: ['x.org'] },
    slug: 't-000000',
    critic: false,
    roundBudget: 10,
    resultsPerRound: 5,
  });
}
const ctx = (markdown: string): RoundContext => ({
  grounding: true,
  timestamp: '2026-01-01T00:00:00.000Z',
  canonicalKey: (u) => {
    if (!/^https?:\/\//.test(u)) throw new InputError('not an http(s) URL');
    return u.replace(/^https?:\/\//, '');
  },
  storedText: () => ({ source_id: 'S1', title: 'Changelog', markdown }),
});
const round = (over: Partial<RoundInput>): RoundInput => ({ query: `q ${Math.random()}`, urls_visited: ['https://x.org/c'], facts: [], summary: 's', ...over });

describe('a number stated only in a heading enclosing the quote', () => {
  it('finds the nearest heading above the quote at each level, and none for a quote across sections', () => {
    expect(enclosingHeadings('Proxy-Authorization headers are no longer forwarded', CHANGELOG)).toEqual(['Changelog', '2.31.0 (2023-05-22)', 'Security']);
    expect(enclosingHeadings('sessions leaked connections', CHANGELOG)).toEqual(['Changelog', '2.31.0 (2023-05-22)', 'Bugfixes']);
    expect(enclosingHeadings('Added support for urllib3', CHANGELOG)).toEqual(['Changelog', '2.30.0 (2023-05-03)']);
    // A "#" line in a fenced block is code, not a heading.
    expect(enclosingHeadings('print("the example")', CHANGELOG)).toEqual(['Changelog', '2.30.0 (2023-05-03)']);
    expect(enclosingHeadings('leaked connections. 2.30.0', CHANGELOG)).toEqual([]);
    expect(enclosingHeadings('not on the page', CHANGELOG)).toEqual([]);
  });

  it('counts the headings as quoted, and only them', () => {
    expect(numbersNotInQuote('2.31.0 stopped forwarding Proxy-Authorization.', 'no longer forwarded', ['Changelog', '2.31.0 (2023-05-22)'])).toEqual([]);
    expect(numbersNotInQuote('2.31.0 stopped forwarding Proxy-Authorization.', 'no longer forwarded')).toEqual(['2.31.0']);
  });

  it('record_round accepts the version from the enclosing heading and still warns for one in neither', () => {
    const facts = [
      { fact: 'Requests 2.31.0 no longer forwards Proxy-Authorization headers on redirects.', url: 'https://x.org/c', quote: 'Proxy-Authorization headers are no longer forwarded to destination servers when following redirects.', confidence: 'PLAUSIBLE' as const },
      // 2.30.0 is a heading on the page, but not one above this quote; 9.9 is in no heading at all.
      { fact: 'Requests 2.30.0 fixed leaking sessions, as 9.9 did.', url: 'https://x.org/c', quote: 'Fixed a bug where sessions leaked connections.', confidence: 'PLAUSIBLE' as const },
    ];
    const { decision } = decideRound(thread(), round({ facts }), ctx(CHANGELOG));
    const numbers = decision.warnings.filter((w) => w.includes('not in its quote'));
    expect(numbers).toEqual([expect.stringMatching(/^fact 2: 2\.30\.0, 9\.9 are not in its quote, the headings above it or the page title/)]);
  });
});

describe('contradiction ids', () => {
  const c = { claim: 'x', source_a: 'a', url_a: 'https://x.org/a', source_b: 'b', url_b: 'https://y.org/b', status: 'OPEN' as const };

  it('the decision names the id each contradiction of the round got or updated, in input order', () => {
    const r1 = decideRound(thread(), round({ contradictions: [c, { ...c, claim: 'y' }] }), ctx(CHANGELOG));
    expect(r1.decision.contradictions).toEqual([{ id: 'C1', status: 'OPEN' }, { id: 'C2', status: 'OPEN' }]);
    const r2 = decideRound(r1.state, round({ contradictions: [{ ...c, id: 'C2', status: 'RESOLVED' }] }), ctx(CHANGELOG));
    expect(r2.decision.contradictions).toEqual([{ id: 'C2', status: 'RESOLVED' }]);
    expect(decideRound(thread(), round({}), ctx(CHANGELOG)).decision.contradictions).toBeUndefined();
  });

  it('an unknown id lists the run’s ids (issue 24: ids are run-wide)', () => {
    const r1 = decideRound(thread(), round({ contradictions: [c] }), ctx(CHANGELOG));
    const r2 = decideRound(r1.state, round({ contradictions: [{ ...c, id: 'C7', status: 'RESOLVED' }] }), ctx(CHANGELOG));
    expect(r2.decision.warnings).toContain('contradiction id "C7" is unknown in this run (its ids are C1); recorded as a new contradiction, C2');
    expect(r2.decision.contradictions).toEqual([{ id: 'C2', status: 'RESOLVED' }]);
    const fresh = decideRound(thread(), round({ contradictions: [{ ...c, id: 'C1' }] }), ctx(CHANGELOG));
    expect(fresh.decision.warnings).toContain('contradiction id "C1" is unknown in this run (it has none yet); recorded as a new contradiction, C1');
  });

  it('a new id follows every thread’s, and an id of another thread updates it there', () => {
    const theirs = { ...c, id: 'C3', severity: 'MEDIUM' as const, round: 2, thread: 'Other' };
    const r = decideRound(thread(), round({ contradictions: [c, { ...c, id: 'C3', status: 'RESOLVED', resolution: 'the manual is newer' }] }), { ...ctx(CHANGELOG), otherContradictions: [theirs] });
    expect(r.decision.contradictions).toEqual([{ id: 'C4', status: 'OPEN' }, { id: 'C3', status: 'RESOLVED' }]);
    expect(r.foreign).toEqual([{ ...theirs, status: 'RESOLVED', resolution: 'the manual is newer', resolved_round: 1 }]);
    expect(r.state.contradictions.map((x) => x.id)).toEqual(['C4']);
  });
});

describe('a quote cut inside a markdown link', () => {
  const page = [
    'For exact arithmetic see [the decimal module](https://docs.python.org/3/library/decimal.html#module-decimal), which rounds as taught.',
    '',
    'Usage: `git log [options] [<revision-range>]` lists commits.',
  ].join('\n');
  const projected = projectForMatching(page);

  it('grounds a quote ending inside the link text, its destination or right after its text', () => {
    for (const quote of [
      'For exact arithmetic see [the decimal',
      'For exact arithmetic see [the decimal module](https://docs.python.org/3/library/dec',
      'For exact arithmetic see [the decimal module](',
      'For exact arithmetic see [the decimal module]',
      'decimal module](https://docs.python.org/3/library/decimal.html#module-decimal), which rounds as taught.',
      'the decimal module](https://docs.python.org/3/library/decimal.html#module-decimal), which rounds',
      'see [the decimal **module',
    ]) {
      expect(page.includes(quote.replace(' **', ' ')) || page.includes(quote), quote).toBe(true);
      expect(quoteFoundIn(quote, projected), quote).toBe(true);
    }
    // A literal bracket that is no link still matches as typed.
    expect(quoteFound('git log [options] [<revision-range>]', page)).toBe(true);
    expect(quoteFound('Usage: `git log [options]', page)).toBe(true);
  });

  it('still needs one contiguous run of the page', () => {
    expect(quoteFound('For exact arithmetic see [the decimal arithmetic', page)).toBe(false);
    expect(quoteFound('see [the decimal module](https://docs.python.org/3/library/decimal.html#module-decimal), as taught', page)).toBe(false);
    expect(quoteFound('arithmetic [the decimal', page)).toBe(false);
    expect(quoteFound('git log options', page)).toBe(false);
    expect(quoteFound('[](', page)).toBe(false);
  });
});
