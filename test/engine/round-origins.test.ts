// The origin rules inside a round: computed confidence, `also`, held convergence, dead ends (SPEC 4.1).
import { describe, expect, it } from 'vitest';
import { decideRound, type RoundContext, type RoundInput, type StoredText } from '../../src/engine/round.js';
import { newThreadState, type ThreadState } from '../../src/engine/thread-state.js';
import type { Phase } from '../../src/engine/types.js';

const TEXT = 'The stored page says the default timeout is none, and output rose in every trial.';
// Each page's site as the store would give it: its registrable domain, or the one it mirrors.
const SITES: Record<string, string> = {
  'www.sqlite.org': 'sqlite.org',
  'blog.example.com': 'example.com',
  'docs.example.com': 'example.com',
  'other.org': 'other.org',
  'mirror.net': 'example.com', // stored with mirror_of a blog.example.com page
};
const ctx: RoundContext = {
  grounding: true,
  timestamp: '2026-01-01T00:00:00.000Z',
  canonicalKey: (u) => u.replace(/^https?:\/\//, ''),
  storedText: (key): StoredText | undefined => {
    const host = key.split('/')[0]!;
    if (key.endsWith('/unread')) return undefined;
    return { source_id: `S-${key}`, title: 'T', markdown: TEXT, origin: SITES[host] ?? host };
  },
};

function thread(o: { strategy?: Phase[]; budget?: number; quick?: boolean } = {}): ThreadState {
  return newThreadState({
    definition: {
      name: 'T',
      sub_questions: [{ id: 'SQ-1', question: 'What is the default timeout?' }],
      subjects: [],
      primary_origins: ['sqlite.org'],
      ...(o.strategy ? { source_strategy: o.strategy } : {}),
    },
    slug: 't-000000',
    critic: false,
    roundBudget: o.budget ?? 8,
    resultsPerRound: 5,
    ...(o.quick ? { quick: true } : {}),
  });
}

let n = 0;
const fact = (url: string, over: Partial<RoundInput['facts'][number]> = {}) => ({
  fact: `The default timeout is none (${++n}).`,
  url,
  quote: 'the default timeout is none',
  confidence: 'VERIFIED' as const,
  sub_questions: ['SQ-1'],
  ...over,
});
const round = (facts: RoundInput['facts'], over: Partial<RoundInput> = {}): RoundInput => ({
  query: `timeout query ${++n} ${'abcdefghij'[n % 10]}`,
  urls_visited: facts.length > 0 ? [facts[0]!.url] : [],
  facts,
  summary: 's',
  sub_question_updates: facts.length > 0 ? [{ id: 'SQ-1', status: 'ANSWERED' }] : [],
  ...over,
});

describe('computed confidence in a round', () => {
  it('VERIFIED proposed on one secondary site is PLAUSIBLE in the reply, with a warning naming the site', () => {
    const { decision, state } = decideRound(thread(), round([fact('https://blog.example.com/a')]), ctx);
    expect(decision.facts).toEqual([{ confidence: 'PLAUSIBLE', origins: 1, primary: false }]);
    expect(decision.warnings.join('\n')).toMatch(/fact 1: recorded PLAUSIBLE, not VERIFIED: it rests on one site, example\.com.*fetch_source, or add also/);
    expect(state.facts[0]).toMatchObject({ confidence: 'PLAUSIBLE', origins: ['example.com'], primary: false });
  });

  it('a grounded quote from a primary origin of the thread is VERIFIED and primary', () => {
    const { decision } = decideRound(thread(), round([fact('https://www.sqlite.org/lang.html')]), ctx);
    expect(decision.facts).toEqual([{ confidence: 'VERIFIED', origins: 1, primary: true }]);
    expect(decision).toMatchObject({ converged: true, convergence_reason: 'CRITERIA_MET' });
    expect(decision.sub_questions).toEqual([{ id: 'SQ-1', status: 'ANSWERED', confidence: 'VERIFIED', origins: 1 }]);
  });

  it('advice for a next round is said of later threads when the round stops the thread (trial 11)', () => {
    const stops = decideRound(thread(), round([fact('https://www.sqlite.org/lang.html', { fact: 'Since 2019 the default timeout is none' })]), ctx).decision;
    expect(stops).toMatchObject({ converged: true, action: 'STOP' });
    expect(stops.warnings.join('\n')).toMatch(/fact 1: 2019 is not in its quote.*\(recorded as given\); nothing to redo here, as this thread has stopped; in the facts of other threads, quote the words that state it/);
    expect(stops.warnings.join('\n')).not.toMatch(/from the next round/);
    const goesOn = decideRound(thread(), round([fact('https://blog.example.com/a', { fact: 'Since 2019 the default timeout is none' })]), ctx).decision;
    expect(goesOn.converged).toBe(false);
    expect(goesOn.warnings.join('\n')).toMatch(/from the next round, quote the words that state it/);
  });

  it('a grounded `also` from another registrable domain makes it VERIFIED', () => {
    const f = fact('https://blog.example.com/a', { also: [{ url: 'https://other.org/b', quote: 'default timeout is none' }] });
    const { decision, state } = decideRound(thread(), round([f]), ctx);
    expect(decision.facts).toEqual([{ confidence: 'VERIFIED', origins: 2, primary: false }]);
    expect(state.facts[0]!.also).toEqual([{ url: 'https://other.org/b', quote: 'default timeout is none', source_id: 'S-other.org/b' }]);
  });

  it('an `also` from a subdomain of the same registrable domain, or from a mirror, does not', () => {
    for (const other of ['https://docs.example.com/b', 'https://mirror.net/b']) {
      const f = fact('https://blog.example.com/a', { also: [{ url: other, quote: 'default timeout is none' }] });
      expect(decideRound(thread(), round([f]), ctx).decision.facts).toEqual([{ confidence: 'PLAUSIBLE', origins: 1, primary: false }]);
    }
  });

  it('an `also` that does not ground is dropped with a warning', () => {
    const f = fact('https://blog.example.com/a', {
      also: [
        { url: 'https://other.org/b', quote: 'words the page does not hold' },
        { url: 'https://other.org/unread', quote: 'default timeout is none' },
      ],
    });
    const { decision, state } = decideRound(thread(), round([f]), ctx);
    expect(decision.facts[0]).toEqual({ confidence: 'PLAUSIBLE', origins: 1, primary: false });
    expect(decision.warnings.join('\n')).toMatch(/also\[0\] dropped: its quote was not found/);
    expect(decision.warnings.join('\n')).toMatch(/also\[1\] dropped: its URL https:\/\/other\.org\/unread was not read through fetch_source/);
    expect(state.facts[0]!.also).toBeUndefined();
  });
});

describe('convergence waits for a verified answer', () => {
  it('an ANSWERED sub-question with no VERIFIED fact holds the thread until 2 late rounds bring no new site, then converges with unverified_answers', () => {
    let s = thread({ strategy: ['SURVEY', 'VERIFY'] });
    const blog = (p: string) => `https://blog.example.com/${p}`;
    // Round 1 (SURVEY): answered from the blog only; held, with the site named and a hint asking for more.
    let r = decideRound(s, round([fact(blog('a'))], { search_results: [blog('a')] }), ctx);
    expect(r.decision.converged).toBe(false);
    expect(r.decision.warnings).toContain('SQ-1 rests on one secondary site, example.com: read the primary source or a second site');
    expect(r.decision.next?.query_hints[0]).toBe('verify SQ-1: find its primary source on sqlite.org or a site other than example.com that states the answer');
    expect(r.decision.next_phase).toBe('VERIFY');
    s = r.state;
    // Round 2 (VERIFY): the same site again, new facts: 1 round without a new site.
    r = decideRound(s, round([fact(blog('b')), fact(blog('b'))], { search_results: [blog('b')] }), ctx);
    expect(r.decision.converged).toBe(false);
    expect(r.state.rounds.at(-1)).toMatchObject({ new_origins: 0, origins: ['example.com'] });
    s = r.state;
    // Round 3: still no new site: origins are exhausted and the thread converges, naming the unverified answer.
    r = decideRound(s, round([fact(blog('c')), fact(blog('c'))], { search_results: [blog('c')] }), ctx);
    expect(r.decision).toMatchObject({ converged: true, convergence_reason: 'CRITERIA_MET', action: 'STOP', unverified_answers: ['SQ-1'] });
    expect(r.state.origins_exhausted).toBe(true);
  });

  it('the quick tier does not wait', () => {
    const { decision } = decideRound(thread({ quick: true }), round([fact('https://blog.example.com/a')]), ctx);
    expect(decision).toMatchObject({ converged: true, convergence_reason: 'CRITERIA_MET', unverified_answers: ['SQ-1'] });
  });
});

describe('dead ends stop', () => {
  it('in the last phase, once origins are exhausted, a round with no new fact and no new site stops the thread', () => {
    let s = thread({ strategy: ['VERIFY'] });
    s = decideRound(s, round([], { urls_visited: ['https://blog.example.com/a'], search_results: ['https://blog.example.com/a'] }), ctx).state;
    // Nothing visited, nothing found: 0 new origins (1 of 2).
    let r = decideRound(s, round([]), ctx);
    expect(r.decision).toMatchObject({ converged: false, action: 'REFORMULATE' });
    expect(r.state).toMatchObject({ origin_streak: 1 });
    r = decideRound(r.state, round([], { search_results: ['https://docs.example.com/z'] }), ctx);
    expect(r.decision).toMatchObject({ converged: true, action: 'STOP', convergence_reason: 'PLATEAU_STOPPED', phase_reason: 'no new site in 2 rounds: the thread stopped (PLATEAU_STOPPED), no next round' });
  });
});
