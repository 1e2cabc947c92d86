// Codex CLI 0.169.0, for real. `codex mcp list/get` only read the config, so the proof that Codex starts the
// installed server is a `codex exec` run against a local Responses API stub: the server records the
// handshake to DEEP_RESEARCH_TRACE_FILE, and a scripted tool call (start_run, dry run) comes back with the
// server's answer. The same run shows $deep-research injecting our skill and the tools under their names.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER, baseEnv, cleanup, deepResearch, plain, requireCli, run, texts, tmp } from './harness.js';
import { TOOL_NAMES } from '../../src/tools/names.js';
import { snapshot } from './snapshot.js';
import { responsesStub } from './stubs.js';
import type { Stub } from './stubs.js';

let home: string;
let codexHome: string;
let project: string;
let codex: string;
let stub: Stub;
let trace: string;
let userConfig: string;

const DRY_RUN = {
  question: 'Is the four-day week net-positive for output?',
  depth: 'quick',
  dry_run: true,
  brief: { threads: [{ name: 'trials', sub_questions: [{ id: 'SQ-1', question: 'What do trials find?' }], subjects: ['Iceland trial'] }] },
};

beforeAll(async () => {
  codex = requireCli('codex');
  home = tmp('dr-codex-home-');
  codexHome = path.join(home, '.codex');
  project = tmp('dr-codex-proj-');
  trace = path.join(home, 'trace.jsonl');
  stub = await responsesStub({ name: 'start_run', namespace: 'mcp__deep_research', arguments: JSON.stringify(DRY_RUN) });
  mkdirSync(codexHome);
  // The user's config: a model provider that is the local stub, and the project marked trusted (what
  // answering Codex's trust prompt writes). The installer must leave all of it byte for byte.
  userConfig = [
    '# my settings',
    'model = "stub-model"',
    'model_provider = "stub"',
    '',
    '[model_providers.stub]',
    'name = "stub"',
    `base_url = "${stub.url}/v1"`,
    'wire_api = "responses"',
    'env_key = "STUB_API_KEY"',
    '',
    `[projects."${project}"]`,
    'trust_level = "trusted"',
    '',
  ].join('\n');
  writeFileSync(path.join(codexHome, 'config.toml'), userConfig);
});
afterAll(async () => {
  await stub?.close();
  cleanup();
});

function env(): Record<string, string> {
  return baseEnv(home, {
    CODEX_HOME: codexHome,
    STUB_API_KEY: 'stub-key',
    DEEP_RESEARCH_TRACE_FILE: trace,
    DEEP_RESEARCH_ARTIFACTS: path.join(home, 'artifacts'),
  });
}

describe('Codex CLI 0.169.0', () => {
  let before: Record<string, string>;

  it('install --target codex --user, then `codex mcp get deep-research` shows the entry', async () => {
    before = snapshot(codexHome);
    await deepResearch(['install', '--target', 'codex', '--user'], env(), home);
    const r = await run(codex, ['mcp', 'get', 'deep-research'], { cwd: home, env: env(), timeoutMs: 60_000 });
    const out = plain(r.stdout);
    console.log(`codex mcp get deep-research (${r.ms} ms):\n${out.trim()}`);
    expect(r.code, r.stderr).toBe(0);
    expect(out).toMatch(/^deep-research$/m);
    expect(out).toMatch(/^\s+enabled: true$/m);
    expect(out).toMatch(/^\s+command: node$/m);
    expect(out).toContain(`args: ${SERVER}`);
  });

  it('codex exec starts the server, calls its tool, and $deep-research loads our skill', async () => {
    const r = await run(codex, ['exec', '--skip-git-repo-check', '$deep-research "Is the four-day week net-positive for output?" quick'], {
      cwd: project,
      env: env(),
      timeoutMs: 120_000,
    });
    console.log(`codex exec: exit ${r.code} in ${r.ms} ms, ${stub.requests.length} model request(s)`);
    expect(r.timedOut).toBe(false);
    expect(r.code, plain(r.stderr)).toBe(0);

    const init = readFileSync(trace, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { event: string; client: { name: string; version: string } });
    console.log(`trace: ${JSON.stringify(init)}`);
    expect(init).toContainEqual({ event: 'initialized', client: expect.objectContaining({ name: 'codex-mcp-client', version: '0.169.0' }) });

    const first = stub.requests[0]?.body ?? {};
    const tools = (first.tools ?? []) as { name?: string; type?: string; tools?: { name: string }[] }[];
    const ns = tools.find((t) => t.name === 'mcp__deep_research');
    expect(ns, 'the mcp__deep_research namespace').toBeDefined();
    expect((ns?.tools ?? []).map((t) => t.name).sort()).toEqual(
      [...TOOL_NAMES].sort(),
    );
    expect(JSON.stringify(tools.find((t) => t.name === 'multi_agent_v1'))).toContain('spawn_agent');
    const shown = texts(first.input);
    expect(shown).toContain('<name>deep-research</name>');
    expect(shown).toContain('# Deep research');
    // Named as the user would, under the home folder: no path of this machine in the installed skill.
    expect(shown).toContain('~/.codex/skills/deep-research-investigate/SKILL.md');
    expect(shown).not.toContain(`${codexHome}/skills/deep-research-investigate/SKILL.md`);
    expect(shown).toMatch(/- deep-research-method: /);

    // The scripted start_run (dry run) went through Codex to our server and came back with its answer.
    const second = texts(stub.requests[1]?.body.input);
    expect(second).toContain('"max_fetches"');
    expect(second).toContain('"budgets"');
    expect(existsSync(path.join(home, 'artifacts'))).toBe(false); // a dry run writes nothing
  });

  it('uninstall --user leaves $CODEX_HOME byte-identical', async () => {
    await deepResearch(['uninstall', '--target', 'codex', '--user'], env(), home);
    const after = snapshot(codexHome);
    expect(readFileSync(path.join(codexHome, 'config.toml'), 'utf8')).toBe(userConfig);
    // Codex keeps its own state (sessions, logs, a sqlite file) here; none of ours is left.
    expect(Object.keys(after).filter((k) => k.includes('deep-research'))).toEqual([]);
    for (const [k, v] of Object.entries(before)) expect(after[k], k).toBe(v);
  });

  it('install --project writes .codex/ in the project, which a trusted project reads', async () => {
    const beforeProject = snapshot(project);
    await deepResearch(['install', '--target', 'codex', '--project', project], env(), project);
    const r = await run(codex, ['mcp', 'list'], { cwd: project, env: env(), timeoutMs: 60_000 });
    const out = plain(r.stdout);
    console.log(`codex mcp list in the project (${r.ms} ms):\n${out.trim()}`);
    expect(out).toMatch(new RegExp(`^deep-research\\s+node\\s+${SERVER.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s.*enabled`, 'm'));
    await deepResearch(['uninstall', '--target', 'codex', '--project', project], env(), project);
    expect(snapshot(project)).toEqual(beforeProject);
    expect(readFileSync(path.join(codexHome, 'config.toml'), 'utf8')).toBe(userConfig);
  });
});
