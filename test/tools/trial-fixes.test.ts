// Replies the real-model trials could not act on: which contradiction id a round gave, and what to do
// after one clean critique sign-off.
import { afterEach, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connect, type Harness } from '../helpers/mcp.js';
import { brief, QUESTION } from '../helpers/fixtures.js';

let h: Harness;
afterEach(async () => h?.close());
const text = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('record_round names the contradiction ids it gave', () => {
  it('in both channels, and an unknown id lists the thread’s own', async () => {
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
    for (const thread of ['Trials and output', 'Counter-evidence']) await h.ok('start_thread', { run_id, thread });
    const c = { claim: 'The trial lasted 6 or 12 months', source_a: 'A', url_a: 'https://a.org/x', source_b: 'B', url_b: 'https://b.org/y', status: 'OPEN' };
    const round = (thread: string, over: Record<string, unknown>) => ({ run_id, thread, query: `q ${thread} ${Math.random()}`, urls_visited: [], facts: [], summary: 's', ...over });
    const r1 = await h.call('record_round', round('Trials and output', { contradictions: [c] }));
    expect(r1.structuredContent?.contradictions).toEqual([{ id: 'C1', status: 'OPEN' }]);
    expect(text(r1)).toMatch(/contradictions.*C1/);
    // Ids are run-wide (issue 24): another thread updates C1 itself, and an unknown id lists the run's.
    const r2 = await h.ok('record_round', round('Counter-evidence', { contradictions: [{ ...c, id: 'C1', status: 'RESOLVED', resolution: 'b.org is the newer report' }] }));
    expect(r2.warnings).toEqual([]);
    expect(r2.contradictions).toEqual([{ id: 'C1', status: 'RESOLVED' }]);
    const r3 = await h.ok('record_round', round('Counter-evidence', { contradictions: [{ ...c, id: 'C9' }] }));
    expect(r3.warnings).toContain('contradiction id "C9" is unknown in this run (its ids are C1); recorded as a new contradiction, C2');
  });
});

describe('record_critique after one clean sign-off', () => {
  it('says, in structuredContent (what Claude Code shows the model) and in the text, to run the critic again with a fresh look', async () => {
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief(), depth: 'deep' });
    const first = await h.call('record_critique', { run_id, gaps: [], signoff: true });
    expect(first.structuredContent).toMatchObject({ clean_signoffs: 1, stop: false });
    expect(first.structuredContent?.next_target).toBeUndefined();
    expect(first.structuredContent?.next_step).toBe(
      'Run the critic again: re-read the current completion reports with fresh eyes and send the gaps you find now (signoff true if none is material); do not resend this critique. 1 of 2 clean sign-offs in a row end the loop.',
    );
    expect(text(first)).toContain('Run the critic again: re-read the current completion reports with fresh eyes');
    const second = await h.call('record_critique', { run_id, gaps: [], signoff: true });
    expect(second.structuredContent).toMatchObject({ stop: true, critic_threads_left: 0, next_step: '2 clean sign-offs in a row: write the report.' });
    expect(text(second)).not.toContain('run the critic again');
  });

  it('says why it stopped when the critic rounds run out with a material gap open, and opens no more critic threads', async () => {
    // Two real runs got stop: true with open_material_gaps: 1 and critic_threads_left: 1, and no reason.
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
    const gap = { kind: 'missing-counterarg', description: 'Whether included files take the scope of the including file.', query: 'git include scope protected', priority: 2, material: true };
    const first = await h.ok('record_critique', { run_id, gaps: [gap], signoff: false });
    expect(first.stop).toBe(false);
    const second = await h.ok('record_critique', { run_id, gaps: [gap], signoff: false });
    expect(second).toMatchObject({ stop: true, open_material_gaps: 1, critic_threads_left: 0 });
    expect(second.next_step).toBe("Critic rounds spent (2 of 2): the 1 material gap still open is in open_questions; the report's Open Questions must list it. Write the report.");
    expect(second.open_questions).toContain('Whether included files take the scope of the including file.');
  });
});
