// Issue 24: completion reports carry what the threads found (resolved contradictions with their
// resolution, other threads' contradictions on this thread's pages, the investigator's own key finding),
// and contradictions are run-wide: one thread's HIGH contradiction against another's fact holds its answer.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type Harness } from '../helpers/mcp.js';
import { brief, PAGE, seedSource, QUESTION } from '../helpers/fixtures.js';

let h: Harness;
afterEach(async () => h?.close());

const A = 'Trials and output';
const B = 'Counter-evidence';
const PAGE_A = 'https://trials.example.org/report';
const PAGE_B = 'https://other.example.net/review';
const factA = { fact: 'Output per hour rose by 1% in the pilot group.', url: PAGE_A, quote: 'Output per hour rose by 1% in the pilot group', confidence: 'PLAUSIBLE', sub_questions: ['SQ-1'] };
const contradiction = { claim: 'How much output per hour rose', source_a: 'Output rose by 1%', url_a: PAGE_A, source_b: 'Output rose by 2%', url_b: PAGE_B, status: 'OPEN', severity: 'HIGH' };

async function setup() {
  h = await connect();
  const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
  await seedSource(h.root, run_id, PAGE_A, PAGE(1), 'Trial report');
  await seedSource(h.root, run_id, PAGE_B, PAGE(2), 'Review');
  for (const thread of [A, B]) await h.ok('start_thread', { run_id, thread });
  let n = 0;
  const round = (thread: string, over: Record<string, unknown>) =>
    h.ok('record_round', { run_id, thread, query: `query ${thread} ${n++} ${'x'.repeat(n)}`, urls_visited: [], facts: [], summary: 's', ...over });
  const report = async (thread: string) => {
    const { path: p } = await h.ok('complete_thread', { run_id, thread });
    return fs.readFileSync(path.join(h.root, p), 'utf8');
  };
  const section = (text: string, heading: string) => text.split(`## ${heading}\n`)[1]!.split('\n## ')[0]!;
  return { run_id, round, report, section };
}

describe('completion reports carry the threads’ findings', () => {
  it('a contradiction resolved in round 4 appears with its resolution', async () => {
    const { round, report, section } = await setup();
    await round(A, { urls_visited: [PAGE_A], search_results: [PAGE_A], facts: [factA] });
    await round(A, {});
    const r3 = await round(A, { contradictions: [{ ...contradiction, severity: 'MEDIUM' }] });
    expect(r3.contradictions).toEqual([{ id: 'C1', status: 'OPEN' }]);
    const r4 = await round(A, { contradictions: [{ ...contradiction, id: 'C1', status: 'RESOLVED', resolution: 'The review rounds the figure; the trial report gives 1% from the raw data.' }] });
    expect(r4.contradictions).toEqual([{ id: 'C1', status: 'RESOLVED' }]);
    const text = await report(A);
    expect(section(text, 'Open Contradictions').trim()).toBe('None.');
    const resolved = section(text, 'Resolved Contradictions');
    expect(resolved).toContain('| C1 | How much output per hour rose | Output rose by 1% | Output rose by 2% | The review rounds the figure; the trial report gives 1% from the raw data. | 4 | this thread |');
  });

  it('a thread that stops with a contradiction still OPEN below HIGH says so in its last reply (trials 16, 22)', async () => {
    const { round } = await setup();
    let r = await round(A, { urls_visited: [PAGE_A], search_results: [PAGE_A], facts: [factA], contradictions: [{ ...contradiction, severity: 'MEDIUM' }] });
    expect(r.warnings.join('\n')).not.toMatch(/still OPEN/);
    for (let i = 0; i < 8 && r.action !== 'STOP'; i++) r = await round(A, {});
    expect(r.action).toBe('STOP');
    expect(r.warnings).toContain('the thread stopped with contradiction C1 still OPEN: the report must give what each source states, or a critic thread must settle it');
    // Another thread reading the same page is not told: thread A answers for it.
    let b = await round(B, { urls_visited: [PAGE_A], search_results: [PAGE_A], facts: [{ ...factA, fact: 'Output per hour rose in the pilot group.' }] });
    for (let i = 0; i < 8 && b.action !== 'STOP'; i++) b = await round(B, {});
    expect(b.action).toBe('STOP');
    expect(b.warnings.join('\n')).not.toMatch(/still OPEN/);
  });

  it('a RESOLVED contradiction without a resolution is taken, with a warning asking for one', async () => {
    const { round } = await setup();
    const r = await round(A, { contradictions: [{ ...contradiction, status: 'RESOLVED' }] });
    expect(r.warnings.join('\n')).toMatch(/C1 is RESOLVED without a resolution/);
  });

  it('the investigator’s grounded key_finding is the Key Finding shown, beside the computed one', async () => {
    const { round, report, section } = await setup();
    const kf = 'In the pilot group, output per hour rose by 1%.';
    const other = { fact: 'Workers in Iceland reported less stress.', url: PAGE_A, quote: 'Workers reported less stress', confidence: 'PLAUSIBLE', sub_questions: ['SQ-1', 'SQ-2'] };
    const r = await round(A, {
      urls_visited: [PAGE_A],
      search_results: [PAGE_A],
      facts: [factA, other],
      sub_question_updates: [
        { id: 'SQ-1', status: 'ANSWERED', key_finding: kf },
        // No fact states a 40% rise: this finding is not shown as written.
        { id: 'SQ-2', status: 'ANSWERED', key_finding: 'Output per hour rose 40% in every sector measured.' },
      ],
    });
    // Said in the round's reply, not first found in the completion report (trial 66).
    const said = r.warnings.filter((w: string) => /key_finding/.test(w));
    expect(said).toEqual([expect.stringMatching(/^SQ-2: no one grounded fact linked to it states its key_finding .*shows the strongest linked fact/)]);
    // Said once per wording: the same finding sent again is not warned about again.
    const again = await round(A, { sub_question_updates: [{ id: 'SQ-2', status: 'ANSWERED', key_finding: 'Output per hour rose 40% in every sector measured.' }] });
    expect(again.warnings.filter((w: string) => /key_finding/.test(w))).toEqual([]);
    const table = section(await report(A), 'Sub-Question Status');
    const sq1 = table.split('\n').find((l) => l.startsWith('| SQ-1 '))!;
    const cells = sq1.split(' | ');
    expect(cells[4]).toBe(`${kf} [S1](sources/S1.md)`);
    expect(cells[5]).toMatch(/\[S1\]\(sources\/S1\.md\)/);
    const sq2 = table.split('\n').find((l) => l.startsWith('| SQ-2 '))!;
    expect(sq2).not.toContain('40%');
    expect(sq2).toContain('Workers in Iceland reported less stress. [S1](sources/S1.md) | same |');
  });
});

describe('run-wide contradictions', () => {
  it('ids are unique in the run: a second thread’s first contradiction is C2', async () => {
    const { round } = await setup();
    expect((await round(A, { contradictions: [{ ...contradiction, severity: 'LOW' }] })).contradictions).toEqual([{ id: 'C1', status: 'OPEN' }]);
    expect((await round(B, { contradictions: [{ ...contradiction, severity: 'LOW' }] })).contradictions).toEqual([{ id: 'C2', status: 'OPEN' }]);
  });

  it('a contradiction thread B records against thread A’s fact shows in both reports and holds A’s sub-question at PARTIAL', async () => {
    const { round, report, section, run_id } = await setup();
    const r1 = await round(A, { urls_visited: [PAGE_A], search_results: [PAGE_A], facts: [factA], sub_question_updates: [{ id: 'SQ-1', status: 'ANSWERED' }] });
    expect(r1.sub_questions[0]).toMatchObject({ id: 'SQ-1', status: 'ANSWERED' });
    const before = await report(A); // A completes before B finds the contradiction
    expect(section(before, 'Sub-Question Status')).toMatch(/\| SQ-1 \| [^|]+ \| ANSWERED \|/);

    const rb = await round(B, { urls_visited: [PAGE_B], search_results: [PAGE_B], contradictions: [contradiction] });
    expect(rb.contradictions).toEqual([{ id: 'C1', status: 'OPEN' }]);
    // A's report was written again by B's round: it lists C1 and holds SQ-1.
    const name = fs.readdirSync(path.join(h.root, run_id)).find((f) => f.startsWith('thread-completion-trials'))!;
    const after = fs.readFileSync(path.join(h.root, run_id, name), 'utf8');
    expect(section(after, 'Open Contradictions')).toContain('| C1 | How much output per hour rose | Output rose by 1% | Output rose by 2% | HIGH | Counter-evidence |');
    expect(section(after, 'Sub-Question Status')).toMatch(/\| SQ-1 \| [^|]+ \| PARTIAL \(held by C1\) \|/);
    expect(await report(A)).toBe(after); // complete_thread re-renders the same bytes
    expect(section(await report(B), 'Open Contradictions')).toContain('| C1 | How much output per hour rose | Output rose by 1% | Output rose by 2% | HIGH | this thread |');
  });

  it('ANSWERED is not accepted while a linked fact stands in an OPEN HIGH contradiction, and is once it is resolved', async () => {
    const { round } = await setup();
    await round(B, { contradictions: [contradiction] });
    const held = await round(A, { urls_visited: [PAGE_A], search_results: [PAGE_A], facts: [factA], sub_question_updates: [{ id: 'SQ-1', status: 'ANSWERED' }] });
    expect(held.sub_questions[0]).toMatchObject({ id: 'SQ-1', status: 'PARTIAL' });
    expect(held.warnings).toContain(
      `SQ-1 held at PARTIAL, not ANSWERED: its fact from ${PAGE_A} stands in the OPEN HIGH contradiction C1 (recorded by thread "Counter-evidence"); resolve it (status RESOLVED with a resolution, naming its id) or lower its severity`,
    );
    // Thread A settles it itself: the id is run-wide, so A updates B's C1.
    const freed = await round(A, { contradictions: [{ ...contradiction, id: 'C1', status: 'RESOLVED', resolution: 'The review misread the table.' }] });
    expect(freed.contradictions).toEqual([{ id: 'C1', status: 'RESOLVED' }]);
    expect(freed.sub_questions[0]).toMatchObject({ id: 'SQ-1', status: 'ANSWERED' });
    expect(freed.warnings.join('\n')).not.toMatch(/held at PARTIAL/);
  });
});
