// Resume: the first Claude Code run is killed (SIGKILL to the whole process group) right after the
// "Trials and output" investigator recorded round 1. The same command run again continues that thread from
// disk at round 2 and re-fetches nothing it stored: the fixture web counts every request per path.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseReply } from '../../demo/policy/reply.js';
import { startFixtureWeb, type FixtureWeb } from '../../demo/web/server.js';
import { REPO, requireBinaries, streamFacts, tempDir, type ClaudeResult, removeTempDirs } from './harness/claude.js';
import type { PolicyApi } from './harness/policy-api.js';
import { completions, expectCleanStream, field, filesIn, gitProject, launch, policyApi, QUESTION, report, resultsOf, runFolder, verifyIndependently } from './harness/scenario.js';

const TRIALS = 'Trials and output';

let web: FixtureWeb;
let api1: PolicyApi;
let api2: PolicyApi;
let project: string;
let first: ClaudeResult;
let second: ClaudeResult;
let afterKill: { files: string[]; hits: Map<string, number>; round1: string };

const args = ['--plugin-dir', REPO, `/deep-research:deep-research "${QUESTION}"`];

beforeAll(async () => {
  requireBinaries();
  web = await startFixtureWeb();
  project = gitProject();
  const home = tempDir('dr-e2e-home-');

  // Run 1: freeze the fake model as soon as the Trials investigator has seen its round-1 reply, let every
  // tool call already under way finish, then kill Claude Code and everything it started.
  api1 = await policyApi(web, {
    freezeWhen: ({ role, label, turns }) =>
      role === 'investigator' &&
      label === TRIALS &&
      turns.some((t) => t.sent.kind === 'calls' && t.sent.calls.some((c, i) => c.tool === 'mcp' && c.name === 'record_round' && Array.isArray(t.observation) && parseReply(t.observation[i]!.text).num('round') === 1)),
  });
  const run1 = launch({ args, cwd: project, home, api: api1, web });
  const deadline = Date.now() + 120_000;
  while (!(api1.frozen() && api1.idleMs() > 1500) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (!api1.frozen()) throw new Error('run 1 never reached the kill point');
  run1.kill();
  first = await run1.done;
  report('resume, run 1 (killed)', first, api1);
  const dir = runFolder(project);
  const round1 = filesIn(dir).find((f) => /^micro-report-trials-and-output-.*-round-1\.md$/.test(f));
  afterKill = { files: filesIn(dir), hits: new Map(web.hits), round1: round1 ? fs.readFileSync(path.join(dir, round1), 'utf8') : '' };

  // Run 2: the same command, a fresh Claude Code, the same project.
  api2 = await policyApi(web);
  second = await launch({ args, cwd: project, home, api: api2, web }).done;
  report('resume, run 2', second, api2);
});
afterAll(async () => {
  removeTempDirs();
  await api1?.close();
  await api2?.close();
  await web?.close();
});

describe('kill mid-thread, run again', () => {
  it('run 1 was killed after round 1 of the thread, before its completion report and the final report', () => {
    expect(first.killed).toBe(true);
    // Up to the kill, the run was as clean as any other: server connected, nothing refused or missing.
    const facts = streamFacts(first.events);
    expect(facts.mcpServers).toContainEqual(expect.objectContaining({ name: 'plugin:deep-research:deep-research', status: 'connected' }));
    expect(facts.toolErrors).toEqual([]);
    expect(api1.errors).toEqual([]);
    expect(afterKill.round1).toMatch(/^round: 1$/m);
    expect(afterKill.files.some((f) => f.startsWith('thread-completion-trials-and-output'))).toBe(false);
    expect(afterKill.files).not.toContain('report.md');
  });

  it('run 2 resumes the run and sends investigators only where thread_status says work is left', () => {
    expect(second.code, second.stderr).toBe(0);
    expectCleanStream(second, api2, 'plugin:deep-research:deep-research');
    const starts = resultsOf(second, 'start_run');
    expect(starts.map((s) => field(s.text, 'resumed'))).toEqual(['true', 'true']);
    const statuses = resultsOf(second, 'thread_status');
    expect(statuses.length).toBeGreaterThanOrEqual(2);
    const trialsRounds = api2.turns.filter((t) => t.role === 'investigator' && t.label === TRIALS);
    expect(trialsRounds.length).toBeGreaterThan(0);
  });

  it('the thread continues from disk at round 2, and round 1 is left as it was', () => {
    const dir = runFolder(project);
    const rounds = resultsOf(second, 'record_round').map((r) => parseReply(r.text));
    const trials = rounds.filter((r) => String(r.str('micro_report')).includes('trials-and-output'));
    expect(trials[0]?.num('round')).toBe(2);
    const round1 = filesIn(dir).find((f) => /^micro-report-trials-and-output-.*-round-1\.md$/.test(f))!;
    expect(fs.readFileSync(path.join(dir, round1), 'utf8')).toBe(afterKill.round1);
    expect(completions(dir).get(TRIALS)).toMatchObject({ reason: 'CRITERIA_MET', rounds: 2 });
  });

  it('nothing stored is fetched again: every page hit the fixture web once, stored pages come back as duplicates', () => {
    for (const [p, n] of web.hits) expect(n, p).toBe(1);
    for (const [p, n] of afterKill.hits) expect(web.hits.get(p), p).toBe(n);
    const dupes = resultsOf(second, 'fetch_source').filter((r) => !r.isError && field(r.text, 'duplicate') === 'true');
    expect(dupes.length).toBeGreaterThan(0);
  });

  it('finishes with a report that verify_report accepts', async () => {
    const dir = runFolder(project);
    expect(resultsOf(second, 'verify_report').map((v) => field(v.text, 'ok')).at(-1)).toBe('true');
    const again = await verifyIndependently(project, path.basename(dir));
    expect(field(again, 'ok'), again).toBe('true');
  });
});
