// Issue 23: the dry run and the first record_critique said 2 critic threads were left, and the second
// said stop: true, critic_threads_left: 0 with a material gap open. The figure is now what later calls take.
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type Harness } from '../helpers/mcp.js';
import { brief, QUESTION } from '../helpers/fixtures.js';

let h: Harness;
afterEach(async () => h?.close());

const gap = { kind: 'missing-counterarg', description: 'Whether the UK pilot measured output per sector.', query: 'uk pilot output per sector', priority: 2, material: true };

describe('critic budget', () => {
  for (const depth of ['standard', 'deep'] as const) {
    it(`${depth}: the dry run, the first record_critique and the last agree, and the stop names the gap still open`, async () => {
      h = await connect();
      const dry = await h.ok('start_run', { question: QUESTION, brief: brief(), depth, dry_run: true });
      const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief(), depth });
      const promised: number = dry.critic_threads;
      expect(promised).toBe(dry.budgets.critic_rounds - 1);
      let left = promised;
      let opened = 0;
      let last: Record<string, any> = {};
      for (;;) {
        last = await h.ok('record_critique', { run_id, gaps: [gap], signoff: false });
        if (last.stop) break;
        // Every critique before the stop offers what the dry run said, less the threads opened since.
        expect(last.critic_threads_left).toBe(promised - opened);
        expect(last.critic_threads_left).toBe(left);
        const { name, ...definition } = last.next_definition;
        const started = await h.ok('start_thread', { run_id, thread: name, definition: { ...definition, subjects: ['UK pilot'] } });
        expect(started.warnings).toBeUndefined();
        opened += 1;
        left -= 1;
      }
      // The promise was kept: every thread it offered was taken and critiqued before the stop.
      expect(opened).toBe(promised);
      expect(last).toMatchObject({ stop: true, critic_threads_left: 0, open_material_gaps: 1 });
      expect(last.next_step).toMatch(/the 1 material gap still open is in open_questions/);
      expect(last.open_questions).toContain(gap.description);
      // A resumed dry run says the same as the last critique.
      expect((await h.ok('start_run', { question: QUESTION, brief: brief(), depth, dry_run: true })).critic_threads).toBe(0);
      // A critic thread past the budget is not refused, but says it will not be critiqued.
      const late = await h.ok('start_thread', { run_id, thread: 'Critic late', definition: { sub_questions: [{ id: 'SQ-1', question: 'What about sectors?' }], subjects: ['UK pilot'] } });
      expect(late.warnings.join('\n')).toMatch(/beyond the critic budget/);
    });
  }

  it('standard: a clean first sign-off spends the only chance to open a thread, and the reply says so at once', async () => {
    // Trial 18: the first critique signed off clean and was told one critic thread was left; the second,
    // the last, found a material gap and stopped with critic_threads_left 0.
    h = await connect();
    const dry = await h.ok('start_run', { question: QUESTION, brief: brief(), depth: 'standard', dry_run: true });
    expect(dry.critic_threads).toBe(1);
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief(), depth: 'standard' });
    const first = await h.ok('record_critique', { run_id, gaps: [], signoff: true });
    expect(first).toMatchObject({ stop: false, critic_threads_left: 0 });
    expect(first.next_step).toMatch(/The next critique is the last: it opens no thread/);
    // Trials 30 and 31 read critic_threads 1 in the dry run and 0 here, and asked why: the reply says.
    expect(first.next_step).toMatch(/so critic_threads_left is 0: only a critique before the last opens one, for a material gap it names/);
    expect((await h.ok('start_run', { question: QUESTION, brief: brief(), depth: 'standard', dry_run: true })).critic_threads).toBe(0);
    const last = await h.ok('record_critique', { run_id, gaps: [gap], signoff: false });
    expect(last).toMatchObject({ stop: true, critic_threads_left: 0, open_material_gaps: 1 });
    expect(last.open_questions).toContain(gap.description);
  });

  it('deep: after a clean first sign-off a later critique can still send the thread it promised', async () => {
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief(), depth: 'deep' });
    const first = await h.ok('record_critique', { run_id, gaps: [], signoff: true });
    expect(first.critic_threads_left).toBe(1);
    const second = await h.ok('record_critique', { run_id, gaps: [gap], signoff: false });
    expect(second).toMatchObject({ stop: false, critic_threads_left: 1, next_target: gap.query });
    const { name, ...definition } = second.next_definition;
    const started = await h.ok('start_thread', { run_id, thread: name, definition: { ...definition, subjects: ['UK pilot'] } });
    expect(started.warnings).toBeUndefined();
    const third = await h.ok('record_critique', { run_id, gaps: [gap], signoff: false });
    expect(third).toMatchObject({ stop: true, critic_threads_left: 0 });
  });
});
