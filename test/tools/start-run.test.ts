import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, snapshotTree, type Harness } from '../helpers/mcp.js';
import { brief, QUESTION } from '../helpers/fixtures.js';
import { BRIEF_SECTIONS } from '../../src/reports/spec-sections.js';

let h: Harness;
afterEach(async () => h?.close());

describe('start_run', () => {
  it('dry_run validates and returns budgets without writing anything', async () => {
    h = await connect();
    const r = await h.ok('start_run', { question: QUESTION, brief: brief(), dry_run: true });
    expect(r.budgets).toEqual({ max_threads: 4, rounds_per_thread: 5, results_per_round: 5, critic_rounds: 2 });
    expect(r.max_fetches).toBe(2 * 5 * 5);
    expect(r.dry_run).toBe(true);
    // Critic threads come on top of max_threads (issue 17, item 7): one per critic round but the last,
    // which stops the loop (issue 23: the figure is what later calls take).
    expect(r.critic_threads).toBe(1);
    const raw = await h.call('start_run', { question: QUESTION, brief: brief(), dry_run: true });
    expect(JSON.stringify(raw.content)).toMatch(/critic_threads/);
    expect(snapshotTree(h.root)).toEqual({});
  });

  it('a dry run names the tier caps its thread count reaches, next to the count', async () => {
    h = await connect();
    const b = brief();
    const four = { ...b, threads: [0, 1, 2, 3].map((i) => ({ ...b.threads[0], name: `Thread ${i}` })) };
    const r = await h.ok('start_run', { question: QUESTION, brief: four, dry_run: true });
    expect(r.warnings.filter((w: string) => w.startsWith('the brief has 4 threads; thread caps: quick allows 2 (over: refused), standard allows 4 (this run, at the cap)'))).toHaveLength(1);
    const one = await h.ok('start_run', { question: QUESTION, brief: { ...b, threads: [b.threads[0]] }, dry_run: true });
    expect(JSON.stringify(one.warnings)).not.toContain('thread caps');
    // The real start says nothing of it: the plan was shown at the dry run.
    const real = await h.ok('start_run', { question: QUESTION, brief: four });
    expect(JSON.stringify(real.warnings)).not.toContain('thread caps');
  });

  it('creates the run and writes a brief with every SPEC section', async () => {
    h = await connect();
    const r = await h.ok('start_run', { question: QUESTION, brief: brief(), depth: 'quick' });
    expect(r.resumed).toBe(false);
    expect(r.threads).toEqual(['Trials and output', 'Counter-evidence']);
    expect(r.artifact_dir).toBe(r.run_id);
    expect(r.report_path).toBe(`${r.run_id}/report.md`);
    const text = fs.readFileSync(path.join(h.root, r.run_id, 'brief.md'), 'utf8');
    for (const s of BRIEF_SECTIONS) expect(text).toContain(`\n## ${s}\n`);
    expect(text).toContain('SQ-2: Which sectors were measured?');
    expect(text).not.toContain(h.root);
  });

  it('resumes the same question instead of overwriting; new: true makes -2, and a resume picks the highest', async () => {
    h = await connect();
    const first = await h.ok('start_run', { question: QUESTION, brief: brief() });
    const before = snapshotTree(h.root);
    const again = await h.ok('start_run', { question: QUESTION, brief: brief({ assumptions: ['changed'] }) });
    expect(again.resumed).toBe(true);
    expect(again.run_id).toBe(first.run_id);
    expect(snapshotTree(h.root)).toEqual(before);
    const second = await h.ok('start_run', { question: QUESTION, brief: brief(), new: true });
    expect(second.run_id).toBe(`${first.run_id}-2`);
    const third = await h.ok('start_run', { question: QUESTION, brief: brief(), new: true });
    expect(third.run_id).toBe(`${first.run_id}-3`);
    const resumed = await h.ok('start_run', { question: QUESTION, brief: brief() });
    expect(resumed.run_id).toBe(third.run_id);
  });

  it('refuses more threads than the tier allows, duplicate names and ids, with what to fix', async () => {
    h = await connect();
    const three = brief();
    three.threads.push({ ...three.threads[0]!, name: 'Third' });
    expect(await h.refused('start_run', { question: QUESTION, brief: three, depth: 'quick' })).toMatch(/at most 2 threads/);
    const dup = brief();
    dup.threads[1]!.name = dup.threads[0]!.name;
    expect(await h.refused('start_run', { question: QUESTION, brief: dup })).toMatch(/two threads are named/);
    const ids = brief();
    ids.threads[0]!.sub_questions[1]!.id = 'SQ-1';
    expect(await h.refused('start_run', { question: QUESTION, brief: ids })).toMatch(/repeats sub-question id/);
    expect(await h.refused('start_run', { question: QUESTION, brief: { threads: [] } })).toMatch(/threads/);
    expect(await h.refused('start_run', { question: QUESTION, brief: brief({ scope: { period: { from: 2020, to: 2010 } } }) })).toMatch(/swap/);
    expect(snapshotTree(h.root)).toEqual({});
  });

  it('accepts any thread name, slugging it for files only', async () => {
    h = await connect();
    const b = brief();
    b.threads[0]!.name = '../../etc/passwd';
    b.threads[1]!.name = 'Thread: A/B';
    const r = await h.ok('start_run', { question: QUESTION, brief: b });
    await h.ok('start_thread', { run_id: r.run_id, thread: '../../etc/passwd' });
    await h.ok('start_thread', { run_id: r.run_id, thread: 'Thread: A/B' });
    const files = Object.keys(snapshotTree(h.root));
    expect(files.every((f) => f.startsWith(`${r.run_id}/`))).toBe(true);
    expect(files.filter((f) => f.includes('state/thread-')).length).toBe(2);
  });
});
