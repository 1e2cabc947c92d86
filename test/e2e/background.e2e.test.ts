// Subagents in the background: Claude Code starts an Agent call in the background unless told otherwise,
// and its report arrives later as a task notification that wakes the main conversation (the stream then holds
// several result events). The command asks for run_in_background: false, but a model may not comply; here the
// scripted model leaves the default, and the orchestrator must wait for every notification before it
// critiques or writes the report.
//
// Found with 2.1.328: the command's allowed-tools cover only the turn the command was expanded in. Once that
// turn ends and a notification starts the next one, every call of the server's tools (and Read/Write) is
// denied in -p mode, for the main conversation and for subagents started from then on. The command avoids this
// by asking for foreground subagents; this test grants the tools for the session (--allowedTools, as a user's
// permission settings would) so that it can check the waiting itself.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureWeb, type FixtureWeb } from '../../demo/web/server.js';
import { REPO, requireBinaries, tempDir, type ClaudeResult, removeTempDirs } from './harness/claude.js';
import type { PolicyApi } from './harness/policy-api.js';
import { SERVER_TOOLS } from '../../demo/policy/types.js';
import { completions, expectCleanStream, field, gitProject, launch, policyApi, QUESTION, report, resultsOf, runFolder, verifyIndependently } from './harness/scenario.js';

let web: FixtureWeb;
let api: PolicyApi;
let project: string;
let result: ClaudeResult;

beforeAll(async () => {
  requireBinaries();
  web = await startFixtureWeb();
  api = await policyApi(web, { backgroundAgents: true });
  project = gitProject();
  const granted = ['Read', 'Write', 'Agent', ...SERVER_TOOLS.map((t) => `mcp__plugin_deep-research_deep-research__${t}`)].join(',');
  result = await launch({
    args: ['--plugin-dir', REPO, `/deep-research:deep-research "${QUESTION}" quick`, '--allowedTools', granted],
    cwd: project,
    home: tempDir('dr-e2e-home-'),
    api,
    web,
  }).done;
  report('background subagents', result, api);
});
afterAll(async () => {
  removeTempDirs();
  await api?.close();
  await web?.close();
});

describe('investigators in the background', () => {
  it('are started in the background, and the orchestrator waits for their notifications', () => {
    expect(result.code, result.stderr).toBe(0);
    expectCleanStream(result, api, 'plugin:deep-research:deep-research');
    const started = result.events.filter((e) => e.type === 'system' && e.subtype === 'task_started');
    expect(started.filter((e) => e.is_backgrounded === true).length).toBeGreaterThanOrEqual(2);
    expect(api.turns.filter((t) => t.role === 'orchestrator' && t.kind === 'wait').length).toBeGreaterThanOrEqual(1);
  });

  it('critiques only after every thread has its completion report', () => {
    const critique = api.turns.findIndex((t) => t.role === 'orchestrator' && t.tools.some((x) => x.endsWith('__record_critique')));
    const lastInvestigatorTurn = api.turns.reduce((last, t, i) => (t.role === 'investigator' && !t.label.startsWith('Critic') ? i : last), -1);
    expect(critique).toBeGreaterThan(lastInvestigatorTurn);
    const dir = runFolder(project);
    expect([...completions(dir).keys()]).toEqual(expect.arrayContaining(['Trials and output', 'Counter-evidence']));
  });

  it('still ends with a verified report', async () => {
    expect(resultsOf(result, 'verify_report').map((v) => field(v.text, 'ok')).at(-1)).toBe('true');
    const dir = runFolder(project);
    expect(fs.existsSync(path.join(dir, 'report.md'))).toBe(true);
    const again = await verifyIndependently(project, path.basename(dir));
    expect(field(again, 'ok'), again).toBe('true');
  });
});
