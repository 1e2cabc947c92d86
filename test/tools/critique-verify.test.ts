import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type Harness } from '../helpers/mcp.js';
import { brief, PAGE, QUESTION, seedSource, supportAll } from '../helpers/fixtures.js';
import { CRITIQUE_SECTIONS } from '../../src/reports/spec-sections.js';
import { RunStore } from '../../src/store/run-store.js';
import { recordFetch } from '../../src/engine/degraded.js';

let h: Harness;
afterEach(async () => h?.close());

const gap = (over: Record<string, unknown> = {}) => ({
  kind: 'missing-counterarg',
  description: 'No source on reversals',
  query: 'four-day week trial reversed',
  priority: 2,
  material: true,
  ...over,
});

describe('record_critique', () => {
  it('counts clean sign-offs, resets on material gaps, targets the top gap and stops at two clean', async () => {
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief(), depth: 'deep' });
    const c1 = await h.ok('record_critique', {
      run_id,
      gaps: [gap(), gap({ query: 'four-day week burnout study', priority: 5 }), gap({ description: 'Long-run data do not exist yet', unanswerable: true, priority: 9 })],
      signoff: false,
    });
    expect(c1).toMatchObject({ clean_signoffs: 0, stop: false, next_target: 'four-day week burnout study', open_material_gaps: 2, open_questions: ['Long-run data do not exist yet'] });
    const c2 = await h.ok('record_critique', { run_id, gaps: [gap({ material: false })], signoff: true });
    expect(c2).toMatchObject({ clean_signoffs: 1, stop: false, open_material_gaps: 0 });
    const c3 = await h.ok('record_critique', { run_id, gaps: [], signoff: true });
    expect(c3).toMatchObject({ clean_signoffs: 2, stop: true });
    expect(c3.next_target).toBeUndefined();
    const text = fs.readFileSync(path.join(h.root, run_id, 'critique.md'), 'utf8');
    for (const s of CRITIQUE_SECTIONS) expect(text).toContain(`\n## ${s}\n`);
    expect(text).toContain('| Round | Sources | New Sources | Facts | Open Material Gaps | Sign-off |');
    expect(text).toContain('| 1 | 0 | 0 | 0 | 2 | no |');
    expect(text).toContain('| 3 | 0 | 0 | 0 | 0 | clean |');
    expect(text).toContain('- Long-run data do not exist yet');
  });

  it('a sign-off that still lists material gaps is not clean, and the tier caps the rounds', async () => {
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief(), depth: 'quick' });
    const c1 = await h.ok('record_critique', { run_id, gaps: [gap()], signoff: true });
    expect(c1).toMatchObject({ clean_signoffs: 0, stop: false });
    const c2 = await h.ok('record_critique', { run_id, gaps: [gap()], signoff: false });
    expect(c2).toMatchObject({ clean_signoffs: 0, stop: true });
    const c3 = await h.ok('record_critique', { run_id, gaps: [], signoff: true });
    expect(c3.stop).toBe(true);
  });

  it('refuses an unknown gap kind with the allowed ones', async () => {
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
    expect(await h.refused('record_critique', { run_id, gaps: [gap({ kind: 'vibes' })], signoff: false })).toMatch(/modality|unverified-claim/);
  });
});

describe('verify_report', () => {
  async function setup(report: string, degraded = false) {
    h = await connect();
    const { run_id, report_path } = await h.ok('start_run', { question: QUESTION, brief: brief() });
    await seedSource(h.root, run_id, 'https://example.org/a', PAGE(3), 'Trial report A');
    await seedSource(h.root, run_id, 'https://example.org/b', PAGE(4), 'Trial report B');
    if (degraded) {
      const store = new RunStore(h.root);
      const run = store.loadRun(run_id);
      let t = run.fetch;
      for (let i = 0; i < 3; i++) t = recordFetch(t, true);
      store.saveRun({ ...run, fetch: t });
    }
    fs.writeFileSync(path.join(h.root, report_path), report);
    return run_id as string;
  }
  const GOOD = [
    '# Does a four-day week keep output?',
    '',
    '## Findings',
    '',
    'Trials report that "Workers reported less stress and better work-life balance" [S1], and output per hour rose [S1, S2].',
    '',
    '## Methods',
    '',
    'Two threads, four rounds, two sources.',
    '',
    '## Sources',
    '',
    '- [S1] Trial report A — https://example.org/a',
    '- [S2] Trial report B — https://example.org/b/?utm_source=x',
    '',
  ].join('\n');

  it('passes a grounded report (quotes across link and emphasis, URL variants by canonical key)', async () => {
    const run_id = await setup(GOOD);
    expect(await supportAll(h, run_id)).toBe(3);
    expect(await h.ok('verify_report', { run_id })).toEqual({ ok: true, problems: [], citations: 3, pairs: 3, audit: { supported: 3, partial: 0, unsupported: 0, unaudited: 0 }, uncited: [], basis: { primary: 0, two_origins: 0, neither: 0 } });
  });

  it.each([
    ['a fabricated [S99]', GOOD.replace('rose [S1, S2]', 'rose [S1, S99]'), /\[S99\] does not resolve/],
    ['a quote that is not in its source', GOOD.replace('less stress', 'no stress at all'), /quote ".*" is not in the stored text of S1/],
    ['an uncited source listed in Sources', GOOD.replace('rose [S1, S2]', 'rose [S1]'), /\[S2\] is listed in ## Sources but never cited/],
    ['a cited source missing from Sources', GOOD.replace('- [S2] Trial report B — https://example.org/b/?utm_source=x\n', ''), /\[S2\] is cited but missing from ## Sources/],
    ['a URL never stored', GOOD.replace('two sources.', 'two sources, see https://evil.example/x.'), /URL https:\/\/evil.example\/x was never stored/],
    ['a wrong URL for a listed source', GOOD.replace('https://example.org/a', 'https://example.org/z'), /not its stored URL/],
    ['no title', GOOD.replace('# Does', 'Does'), /no "# " title/],
    ['no Methods', GOOD.replace('## Methods', '## Method'), /missing "## Methods"/],
    ['no Sources', GOOD.replace('## Sources', '## References'), /missing "## Sources"/],
  ])('catches %s, with its line', async (_name, report, message) => {
    const run_id = await setup(report);
    const r = await h.ok('verify_report', { run_id });
    expect(r.ok).toBe(false);
    expect(r.problems.map((p: any) => p.message).join('\n')).toMatch(message);
    expect(r.problems.every((p: any) => Number.isInteger(p.line))).toBe(true);
  });

  it('requires the degraded line in Methods for a degraded run', async () => {
    const run_id = await setup(GOOD, true);
    await supportAll(h, run_id);
    const r = await h.ok('verify_report', { run_id });
    expect(r.problems).toEqual([{ line: 7, message: expect.stringMatching(/Degraded: yes — the answer rests on partial information\./) }]);
    fs.writeFileSync(path.join(h.root, run_id, 'report.md'), GOOD.replace('two sources.', 'two sources.\n\nDegraded: yes — the answer rests on partial information.'));
    expect((await h.ok('verify_report', { run_id })).ok).toBe(true);
  });

  it('checks a run folder renamed by hand under its new name, not the name in its run.json', async () => {
    const first = await setup(GOOD);
    await supportAll(h, first);
    const renamed = `renamed-${first}`;
    fs.renameSync(path.join(h.root, first), path.join(h.root, renamed));
    expect(await h.ok('verify_report', { run_id: renamed })).toMatchObject({ ok: true, problems: [], citations: 3, pairs: 3 });
  });

  it('reports a missing report, and refuses a path outside the run folder', async () => {
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
    const r = await h.ok('verify_report', { run_id });
    expect(r.ok).toBe(false);
    expect(await h.refused('verify_report', { run_id, path: '../../etc/passwd' })).toMatch(/outside the run folder/);
  });
});
