// `claude plugin eval` on evals/, offline: the scripted fake model plays every run, the fixture web is the
// internet. Then the same cases against a deliberately broken copy of the command (the investigator procedure
// path mistyped, a plausible regression): every case must fail. Graders that pass either way prove nothing.
//
// Two facts of Claude Code 2.1.328 shape this file: eval runs do not hand the operator's environment to the
// plugin's MCP server, and case.yaml may only set EVAL_* variables. So the plugin is evaluated from a copy
// whose manifest gives the server its allow-list for the fixture web (the only change to the copy), and the
// fixture web listens on a fixed port.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureWeb, type FixtureWeb } from '../../demo/web/server.js';
import { CLAUDE, REPO, requireBinaries, tempDir, removeTempDirs } from './harness/claude.js';
import type { PolicyApi } from './harness/policy-api.js';
import { policyApi } from './harness/scenario.js';

const EVAL_PORT = 4598;
const CASES = ['micro-report-after-round', 'report-verifies', 'start-run-first'];

interface EvalOutput {
  claudeVersion: string;
  cases: { name: string; arms: { with: { passed: boolean; error: string | null; turns: number; graders: { name: string; passed: boolean; explanation: string }[] }[] } }[];
  aggregates: { casesTotal: number; casesPassed: number };
}

/** A copy of the plugin as a user gets it, with the fixture web on the server's allow-list. */
function pluginCopy(allowHost: string, breakCommand: boolean): string {
  const dir = tempDir(breakCommand ? 'dr-eval-broken-' : 'dr-eval-plugin-');
  for (const entry of ['.claude-plugin', 'commands', 'agents', 'skills', 'templates', 'dist', 'evals', 'assets', 'package.json', 'LICENSE']) {
    if (fs.existsSync(path.join(REPO, entry))) fs.cpSync(path.join(REPO, entry), path.join(dir, entry), { recursive: true });
  }
  fs.rmSync(path.join(dir, 'evals', 'results'), { recursive: true, force: true });
  const manifest = path.join(dir, '.claude-plugin', 'plugin.json');
  const m = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { mcpServers: Record<string, { env?: Record<string, string> }> };
  const server = m.mcpServers['deep-research'];
  if (!server) throw new Error('plugin.json declares no deep-research server');
  server.env = { ...server.env, DEEP_RESEARCH_ALLOW_HOSTS: allowHost, DEEP_RESEARCH_LOG: 'off' };
  fs.writeFileSync(manifest, JSON.stringify(m, null, 2));
  if (breakCommand) {
    const cmd = path.join(dir, 'commands', 'deep-research.md');
    const text = fs.readFileSync(cmd, 'utf8');
    const broken = text.replaceAll('commands/deep-research-investigate.md', 'commands/deep-research-investigator.md');
    if (broken === text) throw new Error('the broken variant changed nothing: commands/deep-research.md no longer names commands/deep-research-investigate.md');
    fs.writeFileSync(cmd, broken);
  }
  return dir;
}

function runEval(plugin: string, api: PolicyApi): Promise<{ out: EvalOutput; stdout: string; ms: number }> {
  const work = tempDir('dr-eval-out-');
  const json = path.join(work, 'out.json');
  const started = performance.now();
  const child = spawn(
    'timeout',
    ['-k', '10', '900', CLAUDE, 'plugin', 'eval', plugin, '--runs', '1', '--ablation', 'none', '--no-publish', '--trust-plugin', '--mocks', 'off',
      '--allow-tools', 'Read', 'Write', 'Agent', 'mcp__plugin_deep-research_deep-research__*', '--json', json, '--output-dir', path.join(work, 'results')],
    {
      cwd: plugin,
      env: { PATH: process.env.PATH ?? '', HOME: tempDir('dr-eval-home-'), ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: 'dummy', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stdout += c.toString()));
  return new Promise((resolve, reject) => {
    child.on('close', (code) => {
      if (!fs.existsSync(json)) return reject(new Error(`claude plugin eval wrote no result (exit ${code}):\n${stdout}`));
      resolve({ out: JSON.parse(fs.readFileSync(json, 'utf8')) as EvalOutput, stdout, ms: performance.now() - started });
    });
  });
}

let web: FixtureWeb;
let goodApi: PolicyApi;
let brokenApi: PolicyApi;
let good: EvalOutput;
let broken: EvalOutput;

beforeAll(async () => {
  requireBinaries();
  web = await startFixtureWeb({ port: EVAL_PORT }).catch((err: NodeJS.ErrnoException) => {
    throw new Error(`the eval fixture web needs port ${EVAL_PORT} (${err.code ?? String(err)}); free it and run again`);
  });
  goodApi = await policyApi(web);
  const g = await runEval(pluginCopy(web.allowHost, false), goodApi);
  good = g.out;
  brokenApi = await policyApi(web);
  const b = await runEval(pluginCopy(web.allowHost, true), brokenApi);
  broken = b.out;
  process.stdout.write(`[e2e] claude plugin eval: good copy ${(g.ms / 1000).toFixed(1)} s (${good.cases.map((c) => `${c.name} ${c.arms.with[0]?.turns} turns`).join(', ')}); broken copy ${(b.ms / 1000).toFixed(1)} s\n`);
}, 1_200_000);
afterAll(async () => {
  removeTempDirs();
  await goodApi?.close();
  await brokenApi?.close();
  await web?.close();
});

describe('claude plugin eval, offline against the scripted model', () => {
  it('runs every case of evals/ with the pinned Claude Code', () => {
    expect(good.claudeVersion).toBe('2.1.328');
    expect(good.cases.map((c) => c.name).sort()).toEqual(CASES);
    expect(goodApi.errors).toEqual([]);
  });

  it('the plugin passes every case and every grader', () => {
    for (const c of good.cases) {
      const run = c.arms.with[0]!;
      expect(run.error, c.name).toBeNull();
      for (const g of run.graders) expect(g.passed, `${c.name} / ${g.name}: ${g.explanation}`).toBe(true);
    }
    expect(good.aggregates.casesPassed).toBe(CASES.length);
  });

  it('the broken command fails every case', () => {
    expect(broken.cases.map((c) => c.name).sort()).toEqual(CASES);
    for (const c of broken.cases) expect(c.arms.with[0]!.passed, c.name).toBe(false);
    expect(broken.aggregates.casesPassed).toBe(0);
    // It fails for the reason it was broken: no investigator could follow the procedure, so no round was recorded.
    const start = broken.cases.find((c) => c.name === 'start-run-first')!.arms.with[0]!.graders;
    expect(start.find((g) => g.name === 'start-run-called')?.passed).toBe(true);
    expect(start.find((g) => g.name === 'start-run-before-record-round')?.passed).toBe(false);
    expect(brokenApi.errors).toEqual([]);
  });
});
