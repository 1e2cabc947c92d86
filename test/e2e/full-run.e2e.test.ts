// A whole run through the real Claude Code binary: `/deep-research:deep-research "<question>"` from the
// plugin (--plugin-dir), the scripted policy as the model (plumbing and protocol, not judgement), the fixture
// web as the internet. Asserts on the files a researcher would review and on the stream-json events.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseReply } from '../../demo/policy/reply.js';
import { startFixtureWeb, type FixtureWeb } from '../../demo/web/server.js';
import { REPO, requireBinaries, streamFacts, tempDir, type ClaudeResult, removeTempDirs } from './harness/claude.js';
import type { PolicyApi } from './harness/policy-api.js';
import { completions, expectCleanStream, field, filesIn, gitProject, launch, policyApi, QUESTION, report, resultsOf, runFolder, verifyIndependently } from './harness/scenario.js';

let web: FixtureWeb;
let api: PolicyApi;
let project: string;
let result: ClaudeResult;
let dir: string;

beforeAll(async () => {
  requireBinaries();
  web = await startFixtureWeb();
  api = await policyApi(web);
  project = gitProject();
  result = await launch({ args: ['--plugin-dir', REPO, `/deep-research:deep-research "${QUESTION}"`], cwd: project, home: tempDir('dr-e2e-home-'), api, web }).done;
  report('full run (plugin)', result, api);
  dir = runFolder(project);
});
afterAll(async () => {
  removeTempDirs();
  await api?.close();
  await web?.close();
});

describe('full run from the plugin', () => {
  it('exits cleanly: server connected, no permission denial, no missing tool, the policy never lost the thread', () => {
    expect(result.code, result.stderr).toBe(0);
    expectCleanStream(result, api, 'plugin:deep-research:deep-research');
  });

  it('calls the server under the plugin tool names and dispatches investigator subagents', () => {
    const names = new Set(streamFacts(result.events).toolResults.map((t) => t.name));
    for (const tool of ['start_run', 'start_thread', 'fetch_source', 'check_drift', 'record_round', 'thread_status', 'complete_thread', 'record_critique', 'audit_report', 'record_audit', 'verify_report']) {
      expect(names, tool).toContain(`mcp__plugin_deep-research_deep-research__${tool}`);
    }
    const started = result.events.filter((e) => e.type === 'system' && e.subtype === 'task_started');
    const investigators = started.filter((e) => e.subagent_type === 'deep-research:deep-research-investigator');
    expect(investigators.length).toBeGreaterThanOrEqual(3); // two brief threads and the critic's thread
    expect(new Set(api.turns.filter((t) => t.role === 'investigator').map((t) => t.label)).size).toBe(3);
  });

  it('what the model is shown of each server reply carries the fields the protocol branches on', () => {
    // Claude Code 2.1.328 shows the model a tool's structuredContent (as JSON) when there is one, not its text
    // content; either way the decision fields must be there, and fetch_source must show the page passages.
    const rounds = resultsOf(result, 'record_round');
    expect(rounds.length).toBeGreaterThanOrEqual(5);
    for (const r of rounds) {
      const reply = parseReply(r.text);
      for (const key of ['round', 'new_facts', 'saturation', 'url_overlap', 'plateau_level', 'action', 'phase', 'next_phase', 'converged', 'micro_report']) {
        expect(reply.has(key), `${key} in ${r.text.slice(0, 200)}`).toBe(true);
      }
    }
    const pages = resultsOf(result, 'fetch_source').filter((r) => !r.isError);
    expect(pages.length).toBeGreaterThan(0);
    for (const p of pages) {
      const reply = parseReply(p.text);
      expect(reply.str('source_id')).toMatch(/^S\d+$/);
      expect(reply.body.length, p.text.slice(0, 200)).toBeGreaterThan(100);
    }
  });

  it('writes the brief, micro-reports per round and a completion report per thread', () => {
    const files = filesIn(dir);
    expect(files).toContain('brief.md');
    const done = completions(dir);
    expect(done.size).toBe(3);
    for (const [thread, c] of done) {
      const slug = c.file.slice('thread-completion-'.length, -3);
      const micro = files.filter((f) => f.startsWith(`micro-report-${slug}-round-`));
      expect(micro.length, thread).toBe(c.rounds);
      expect(c.rounds, thread).toBeGreaterThanOrEqual(1);
    }
    expect(done.get('Trials and output')).toMatchObject({ reason: 'CRITERIA_MET', rounds: 2 });
    // The fixture web keeps returning the same two pages to this thread: the server stops it on the plateau.
    expect(done.get('Counter-evidence')).toMatchObject({ reason: 'PLATEAU_STOPPED', rounds: 2 });
  });

  it('opens a critic thread for the critic’s target and ends the critique with two clean sign-offs', () => {
    const critique = fs.readFileSync(path.join(dir, 'critique.md'), 'utf8');
    expect(critique).toMatch(/^Clean sign-offs: 2 · stop: yes$/m);
    const critiques = resultsOf(result, 'record_critique');
    expect(critiques.map((c) => field(c.text, 'stop'))).toEqual(['false', 'false', 'true']);
    const target = field(critiques[0]!.text, 'next_target');
    // The critic thread's name is a few words of the target (issue 17), not the whole query.
    const words = (target ?? '').toLowerCase().replace(/[^\p{L}\p{N}\s-]/gu, '').split(/\s+/);
    expect([...completions(dir).keys()].some((t) => t.startsWith('Critic 1: ') && t.slice('Critic 1: '.length).toLowerCase().split(' ').every((w) => words.includes(w)))).toBe(true);
  });

  it('writes report.md, which verify_report accepts in the run and again on its own', async () => {
    const verify = resultsOf(result, 'verify_report');
    expect(verify.map((v) => field(v.text, 'ok')), verify[0]?.text).toEqual(['true']);
    const runId = path.basename(dir);
    const again = await verifyIndependently(project, runId);
    expect(field(again, 'ok'), again).toBe('true');
    expect(Number(field(again, 'citations'))).toBeGreaterThan(5);
    expect(field(again, 'audit.supported')).toBe(field(again, 'pairs'));
    // The audit ran inside the run: the first judgement found the compound answer sentence PARTIAL.
    const recorded = resultsOf(result, 'record_audit');
    expect(Number(field(recorded[0]!.text, 'counts.partial'))).toBeGreaterThan(0);
    expect(fs.readFileSync(path.join(dir, 'audit.md'), 'utf8')).toMatch(/^Pairs: (\d+) · supported: \1 · partial: 0 · unsupported: 0 · unaudited: 0$/m);
    const text = fs.readFileSync(path.join(dir, 'report.md'), 'utf8');
    expect(text).toMatch(/^## Methods$/m);
    expect(text).toMatch(/^## Open Questions$/m);
    expect(text).toMatch(/^- \[(S\d+)\]\(sources\/\1\.md\) .+ — http:\/\/127\.0\.0\.1:\d+\/\S+\.html$/m);
  });

  it('fetches each fixture page at most once, and every page the search returned was asked for', () => {
    for (const [p, n] of web.hits) expect(n, p).toBe(1);
    expect([...web.hits.keys()].sort()).toEqual(
      ['/four-day-school-week.html', '/iceland-after-the-trials.html', '/iceland-trials.html', '/svartedalen-costs.html', '/svartedalen-six-hour-day.html', '/uk-pilot-2022.html', '/uk-pilot-employer-survey.html', '/working-4-utah.html'],
    );
  });
});
