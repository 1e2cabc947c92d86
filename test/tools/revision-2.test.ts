// The contract revision 2 added (SPEC 9), through a real MCP client: plan warnings and tiers, unknown
// fields refused by name, one path base, phase allowances in thread_status, source hints in the
// directives, search results as the overlap input, the sub-question echo and the critic's next thread.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, snapshotTree, tempDir, type Harness } from '../helpers/mcp.js';
import { brief, PAGE, QUESTION, seedSource } from '../helpers/fixtures.js';
import { UNANSWERABLE } from '../../src/engine/critic.js';

let h: Harness;
afterEach(async () => h?.close());

const T = 'Trials and output';

describe('start_run plan checks', () => {
  it('the dry run warns about subjects without a round and phases with allowance 0, and returns tiers', async () => {
    h = await connect();
    const b = brief();
    b.threads[0]!.subjects = ['Iceland trial', 'UK pilot', 'Spain'];
    const r = await h.ok('start_run', { question: QUESTION, brief: b, depth: 'quick', dry_run: true });
    const w: string[] = r.warnings;
    expect(w.find((x) => x.startsWith(`thread "${T}" has 3 subjects but 1 round before its last phase (VERIFY)`))).toBeDefined();
    expect(w.find((x) => x.startsWith(`thread "${T}": EXTRACT, DIVERSIFY get no round`))).toBeDefined();
    expect(r.tiers).toEqual({
      quick: { max_threads: 2, rounds_per_thread: 2, results_per_round: 3, critic_rounds: 2 },
      standard: { max_threads: 4, rounds_per_thread: 5, results_per_round: 5, critic_rounds: 2 },
      deep: { max_threads: 6, rounds_per_thread: 10, results_per_round: 5, critic_rounds: 3 },
    });
    expect(snapshotTree(h.root)).toEqual({});
  });

  it('reminds about the counter-evidence thread only when the brief is full and none reads as one', async () => {
    h = await connect();
    const full = brief();
    full.threads[1]!.name = 'Sectors';
    full.threads[1]!.sub_questions = [{ id: 'SQ-1', question: 'Which sectors ran trials?' }];
    const r = await h.ok('start_run', { question: QUESTION, brief: full, depth: 'quick', dry_run: true });
    expect(r.warnings.join('\n')).toMatch(/none reads as the counter-evidence thread/);
    const withCounter = await h.ok('start_run', { question: QUESTION, brief: brief(), depth: 'quick', dry_run: true });
    expect(withCounter.warnings.join('\n')).not.toMatch(/counter-evidence/);
    const roomy = await h.ok('start_run', { question: QUESTION, brief: full, depth: 'deep', dry_run: true });
    expect(roomy.warnings).toEqual([]);
    expect(roomy.tiers).toBeDefined();
  });

  it('a real start returns the same warnings, and no tiers', async () => {
    h = await connect();
    const r = await h.ok('start_run', { question: QUESTION, brief: brief(), depth: 'quick' });
    expect(r.warnings.length).toBeGreaterThan(0);
    expect(r.tiers).toBeUndefined();
  });

  it('a refusal for too many threads names the tiers that would take them', async () => {
    h = await connect();
    const b = brief();
    b.threads.push({ ...b.threads[0]!, name: 'Third' });
    expect(await h.refused('start_run', { question: QUESTION, brief: b, depth: 'quick' })).toMatch(/standard allows 4, deep allows 6/);
  });
});

describe('unknown fields are refused with the nearest known name', () => {
  it('in the brief, in a thread, and at the top level; nothing is written', async () => {
    h = await connect();
    const foo = await h.refused('start_run', { question: QUESTION, brief: { ...brief(), foo: 1 } });
    expect(foo).toMatch(/unknown field "foo"/);
    expect(foo).toMatch(/known fields here: threads, assumptions/);

    const b = brief();
    const t = b.threads[0]! as Record<string, unknown>;
    t.source_stratgy = ['SURVEY'];
    expect(await h.refused('start_run', { question: QUESTION, brief: b })).toMatch(/"source_stratgy" \(did you mean "source_strategy"\?\)/);

    expect(await h.refused('start_run', { question: QUESTION, brief: brief(), dryrun: true })).toMatch(/"dryrun" \(did you mean "dry_run"\?\)/);
    expect(await h.refused('start_run', { question: QUESTION, brief: brief({ disambiguation: { includes: ['x'] } }) })).toMatch(
      /did you mean "include"/,
    );
    expect(await h.refused('start_run', { question: QUESTION, brief: brief({ source_hints: { EXTRAKT: ['docs'] } }) })).toMatch(/did you mean "EXTRACT"/);
    expect(snapshotTree(h.root)).toEqual({});
  });

  it('start_thread refuses a misspelled definition field, and a definition.name that is not the thread', async () => {
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief(), depth: 'deep' });
    const def = { sub_questions: [{ id: 'SQ-1', question: 'What did it cost?' }], subjects: [] };
    expect(await h.refused('start_thread', { run_id, thread: 'Costs', definition: { ...def, subject: ['x'] } })).toMatch(/did you mean "subjects"/);
    expect(await h.refused('start_thread', { run_id, thread: 'Costs', definition: { ...def, name: 'Other' } })).toMatch(/definition.name is "Other"/);
    const ok = await h.ok('start_thread', { run_id, thread: 'Costs', definition: { ...def, name: 'Costs' } });
    expect(ok.thread).toBe('Costs');
  });

  it('record_round refuses a misspelled field, top level or in a fact, rather than dropping it; no round is recorded', async () => {
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
    const thread = 'Trials and output';
    await h.ok('start_thread', { run_id, thread });
    const base = { run_id, thread, query: 'four-day week trial output', urls_visited: [], facts: [], summary: 'Nothing found.' };
    expect(await h.refused('record_round', { ...base, search_result: ['https://example.org/a'] })).toMatch(/"search_result" \(did you mean "search_results"\?\)/);
    const fact = { fact: 'Output held.', url: 'https://example.org/a', confidence: 'PLAUSIBLE', sub_question: ['SQ-1'] };
    expect(await h.refused('record_round', { ...base, facts: [fact] })).toMatch(/did you mean "sub_questions"/);
    expect((await h.ok('thread_status', { run_id, thread })).rounds_completed).toBe(0);
  });
});

describe('one path base', () => {
  const exists = (cwd: string, p: string) => fs.existsSync(path.isAbsolute(p) ? p : path.join(cwd, p));

  it('with the artifacts root inside the working directory, every path is relative to it and opens from it', async () => {
    const cwd = tempDir();
    h = await connect({ root: path.join(cwd, 'artifacts'), cwd });
    const s = await h.ok('start_run', { question: QUESTION, brief: brief() });
    expect(s.run_dir).toBe(`artifacts/${s.run_id}`);
    expect(s.report_path).toBe(`artifacts/${s.run_id}/report.md`);
    expect(exists(cwd, path.join(s.run_dir, 'brief.md'))).toBe(true);
    await h.ok('start_thread', { run_id: s.run_id, thread: T });
    const r = await h.ok('record_round', { run_id: s.run_id, thread: T, query: 'q', urls_visited: [], facts: [], summary: 's' });
    expect(r.micro_report.startsWith(`artifacts/${s.run_id}/micro-report-`)).toBe(true);
    expect(exists(cwd, r.micro_report)).toBe(true);
    const c = await h.ok('complete_thread', { run_id: s.run_id, thread: T });
    expect(c.path.startsWith(`artifacts/${s.run_id}/thread-completion-`)).toBe(true);
    expect(exists(cwd, c.path)).toBe(true);
  });

  it('with the artifacts root outside the working directory, every path is absolute', async () => {
    const root = tempDir();
    h = await connect({ root, cwd: tempDir() });
    const s = await h.ok('start_run', { question: QUESTION, brief: brief() });
    expect(s.run_dir).toBe(path.join(root, s.run_id));
    expect(s.report_path).toBe(path.join(root, s.run_id, 'report.md'));
    await h.ok('start_thread', { run_id: s.run_id, thread: T });
    const r = await h.ok('record_round', { run_id: s.run_id, thread: T, query: 'q', urls_visited: [], facts: [], summary: 's' });
    expect(path.isAbsolute(r.micro_report) && fs.existsSync(r.micro_report)).toBe(true);
    const c = await h.ok('complete_thread', { run_id: s.run_id, thread: T });
    expect(path.isAbsolute(c.path) && fs.existsSync(c.path)).toBe(true);
  });
});

describe('threads: allowances, hints, overlap and the sub-question echo', () => {
  it('thread_status shows each phase\'s allowance and where the thread stands', async () => {
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
    const st = await h.ok('start_thread', { run_id, thread: T });
    expect(st.phases).toEqual(['SURVEY 0 of 2 rounds (now)', 'EXTRACT 0 of 1 round (ahead)', 'DIVERSIFY 0 of 1 round (ahead)', 'VERIFY 0 of 1 round (ahead)']);
    await h.ok('record_round', { run_id, thread: T, query: 'q', urls_visited: [], facts: [], summary: 's' });
    const after = await h.ok('thread_status', { run_id, thread: T });
    // Zero new facts: saturation HIGH leaves SURVEY early, and its unused round goes to VERIFY.
    expect(after.phases).toEqual(['SURVEY 1 of 1 round (done)', 'EXTRACT 0 of 1 round (now)', 'DIVERSIFY 0 of 1 round (ahead)', 'VERIFY 0 of 2 rounds (ahead)']);
  });

  it('directives use the thread\'s source hints, else the run\'s, else the generic ones', async () => {
    h = await connect();
    const b = brief({ source_hints: { SURVEY: ['official documentation'], EXTRACT: ['API reference'] } });
    (b.threads[0] as Record<string, unknown>).source_hints = { SURVEY: ['release notes'] };
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: b, depth: 'deep' });
    const own = await h.ok('start_thread', { run_id, thread: T });
    expect(own.next.query_hints).toEqual(['release notes']);
    const run = await h.ok('start_thread', { run_id, thread: 'Counter-evidence' });
    expect(run.next.query_hints).toEqual(['official documentation']);
    const critic = await h.ok('start_thread', { run_id, thread: 'Critic', definition: { sub_questions: [{ id: 'SQ-1', question: 'q?' }], subjects: [], source_strategy: ['DIVERSIFY'] } });
    expect(critic.next.query_hints.join()).toMatch(/forums/);
    const text = fs.readFileSync(path.join(h.root, run_id, 'brief.md'), 'utf8');
    expect(text).toContain('Source hints: SURVEY: release notes; EXTRACT: API reference');
    expect(text).toContain('Source strategy (rounds per phase): SURVEY (2) → EXTRACT (3) → DIVERSIFY (2) → VERIFY (3)');
  });

  it('overlap is measured on search results; the micro-report shows it, its input and every query', async () => {
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief(), depth: 'deep' });
    for (const c of 'ab') await seedSource(h.root, run_id, `https://example.org/${c}`, PAGE(c.charCodeAt(0)));
    await h.ok('start_thread', { run_id, thread: T });
    const results = ['https://example.org/a', 'https://example.org/b', 'https://example.org/c'];
    const fact = (c: string, n: number) => ({ fact: `Fact ${n}.`, url: `https://example.org/${c}`, quote: 'kept productivity the same', confidence: 'PLAUSIBLE', sub_questions: ['SQ-1'] });
    await h.ok('record_round', { run_id, thread: T, query: 'first search', urls_visited: [results[0]], search_results: results, facts: [fact('a', 1), fact('a', 2)], summary: 's' });
    const r = await h.ok('record_round', {
      run_id,
      thread: T,
      query: 'second search',
      queries: ['a third search'],
      urls_visited: [results[1]],
      search_results: ['https://www.example.org/c/', 'http://example.org/b?utm_source=x', 'https://example.org/a#top'],
      facts: [fact('b', 3)],
      sub_question_updates: [{ id: 'SQ-1', status: 'PARTIAL', confidence: 'PLAUSIBLE' }],
      summary: 's',
    });
    expect(r).toMatchObject({ url_overlap: 1, overlap_on: 'search_results', plateau_level: 1 });
    expect(r.sub_questions).toEqual([
      { id: 'SQ-1', status: 'PARTIAL', confidence: 'PLAUSIBLE', origins: 1 },
      { id: 'SQ-2', status: 'OPEN', origins: 0 },
    ]);
    const text = fs.readFileSync(path.join(h.root, r.micro_report), 'utf8');
    expect(text).toContain('- Queries: `second search`; `a third search`\n');
    expect(text).toContain('- URL overlap with the previous round: 1.00, measured on the search results\n');
  });
});

describe('record_critique: the next thread', () => {
  const gap = (over: Record<string, unknown> = {}) => ({
    kind: 'missing-counterarg',
    description: 'No source says what the extra staff cost',
    query: 'four-day week extra staff cost',
    priority: 2,
    material: true,
    ...over,
  });

  it('hands a ready definition for the top gap, counts critic threads left, and dedupes open questions', async () => {
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief(), depth: 'deep' });
    const c1 = await h.ok('record_critique', {
      run_id,
      gaps: [gap(), gap({ description: 'Long-run effects unknown.', unanswerable: true }), gap({ description: 'long-run  effects UNKNOWN', unanswerable: true })],
      signoff: false,
    });
    expect(c1.next_target).toBe('four-day week extra staff cost');
    expect(c1.next_definition).toEqual({
      name: 'Critic 1: four-day week extra staff cost',
      sub_questions: [{ id: 'SQ-1', question: 'What do the sources say about four-day week extra staff cost? (No source says what the extra staff cost)' }],
      subjects: [],
    });
    expect(c1.critic_threads_left).toBe(2);
    expect(c1.open_questions).toEqual(['Long-run effects unknown.']);
    const { name, ...definition } = c1.next_definition;
    await h.ok('start_thread', { run_id, thread: name, definition: { ...definition, subjects: ['Svartedalen'] } });
    const c2 = await h.ok('record_critique', { run_id, gaps: [gap()], signoff: false });
    expect(c2.critic_threads_left).toBe(1);
    expect(c2.next_definition.name).toBe('Critic 2: four-day week extra staff cost');
  });

  it('the schema describes unanswerable with the one definition the server holds', async () => {
    h = await connect();
    const tools = (await h.client.listTools()).tools;
    const schema = tools.find((t) => t.name === 'record_critique')!.inputSchema as any;
    expect(schema.properties.gaps.items.properties.unanswerable.description).toBe(UNANSWERABLE);
  });
});
