// Issue 23: a thread whose searches hand back only pages the run already stored, and learns nothing,
// stops after two such rounds, in any phase, with a reason a person reads.
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type Harness } from '../helpers/mcp.js';
import { brief, seedSource, QUESTION } from '../helpers/fixtures.js';

let h: Harness;
afterEach(async () => h?.close());

describe('stale rounds', () => {
  it('two stale rounds in a row stop a thread in EXTRACT, with the reason', async () => {
    h = await connect();
    const b = brief();
    Object.assign(b.threads[0]!, { source_strategy: ['SURVEY', 'EXTRACT', 'VERIFY'] });
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: b });
    const urls = [1, 2, 3, 4].map((n) => `https://stored.example.org/page-${n}`);
    // Stored by another thread's reading before this thread starts.
    for (const u of urls) await seedSource(h.root, run_id, u);
    await h.ok('start_thread', { run_id, thread: 'Trials and output' });
    const round = (query: string, results: string[]) => ({ run_id, thread: 'Trials and output', query, search_results: results, urls_visited: [results[0]], facts: [], summary: 'nothing new' });

    const first = await h.ok('record_round', round('iceland four-day week productivity', urls.slice(0, 2)));
    expect(first).toMatchObject({ phase: 'SURVEY', next_phase: 'EXTRACT', converged: false });
    expect(first.warnings.join('\n')).toMatch(/already stored in the run and it added no fact: one more such round stops the thread/);

    // Other results than round 1 (no overlap, so plateau L3 cannot be what stops it), all stored.
    const second = await h.ok('record_round', round('uk pilot sectors measured output', urls.slice(2)));
    expect(second).toMatchObject({ phase: 'EXTRACT', action: 'STOP', converged: true, convergence_reason: 'PLATEAU_STOPPED', url_overlap: 0 });
    expect(second.phase_reason).toBe('nothing new is reachable: every result is already stored: the thread stopped (PLATEAU_STOPPED), no next round');
    expect(second.next).toBeUndefined();
  });

  it('a round that reads a page for the first time is not stale, even with no fact', async () => {
    h = await connect();
    const b = brief();
    Object.assign(b.threads[0]!, { source_strategy: ['SURVEY', 'EXTRACT', 'VERIFY'] });
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: b });
    await h.ok('start_thread', { run_id, thread: 'Trials and output' });
    const a = 'https://fresh.example.org/a';
    const c = 'https://fresh.example.org/c';
    await seedSource(h.root, run_id, a); // read during round 1
    const r1 = await h.ok('record_round', { run_id, thread: 'Trials and output', query: 'iceland trial output', search_results: [a], urls_visited: [a], facts: [], summary: 's' });
    expect(r1.warnings.join('\n')).not.toMatch(/one more such round stops the thread/);
    await seedSource(h.root, run_id, c); // read during round 2
    const r2 = await h.ok('record_round', { run_id, thread: 'Trials and output', query: 'uk pilot sectors', search_results: [a, c], urls_visited: [c], facts: [], summary: 's' });
    expect(r2.converged).toBe(false);
    expect(r2.warnings.join('\n')).not.toMatch(/one more such round stops the thread/);
  });

  it('a round that reads none of its new results and adds no fact is stale: two stop the thread (trial 8)', async () => {
    h = await connect();
    const b = brief();
    Object.assign(b.threads[0]!, { source_strategy: ['SURVEY', 'EXTRACT', 'VERIFY'] });
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: b });
    await h.ok('start_thread', { run_id, thread: 'Trials and output' });
    const stored = 'https://stored.example.org/page-1';
    await seedSource(h.root, run_id, stored);
    const fresh = (n: number) => [1, 2, 3].map((k) => `https://unread.example.org/r${n}-${k}`);
    const round = (query: string, results: string[], visited: string[]) => ({ run_id, thread: 'Trials and output', query, search_results: results, urls_visited: visited, facts: [], summary: 'no result worth reading' });
    const r1 = await h.ok('record_round', round('urllib3 timeout none infinite', fresh(1), []));
    expect(r1.converged).toBe(false);
    expect(r1.warnings.join('\n')).toMatch(/read none of its results the run had not stored and added no fact: one more such round stops the thread/);
    // Only a page the run already had is re-read: still nothing new.
    const r2 = await h.ok('record_round', round('urllib3 Timeout default socket', [...fresh(2), stored], [stored]));
    expect(r2).toMatchObject({ action: 'STOP', converged: true, convergence_reason: 'PLATEAU_STOPPED' });
    expect(r2.phase_reason).toBe('nothing new is reachable: no result the run had not stored was read, and no fact was added: the thread stopped (PLATEAU_STOPPED), no next round');
  });
});
