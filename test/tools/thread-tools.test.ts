import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, snapshotTree, type Harness } from '../helpers/mcp.js';
import { brief, PAGE, QUESTION, seedSource } from '../helpers/fixtures.js';
import { renderMicroReport } from '../../src/reports/micro-report.js';
import { RunStore } from '../../src/store/run-store.js';

let hs: Harness[] = [];
afterEach(async () => {
  for (const h of hs) await h.close();
  hs = [];
});
async function open(root?: string) {
  const h = await connect(root ? { root } : {});
  hs.push(h);
  return h;
}
async function started(h: Harness, extra: Record<string, unknown> = {}) {
  const r = await h.ok('start_run', { question: QUESTION, brief: brief(extra) });
  await h.ok('start_thread', { run_id: r.run_id, thread: 'Trials and output' });
  return r.run_id as string;
}
const round = (runId: string, over: Record<string, unknown> = {}) => ({
  run_id: runId,
  thread: 'Trials and output',
  query: 'four-day week productivity trial results',
  urls_visited: ['https://example.org/a'],
  facts: [],
  summary: 'Read one page.',
  ...over,
});

describe('start_thread and thread_status', () => {
  it('refuses unknown runs and threads, and a critic thread without a definition', async () => {
    const h = await open();
    expect(await h.refused('start_thread', { run_id: 'no-such-run', thread: 'x' })).toMatch(/unknown run "no-such-run": call start_run first/);
    const runId = await started(h);
    expect(await h.refused('start_thread', { run_id: runId, thread: 'Gap: Utah reversal' })).toMatch(/pass a definition/);
    expect(await h.refused('thread_status', { run_id: runId, thread: 'Counter-evidence' })).toMatch(/call start_thread first/);
    expect(await h.refused('record_round', round(runId, { thread: 'Nope' }))).toMatch(/unknown thread "Nope"/);
  });

  it('opens a critic thread from a definition, outside max_threads, and lists it in the brief', async () => {
    const h = await open();
    const runId = await started(h);
    const t = await h.ok('start_thread', {
      run_id: runId,
      thread: 'Gap: Utah reversal',
      definition: { sub_questions: [{ id: 'SQ-1', question: 'Why did Utah end its four-day week?' }], subjects: ['Utah'] },
    });
    expect(t).toMatchObject({ thread: 'Gap: Utah reversal', round_budget: 5, rounds_completed: 0, phase: 'SURVEY', converged: false, degraded: false });
    expect(fs.readFileSync(path.join(h.root, runId, 'brief.md'), 'utf8')).toContain('### Gap: Utah reversal (critic thread)');
  });

  it('resumes a thread in a new server process on the same root exactly where it was', async () => {
    const h = await open();
    const runId = await started(h);
    await seedSource(h.root, runId, 'https://example.org/a', PAGE(3));
    await h.ok('record_round', round(runId, { targeted_subjects: ['Iceland trial'] }));
    const r2 = await h.ok('record_round', round(runId, { query: 'four-day week productivity trial results Iceland', urls_visited: ['https://example.org/b'] }));
    const before = await h.ok('thread_status', { run_id: runId, thread: 'Trials and output' });
    const h2 = await open(h.root);
    const resumed = await h2.ok('start_thread', { run_id: runId, thread: 'Trials and output' });
    expect(resumed).toEqual(before);
    expect(resumed.next).toEqual(r2.next);
    expect(resumed.rounds_completed).toBe(2);
    const r3 = await h2.ok('record_round', round(runId, { query: 'reduced hours pilot evaluation registry', urls_visited: ['https://example.org/b'] }));
    expect(r3.round).toBe(3);
  });
});

describe('record_round refusals and warnings', () => {
  it('refuses more URLs than the tier allows, a fact without a URL, and bad URLs, writing nothing', async () => {
    const h = await open();
    const runId = await started(h);
    const tree = snapshotTree(h.root);
    const six = Array.from({ length: 6 }, (_, i) => `https://example.org/${i}`);
    expect(await h.refused('record_round', round(runId, { urls_visited: six }))).toMatch(/at most 5 results per round/);
    expect(await h.refused('record_round', round(runId, { facts: [{ fact: 'x', confidence: 'VERIFIED' }] }))).toMatch(/url/);
    expect(await h.refused('record_round', round(runId, { urls_visited: ['not a url'] }))).toMatch(/urls_visited\[0\]/);
    expect(await h.refused('record_round', round(runId, { facts: [{ fact: 'x', url: 'javascript:alert(1)', confidence: 'VERIFIED' }] }))).toMatch(/facts\[0\]\.url/);
    expect(snapshotTree(h.root)).toEqual(tree);
  });

  it('accepts a round with no URLs and downgrades ungrounded facts with a reason', async () => {
    const h = await open();
    const runId = await started(h);
    await seedSource(h.root, runId, 'https://example.org/a', PAGE(3));
    const r = await h.ok('record_round', round(runId, {
      urls_visited: [],
      facts: [
        { fact: 'No quote given.', url: 'https://example.org/a', confidence: 'VERIFIED' },
        { fact: 'Never fetched.', url: 'https://example.org/unread', quote: 'anything', confidence: 'VERIFIED' },
        { fact: 'Quote absent.', url: 'https://example.org/a', quote: 'productivity fell sharply', confidence: 'VERIFIED' },
        { fact: 'Across a link and emphasis.', url: 'https://example.org/a?utm_source=feed', quote: 'Workers reported less stress and better work-life balance', confidence: 'VERIFIED', sub_questions: ['SQ-1'] },
        { fact: 'In 2019, 86 workers reported less stress.', url: 'https://example.org/a', quote: 'Workers reported less stress', confidence: 'PLAUSIBLE' },
      ],
      sub_question_updates: [{ id: 'SQ-1', status: 'ANSWERED' }, { id: 'SQ-2', status: 'ANSWERED' }],
    }));
    expect(r.new_facts).toBe(5);
    expect(r.warnings.join('\n')).toMatch(/fact 5: 2019, 86 are not in its quote/);
    expect(r.warnings.join('\n')).toMatch(/fact 1: .*quote/);
    expect(r.warnings.join('\n')).toMatch(/fact 2: .*fetch_source/);
    expect(r.warnings.join('\n')).toMatch(/fact 3: .*not found/);
    // A VERIFIED proposal from one site that is not a primary origin of the thread is recorded PLAUSIBLE.
    expect(r.warnings.join('\n')).toMatch(/fact 4: recorded PLAUSIBLE, not VERIFIED: it rests on one site, example\.org/);
    expect(r.facts).toEqual([
      { confidence: 'UNVERIFIED', origins: 0, primary: false },
      { confidence: 'UNVERIFIED', origins: 0, primary: false },
      { confidence: 'UNVERIFIED', origins: 0, primary: false },
      { confidence: 'PLAUSIBLE', origins: 1, primary: false },
      { confidence: 'PLAUSIBLE', origins: 1, primary: false },
    ]);
    expect(r.warnings.join('\n')).toMatch(/SQ-2/);
    const status = await h.ok('thread_status', { run_id: runId, thread: 'Trials and output' });
    const sq = (status as any);
    expect(sq.rounds_completed).toBe(1);
    const text = fs.readFileSync(path.join(h.root, r.micro_report), 'utf8');
    expect(text).toContain('| 1 | No quote given. |');
    expect(text).toMatch(/\| 1 \| No quote given\. \| — \| \[S1\]\(sources\/S1\.md\) <https:\/\/example\.org\/a> \| UNVERIFIED \| — \| new; add a verbatim quote \|/);
    expect(text).toContain('| 2 | Never fetched. | "anything" | [not stored](https://example.org/unread) | UNVERIFIED |');
    expect(text).toContain('| 4 | Across a link and emphasis. | "Workers reported less stress and better work-life balance" | [S1](sources/S1.md) <https://example.org/a?utm_source=feed> | PLAUSIBLE | 1: example.org |');
  });

  it('warns when a required reformulation is ignored, a query repeats, or the forced subject is skipped', async () => {
    const h = await open();
    const runId = await started(h);
    const fact = (text: string) => ({ fact: text, url: 'https://example.org/a', confidence: 'PLAUSIBLE' });
    await h.ok('record_round', round(runId, { urls_visited: ['https://example.org/a'], facts: [fact('one')] }));
    const r2 = await h.ok('record_round', round(runId, { urls_visited: ['https://example.org/a'], facts: [fact('two')] }));
    // L1 on the round that uses up SURVEY's allowance: the phase change is the action, the reformulation rides along.
    expect(r2).toMatchObject({ plateau_level: 1, action: 'ADVANCE_PHASE', escape_strategy: 'query reformulation' });
    expect(r2.next.reformulate_from).toBeDefined();
    expect(r2.warnings.join('\n')).toMatch(/repeat/i);
    const r3 = await h.ok('record_round', round(runId, { query: 'four-day week productivity trial outcomes', urls_visited: ['https://example.org/c'], facts: [fact('three')] }));
    expect(r3.warnings.join('\n')).toMatch(/reformulat/i);
    expect(r3.forced_subject).toBe('Iceland trial');
    const r4 = await h.ok('record_round', round(runId, { query: 'compressed hours pilot staff survey', urls_visited: ['https://example.org/d'] }));
    expect(r4.warnings.join('\n')).toMatch(/forced onto the subject "Iceland trial"/);
  });

  it('keeps a typical round reply well under 1,000 tokens', async () => {
    const h = await open();
    const runId = await started(h);
    for (const c of 'abcde') await seedSource(h.root, runId, `https://example.org/${c}`, PAGE(c.charCodeAt(0)));
    const r = await h.call('record_round', round(runId, {
      urls_visited: [...'abcde'].map((c) => `https://example.org/${c}`),
      facts: [...'abc'].map((c) => ({ fact: `Fact from ${c}.`, url: `https://example.org/${c}`, quote: 'kept productivity the same', confidence: 'PLAUSIBLE', sub_questions: ['SQ-1'] })),
      targeted_subjects: ['Iceland trial'],
    }));
    const chars = JSON.stringify(r).length;
    expect(chars / 4).toBeLessThan(700);
    // The text is the JSON of structuredContent (SPEC 11.1): every decision field in both channels.
    const text = JSON.parse((r.content[0] as { text: string }).text) as Record<string, unknown>;
    expect(text).toEqual(r.structuredContent);
    for (const field of ['action', 'saturation', 'url_overlap', 'plateau_level', 'next_phase', 'micro_report', 'next']) expect(text).toHaveProperty(field);
    expect(text).toHaveProperty('next.fetch_prompt');
  });

  it('renders byte-identical micro-reports from the same state', async () => {
    const h = await open();
    const runId = await started(h);
    const r = await h.ok('record_round', round(runId));
    const store = new RunStore(h.root);
    const run = store.loadRun(runId);
    const state = store.loadThread(runId, run.threads[0]!.slug)!;
    expect(renderMicroReport(state, 1)).toBe(fs.readFileSync(path.join(h.root, r.micro_report), 'utf8'));
    expect(renderMicroReport(JSON.parse(JSON.stringify(state)), 1)).toBe(renderMicroReport(state, 1));
  });
});

describe('check_drift', () => {
  it('flags subject, domain, temporal and geographic drift, keeps the streak, and asks to reformulate at the limit', async () => {
    const h = await open();
    const runId = await started(h, { scope: { regions: ['Europe'], period: { from: 2015, to: 2023 } } });
    const call = (text: string, extra: Record<string, unknown> = {}) =>
      h.ok('check_drift', { run_id: runId, thread: 'Trials and output', url: 'https://example.org/p', text, ...extra });
    const relevant = await call('The Iceland trial of the four-day week kept productivity steady, a 2021 report found.');
    expect(relevant).toEqual({ drift: false, signals: [], consecutive_drifts: 0, action: 'extract' });
    const off = await call('A recipe for sourdough bread with rye flour.');
    expect(off).toMatchObject({ drift: true, signals: ['subject'], consecutive_drifts: 1, action: 'skip' });
    const school = await call('The four-day school week: school week school week in Colorado districts.');
    expect(school.signals).toContain('domain');
    const old = await call('Productivity in the four-day week trial of 1971 and 1972.', {});
    expect(old.signals).toContain('temporal');
    expect(old).toMatchObject({ consecutive_drifts: 3, action: 'reformulate' });
    const geo = await call('Productivity of the four-day week in Japan, 2019.');
    expect(geo.signals).toContain('geographic');
    const back = await call('Productivity in the Iceland four-day week trial, 2019.');
    expect(back).toMatchObject({ drift: false, consecutive_drifts: 0, action: 'extract' });
  });

  it('checks a stored source by id, and refuses a missing id or neither form', async () => {
    const h = await open();
    const runId = await started(h);
    const s = await seedSource(h.root, runId, 'https://example.org/a', PAGE(2));
    expect(await h.ok('check_drift', { run_id: runId, thread: 'Trials and output', source_id: s.id })).toMatchObject({ drift: false });
    expect(await h.refused('check_drift', { run_id: runId, thread: 'Trials and output', source_id: 'S99' })).toMatch(/no stored source "S99"/);
    expect(await h.refused('check_drift', { run_id: runId, thread: 'Trials and output' })).toMatch(/pass source_id/);
  });

  it('record_round warns of facts from a page this thread never checked, and not once it has (trial 45)', async () => {
    const h = await open();
    const runId = await started(h);
    const a = await seedSource(h.root, runId, 'https://example.org/a', PAGE(2));
    const fact = { fact: 'The trial kept productivity the same.', url: 'https://example.org/a', quote: 'kept productivity the same', confidence: 'PLAUSIBLE', sub_questions: ['SQ-1'] };
    const first = await h.ok('record_round', round(runId, { facts: [fact] }));
    expect(first.warnings).toContain(`fact 1 (${a.id}): this thread has not called check_drift on this page (recorded as given); call it after each fetch_source and before extracting, as a page about something else is set aside`);
    await h.ok('check_drift', { run_id: runId, thread: 'Trials and output', source_id: a.id });
    const second = await h.ok('record_round', round(runId, { query: 'reduced hours pilot evaluation registry', facts: [{ ...fact, fact: 'Productivity held in the trial.' }] }));
    expect((second.warnings ?? []).join('\n')).not.toMatch(/check_drift/);
  });

  it('a fact from a drifted page counts as neither new nor answering', async () => {
    const h = await open();
    const runId = await started(h);
    await seedSource(h.root, runId, 'https://example.org/bread', '# Bread\n\nA recipe for sourdough bread with rye flour and a long proof time.\n');
    const d = await h.ok('check_drift', { run_id: runId, thread: 'Trials and output', source_id: 'S1' });
    expect(d.drift).toBe(true);
    const r = await h.ok('record_round', round(runId, {
      urls_visited: ['https://example.org/bread'],
      facts: [{ fact: 'Rye needs a long proof.', url: 'https://example.org/bread', quote: 'a long proof time', confidence: 'VERIFIED', sub_questions: ['SQ-1'] }],
      sub_question_updates: [{ id: 'SQ-1', status: 'ANSWERED' }],
    }));
    expect(r.new_facts).toBe(0);
    expect(r.warnings.join('\n')).toMatch(/drifted/);
    expect(r.warnings.join('\n')).toMatch(/SQ-1/);
  });
});
