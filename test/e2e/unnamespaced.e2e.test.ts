// After `node dist/cli.js install --project <dir>`, a plain `/deep-research "<question>" quick` in that project
// runs OUR command (not Claude Code's built-in workflow) against the directly registered server, under the
// tool names mcp__deep-research__*, and finishes with a verified report. The scripted policy only plays the
// orchestrator for our command's text; if the built-in ran instead, no research would happen at all.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureWeb, type FixtureWeb } from '../../demo/web/server.js';
import { CLI_JS, REPO, requireBinaries, streamFacts, tempDir, type ClaudeResult, removeTempDirs } from './harness/claude.js';
import type { PolicyApi } from './harness/policy-api.js';
import { completions, expectCleanStream, field, gitProject, launch, policyApi, QUESTION, report, resultsOf, runFolder, verifyIndependently } from './harness/scenario.js';

let web: FixtureWeb;
let api: PolicyApi;
let project: string;
let result: ClaudeResult;

beforeAll(async () => {
  requireBinaries();
  if (!fs.existsSync(CLI_JS)) throw new Error(`${CLI_JS} is missing: run \`npm run build\``);
  web = await startFixtureWeb();
  api = await policyApi(web);
  const home = tempDir('dr-e2e-home-');
  project = gitProject();
  execFileSync(process.execPath, [CLI_JS, 'install', '--project', project], { env: { PATH: process.env.PATH ?? '', HOME: home }, stdio: 'pipe' });
  result = await launch({ args: [`/deep-research "${QUESTION}" quick`], cwd: project, home, api, web }).done;
  report('un-namespaced /deep-research (installed)', result, api);
});
afterAll(async () => {
  removeTempDirs();
  await api?.close();
  await web?.close();
});

describe('installed into a project, /deep-research is ours', () => {
  it('expands our command under the plain name and connects the directly registered server', () => {
    expect(result.code, result.stderr).toBe(0);
    expectCleanStream(result, api, 'deep-research');
    const first = api.bodies.find((b) => JSON.stringify(b.messages?.[0] ?? '').includes('<command-name>'));
    const opening = JSON.stringify(first?.messages?.[0]);
    expect(opening).toContain('<command-name>/deep-research</command-name>');
    expect(opening).toContain(`Request: \\"${QUESTION}\\" quick`);
    const ours = fs.readFileSync(path.join(REPO, 'commands', 'deep-research.md'), 'utf8').split('\n').find((l) => l.startsWith('You run one research run'))!;
    expect(opening).toContain(ours.slice(0, 80));
  });

  it('calls the server as mcp__deep-research__* and the installed investigator agent', () => {
    const names = streamFacts(result.events).toolResults.map((t) => t.name).filter((n) => n.includes('deep-research__'));
    expect(names.length).toBeGreaterThan(20);
    for (const n of names) expect(n).toMatch(/^mcp__deep-research__[a-z_]+$/);
    const types = result.events.filter((e) => e.type === 'system' && e.subtype === 'task_started').map((e) => e.subagent_type);
    expect(types).toContain('deep-research-investigator');
  });

  it('runs the quick tier to a verified report', async () => {
    const dir = runFolder(project);
    expect(fs.readFileSync(path.join(dir, 'brief.md'), 'utf8')).toMatch(/depth: quick/);
    const done = completions(dir);
    expect([...done.values()].every((c) => c.rounds <= 2)).toBe(true);
    expect(done.get('Counter-evidence')?.reason).toBe('PLATEAU_STOPPED');
    expect(fs.readFileSync(path.join(dir, 'critique.md'), 'utf8')).toMatch(/stop: yes/);
    expect(resultsOf(result, 'verify_report').map((v) => field(v.text, 'ok')).at(-1)).toBe('true');
    const again = await verifyIndependently(project, path.basename(dir));
    expect(field(again, 'ok'), again).toBe('true');
  });
});
