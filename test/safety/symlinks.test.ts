// Symlinks (SPEC 7: "symlinks are never followed out"). A link planted where the server writes — a
// report, a state file, the state or sources folder, the run folder itself — makes the write a
// refusal (isError), and the link's target stays byte-identical. Reads do not follow links out either.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type Harness } from '../helpers/mcp.js';
import { seedSource, supportAll } from '../helpers/fixtures.js';
import { outsideTree, rootTree, sandbox, type Sandbox } from '../helpers/safety-fs.js';
import { slug } from '../../src/engine/slug.js';
import { microReportName } from '../../src/reports/micro-report.js';
import { completionReportName } from '../../src/reports/completion.js';
import { RunStore } from '../../src/store/run-store.js';
import { canonicalKey } from '../../src/engine/canonical-url.js';

const Q = 'Does a four-day week keep output steady?';
const T = 'Trials: A/B';
const BRIEF = {
  threads: [
    { name: T, sub_questions: [{ id: 'SQ-1', question: 'What happened to output?' }], subjects: ['Iceland'] },
    { name: 'Other', sub_questions: [{ id: 'SQ-1', question: 'Where did it fail?' }], subjects: [] },
  ],
};
const ROUND = { thread: T, query: 'four-day week output Iceland', urls_visited: ['https://example.org/a'], facts: [], summary: 'Read one page.' };
const CRITIC = { thread: 'Critic gap', definition: { sub_questions: [{ id: 'SQ-1', question: 'What is missing?' }], subjects: [] } };
const CRITIQUE = { gaps: [{ kind: 'modality', description: 'd', query: 'q', priority: 1, material: true }], signoff: false };

interface Fixture {
  sb: Sandbox;
  h: Harness;
  runId: string;
  runDir: string;
}
let fx: Fixture | undefined;
afterEach(async () => {
  await fx?.h.close();
  fx = undefined;
});

async function fresh(o: { start?: boolean } = {}): Promise<Fixture> {
  const sb = sandbox();
  const h = await connect({ root: sb.root });
  let runId: string;
  if (o.start === false) runId = (await h.ok('start_run', { question: Q, brief: BRIEF, dry_run: true })).run_id;
  else {
    runId = (await h.ok('start_run', { question: Q, brief: BRIEF })).run_id;
    await h.ok('start_thread', { run_id: runId, thread: T });
  }
  fx = { sb, h, runId, runDir: path.join(sb.root, runId) };
  return fx;
}

const textOf = (r: { content: unknown[] }) => {
  const c = r.content[0] as { type: string; text?: string } | undefined;
  return c?.type === 'text' ? (c.text ?? '') : '';
};

/**
 * The call is refused with a message and leaves the outside tree byte-identical. Returns a description
 * of the leak when the call was answered instead, so a test can list every tool that followed the link.
 */
async function refusedOrLeak(f: Fixture, tool: string, args: Record<string, unknown>): Promise<string | undefined> {
  const before = outsideTree(f.sb);
  const r = await f.h.call(tool, { run_id: f.runId, ...args });
  expect(outsideTree(f.sb), `${tool} wrote through the link`).toEqual(before);
  expect(fs.readFileSync(f.sb.secret, 'utf8')).toBe(f.sb.secretBytes);
  if (!r.isError) return `${tool}(${JSON.stringify(args).slice(0, 60)}) answered ${JSON.stringify(r.structuredContent).slice(0, 160)}`;
  expect(textOf(r)).toMatch(/\S/);
  if (textOf(r).includes('SECRET') || textOf(r).includes('424242')) return `${tool} echoed outside content`;
  return undefined;
}

async function expectRefusedOutsideIntact(f: Fixture, tool: string, args: Record<string, unknown>) {
  const leak = await refusedOrLeak(f, tool, args);
  expect(leak).toBeUndefined();
}

async function expectAllRefused(f: Fixture, calls: readonly (readonly [string, Record<string, unknown>])[]) {
  const leaks: string[] = [];
  for (const [tool, args] of calls) {
    const leak = await refusedOrLeak(f, tool, args);
    if (leak) leaks.push(leak);
  }
  expect(leaks).toEqual([]);
}

/** Moves a run's folder entry outside and leaves a symlink to it in its place. */
function moveOut(f: Fixture, rel: string): string {
  const target = path.join(f.sb.outside, `moved-${rel.replace(/\//g, '_')}`);
  fs.cpSync(path.join(f.runDir, rel), target, { recursive: true });
  fs.rmSync(path.join(f.runDir, rel), { recursive: true });
  fs.symlinkSync(target, path.join(f.runDir, rel));
  return target;
}

describe('a symlink planted at a file the server writes', () => {
  it('brief.md → outside file: start_run of a new run is refused, the target untouched, the run not half-created', async () => {
    const f = await fresh({ start: false });
    fs.mkdirSync(f.runDir);
    fs.symlinkSync(f.sb.secret, path.join(f.runDir, 'brief.md'));
    await expectRefusedOutsideIntact(f, 'start_run', { question: Q, brief: BRIEF });
    expect(fs.existsSync(path.join(f.runDir, 'state', 'run.json'))).toBe(false);
    // Not wedged: with the link gone the same call succeeds.
    fs.unlinkSync(path.join(f.runDir, 'brief.md'));
    const r = await f.h.ok('start_run', { question: Q, brief: BRIEF });
    expect(r.resumed).toBe(false);
  });

  it('brief.md → outside file: a critic start_thread (which re-renders the brief) is refused, the target untouched', async () => {
    const f = await fresh();
    fs.rmSync(path.join(f.runDir, 'brief.md'));
    fs.symlinkSync(f.sb.secret, path.join(f.runDir, 'brief.md'));
    await expectRefusedOutsideIntact(f, 'start_thread', CRITIC);
  });

  it('a refused critic start_thread leaves no partial write (no orphan thread state)', async () => {
    const f = await fresh();
    fs.rmSync(path.join(f.runDir, 'brief.md'));
    fs.symlinkSync(f.sb.secret, path.join(f.runDir, 'brief.md'));
    const before = rootTree(f.sb.root);
    await f.h.call('start_thread', { run_id: f.runId, ...CRITIC });
    expect(rootTree(f.sb.root)).toEqual(before);
  });

  it('micro-report → outside file: record_round is refused, the target untouched, the round not recorded', async () => {
    const f = await fresh();
    fs.symlinkSync(f.sb.secret, path.join(f.runDir, microReportName(slug(T), 1)));
    const before = rootTree(f.sb.root);
    await expectRefusedOutsideIntact(f, 'record_round', ROUND);
    expect(rootTree(f.sb.root)).toEqual(before);
    expect((await f.h.ok('thread_status', { run_id: f.runId, thread: T })).rounds_completed).toBe(0);
  });

  it('thread-completion → outside file: complete_thread is refused, the target untouched', async () => {
    const f = await fresh();
    fs.symlinkSync(f.sb.secret, path.join(f.runDir, completionReportName(slug(T))));
    const before = rootTree(f.sb.root);
    await expectRefusedOutsideIntact(f, 'complete_thread', { thread: T });
    expect(rootTree(f.sb.root)).toEqual(before);
  });

  it('critique.md → outside file: record_critique is refused, the target untouched, the critic round not counted', async () => {
    const f = await fresh();
    fs.symlinkSync(f.sb.secret, path.join(f.runDir, 'critique.md'));
    const before = rootTree(f.sb.root);
    await expectRefusedOutsideIntact(f, 'record_critique', CRITIQUE);
    expect(rootTree(f.sb.root)).toEqual(before);
  });

  it('state/thread-<slug>.json → outside copy: every tool on that thread is refused, the copy untouched', async () => {
    const f = await fresh();
    moveOut(f, `state/thread-${slug(T)}.json`);
    await expectAllRefused(f, [
      ['record_round', ROUND],
      ['check_drift', { thread: T, url: 'https://example.org/x', text: 'Iceland' }],
      ['complete_thread', { thread: T }],
      ['start_thread', { thread: T }],
    ]);
  });

  it('state/run.json → outside copy: every tool is refused, the copy untouched', async () => {
    const f = await fresh();
    moveOut(f, 'state/run.json');
    await expectAllRefused(f, [
      ['start_run', { question: Q, brief: BRIEF }],
      ['start_thread', CRITIC],
      ['record_round', ROUND],
      ['complete_thread', { thread: T }],
      ['record_critique', CRITIQUE],
      ['thread_status', { thread: T }],
    ]);
  });

  it('state/source-counter.json → outside file: adding a source is refused, the file untouched', async () => {
    const f = await fresh();
    await seedSource(f.sb.root, f.runId, 'https://example.org/first');
    moveOut(f, 'state/source-counter.json');
    const before = outsideTree(f.sb);
    await expect(seedSource(f.sb.root, f.runId, 'https://example.org/second')).rejects.toThrow(/symlink/);
    expect(outsideTree(f.sb)).toEqual(before);
  });

  it('sources/S<n>.md planted as a link before allocation: adding the source is refused, the target untouched', async () => {
    const f = await fresh();
    fs.mkdirSync(path.join(f.runDir, 'sources'));
    fs.symlinkSync(f.sb.secret, path.join(f.runDir, 'sources', 'S1.md'));
    await expect(seedSource(f.sb.root, f.runId, 'https://example.org/first')).rejects.toThrow(/symlink/);
    expect(fs.readFileSync(f.sb.secret, 'utf8')).toBe(f.sb.secretBytes);
    // The refused call handed no id out; with the link gone the next add stores a real file.
    fs.unlinkSync(path.join(f.runDir, 'sources', 'S1.md'));
    const s = await seedSource(f.sb.root, f.runId, 'https://example.org/first');
    const file = path.join(f.runDir, 'sources', `${s.id}.md`);
    expect(fs.lstatSync(file).isFile()).toBe(true);
    expect(fs.readFileSync(file, 'utf8')).toContain('url: https://example.org/first');
    expect(fs.readFileSync(f.sb.secret, 'utf8')).toBe(f.sb.secretBytes);
  });
});

describe('a symlink planted at a folder the server writes into', () => {
  it('state/ → outside folder on a new run: start_run is refused, the folder untouched', async () => {
    const f = await fresh({ start: false });
    fs.mkdirSync(f.runDir);
    fs.symlinkSync(path.join(f.sb.outside, 'state'), path.join(f.runDir, 'state'));
    await expectRefusedOutsideIntact(f, 'start_run', { question: Q, brief: BRIEF });
  });

  it('state/ → outside copy on an existing run: every writing tool is refused, the copy untouched', async () => {
    const f = await fresh();
    moveOut(f, 'state');
    await expectAllRefused(f, [
      ['start_thread', CRITIC],
      ['start_thread', { thread: 'Other' }],
      ['record_round', ROUND],
      ['check_drift', { thread: T, url: 'https://example.org/x', text: 'Iceland' }],
      ['complete_thread', { thread: T }],
      ['record_critique', CRITIQUE],
    ]);
  });

  it('state/ → outside copy: read-only tools do not read state through the link either', async () => {
    const f = await fresh();
    moveOut(f, 'state');
    await expectRefusedOutsideIntact(f, 'thread_status', { thread: T });
  });

  it('sources/ → outside folder: adding a source is refused, the folder untouched', async () => {
    const f = await fresh();
    fs.mkdirSync(path.join(f.sb.outside, 'sources'));
    fs.symlinkSync(path.join(f.sb.outside, 'sources'), path.join(f.runDir, 'sources'));
    const before = outsideTree(f.sb);
    await expect(seedSource(f.sb.root, f.runId, 'https://example.org/a')).rejects.toThrow(/symlink|escapes/);
    expect(outsideTree(f.sb)).toEqual(before);
    expect(fs.readdirSync(path.join(f.sb.outside, 'sources'))).toEqual([]);
  });

  it('state/source-keys/ → outside folder: adding a source is refused, the folder untouched', async () => {
    const f = await fresh();
    await seedSource(f.sb.root, f.runId, 'https://example.org/a');
    moveOut(f, 'state/source-keys');
    const before = outsideTree(f.sb);
    await expect(seedSource(f.sb.root, f.runId, 'https://example.org/b')).rejects.toThrow(/symlink|escapes/);
    expect(outsideTree(f.sb)).toEqual(before);
  });

  it('sources/ → outside folder holding a forged source: grounding and verify_report do not read it', async () => {
    const f = await fresh();
    const real = await seedSource(f.sb.root, f.runId, 'https://example.org/a');
    const report = (quote: string) =>
      `# R\n\n## Findings\n\nIt says "${quote}" [${real.id}].\n\n## Methods\n\nOne thread.\n\n## Sources\n\n- [${real.id}] Trial report — https://example.org/a\n`;
    // Control: a quote from the real stored text verifies.
    fs.writeFileSync(path.join(f.runDir, 'report.md'), report('kept productivity the same'));
    await supportAll(f.h, f.runId);
    expect(await f.h.ok('verify_report', { run_id: f.runId })).toMatchObject({ ok: true });
    const target = moveOut(f, 'sources');
    // Forge the stored text outside: a quote only the forged copy contains.
    const file = path.join(target, `${real.id}.md`);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('kept productivity', 'SECRET FORGED 424242 kept productivity'));
    // A fresh server: no cache of the real text.
    await f.h.close();
    f.h = await connect({ root: f.sb.root });
    const h = f.h;
    fs.writeFileSync(path.join(f.runDir, 'report.md'), report('SECRET FORGED 424242'));
    const r = await h.call('verify_report', { run_id: f.runId });
    const ok = !r.isError && (r.structuredContent as { ok: boolean }).ok;
    expect(ok, 'verify_report accepted a quote found only in a file outside the root, read through sources/ → outside').toBe(false);
    // Refused outright, or failing on the quote itself (not only on the changed pair's missing verdict).
    if (!r.isError) expect(JSON.stringify(r.structuredContent)).toMatch(/is not in the stored text of/);
    const round = await h.call('record_round', {
      ...ROUND,
      run_id: f.runId,
      facts: [{ fact: 'Forged.', url: 'https://example.org/a', quote: 'SECRET FORGED 424242', confidence: 'VERIFIED', sub_questions: ['SQ-1'] }],
    });
    if (!round.isError) {
      const state = JSON.parse(fs.readFileSync(path.join(f.runDir, 'state', `thread-${slug(T)}.json`), 'utf8'));
      expect(state.facts.every((x: { grounded: boolean }) => !x.grounded), 'a fact was grounded against text read outside the root').toBe(true);
    }
    expect(fs.readdirSync(target).sort()).toEqual([`${real.id}.md`]);
  });

  it('the run folder itself → outside copy: every tool is refused and nothing is read from or written to the copy', async () => {
    const f = await fresh();
    await f.h.close();
    const target = path.join(f.sb.outside, 'run-copy');
    fs.cpSync(f.runDir, target, { recursive: true });
    fs.writeFileSync(path.join(target, 'report.md'), `# R [S424242]\n\n${f.sb.secretBytes}`);
    fs.rmSync(f.runDir, { recursive: true });
    fs.symlinkSync(target, f.runDir);
    f.h = await connect({ root: f.sb.root });
    await expectAllRefused(f, [
      ['start_run', { question: Q, brief: BRIEF }],
      ['start_thread', { thread: T }],
      ['start_thread', CRITIC],
      ['record_round', ROUND],
      ['check_drift', { thread: T, url: 'https://example.org/x', text: 'Iceland' }],
      ['complete_thread', { thread: T }],
      ['record_critique', CRITIQUE],
      ['thread_status', { thread: T }],
      ['verify_report', {}],
    ]);
  });
});

describe('hard links and temp files', () => {
  it('a hard link inside the run to an outside file is replaced, never written through (rename, not overwrite)', async () => {
    const f = await fresh();
    fs.rmSync(path.join(f.runDir, 'brief.md'));
    fs.linkSync(f.sb.secret, path.join(f.runDir, 'brief.md'));
    const report = path.join(f.runDir, microReportName(slug(T), 1));
    const victim = path.join(f.sb.outside, 'victim.md');
    fs.writeFileSync(victim, 'victim bytes\n');
    fs.linkSync(victim, report);
    const before = outsideTree(f.sb);
    await f.h.ok('start_thread', { run_id: f.runId, ...CRITIC });
    await f.h.ok('record_round', { run_id: f.runId, ...ROUND });
    expect(outsideTree(f.sb)).toEqual(before);
    expect(fs.readFileSync(victim, 'utf8')).toBe('victim bytes\n');
    expect(fs.readFileSync(f.sb.secret, 'utf8')).toBe(f.sb.secretBytes);
    expect(fs.readFileSync(report, 'utf8')).toMatch(/^---\n/);
  });

  it('a refused write leaves no temp file behind', async () => {
    const f = await fresh();
    fs.symlinkSync(f.sb.secret, path.join(f.runDir, 'critique.md'));
    await f.h.call('record_critique', { run_id: f.runId, ...CRITIQUE });
    const temps = fs.readdirSync(f.runDir).filter((n) => n.endsWith('.tmp'));
    expect(temps).toEqual([]);
  });

  it('the store itself refuses to read a stored source that became a symlink', async () => {
    const f = await fresh();
    const s = await seedSource(f.sb.root, f.runId, 'https://example.org/a');
    const file = path.join(f.runDir, 'sources', `${s.id}.md`);
    fs.copyFileSync(file, path.join(f.sb.outside, 'S.md'));
    fs.rmSync(file);
    fs.symlinkSync(path.join(f.sb.outside, 'S.md'), file);
    const store = new RunStore(f.sb.root);
    expect(() => store.lookupSource(f.runId, canonicalKey('https://example.org/a'))).toThrow(/symlink/);
  });
});
