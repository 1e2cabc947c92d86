// OpenCode 1.18.33, for real: after `deep-research install --target opencode`, `opencode mcp list` starts our
// server and reports it connected, and `opencode run --command deep-research` against a local Chat
// Completions stub sends our command with the question, the deep-research_* tools and the investigator.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, cleanup, deepResearch, plain, requireCli, run, texts, tmp } from './harness.js';
import { snapshot } from './snapshot.js';
import { chatStub } from './stubs.js';
import type { Stub } from './stubs.js';

let home: string;
let project: string;
let opencode: string;
let stub: Stub;
let trace: string;

// The project's own config, with a comment and a server of its own: both must survive.
const PROJECT_CONFIG = `{
  "$schema": "https://opencode.ai/config.json",
  // shared with the team
  "mcp": {
    "team-notes": { "type": "local", "command": ["node", "-e", "process.exit(0)"], "enabled": false }
  }
}
`;

beforeAll(async () => {
  opencode = requireCli('opencode');
  home = tmp('dr-opencode-home-');
  project = tmp('dr-opencode-proj-');
  trace = path.join(home, 'trace.jsonl');
  stub = await chatStub();
  writeFileSync(path.join(project, 'opencode.jsonc'), PROJECT_CONFIG);
  // The user's global config: a model provider that is the local stub.
  mkdirSync(path.join(home, '.config', 'opencode'), { recursive: true });
  writeFileSync(
    path.join(home, '.config', 'opencode', 'opencode.json'),
    JSON.stringify({
      $schema: 'https://opencode.ai/config.json',
      autoupdate: false,
      share: 'disabled',
      model: 'stub/stub-model',
      provider: {
        stub: { npm: '@ai-sdk/openai-compatible', name: 'stub', options: { baseURL: `${stub.url}/v1`, apiKey: 'stub-key' }, models: { 'stub-model': { name: 'stub', tool_call: true } } },
      },
    }),
  );
});
afterAll(async () => {
  await stub?.close();
  cleanup();
});

function env(): Record<string, string> {
  return baseEnv(home, {
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_SHARE: '1',
    DEEP_RESEARCH_TRACE_FILE: trace,
    DEEP_RESEARCH_ARTIFACTS: path.join(home, 'artifacts'),
  });
}

describe('OpenCode 1.18.33', () => {
  let before: Record<string, string>;

  it('install --target opencode --project, then `opencode mcp list` shows the server connected', async () => {
    before = snapshot(project);
    await deepResearch(['install', '--target', 'opencode', '--project', project], env(), project);
    const r = await run(opencode, ['mcp', 'list'], { cwd: project, env: env(), timeoutMs: 90_000 });
    const out = plain(`${r.stdout}\n${r.stderr}`);
    console.log(`opencode mcp list (${r.ms} ms):\n${out.trim()}`);
    expect(r.timedOut).toBe(false);
    // It exits 0 even when a server fails, so the line itself is the check.
    expect(out).toMatch(/✓ deep-research\s+connected/);
    expect(readFileSync(trace, 'utf8')).toContain('"event":"initialized"');
  });

  it('/deep-research reaches the model as our command, with deep-research_* tools and the investigator agent', async () => {
    const r = await run(opencode, ['run', '--command', 'deep-research', '"Is the four-day week net-positive?" quick'], {
      cwd: project,
      env: env(),
      timeoutMs: 150_000,
    });
    console.log(`opencode run --command deep-research: exit ${r.code} in ${r.ms} ms, ${stub.requests.length} model request(s)`);
    expect(r.timedOut).toBe(false);
    expect(r.code, plain(r.stderr)).toBe(0);
    const main = stub.requests.find((q) => Array.isArray(q.body.tools) && (q.body.tools as unknown[]).length > 0);
    expect(main, 'no request with tools reached the stub').toBeDefined();
    const body = JSON.stringify(main?.body);
    const prompt = texts(main?.body);
    expect(body.includes('# Deep research'), '# Deep research').toBe(true);
    expect(/Request: [^\n]*Is the four-day week net-positive\?[^\n]*quick/.test(prompt), 'the question reaches the prompt').toBe(true);
    const tools = (main?.body.tools as { function: { name: string; description: string } }[]).map((t) => t.function);
    const names = tools.map((t) => t.name);
    for (const t of ['start_run', 'start_thread', 'fetch_source', 'record_round', 'verify_report']) expect(names).toContain(`deep-research_${t}`);
    expect(names).toContain('task');
    expect(names).toContain('skill');
    expect(tools.find((t) => t.name === 'task')?.description).toContain('deep-research-investigator');
    expect(body.includes('deep-research-method'), 'deep-research-method').toBe(true);
  });

  it('uninstall leaves opencode.jsonc and the rest of the project byte-identical', async () => {
    await deepResearch(['uninstall', '--target', 'opencode', '--project', project], env(), project);
    expect(readFileSync(path.join(project, 'opencode.jsonc'), 'utf8')).toBe(PROJECT_CONFIG);
    // OpenCode itself may leave state in .opencode/ (a package.json for plugins); ours is gone.
    const after = snapshot(project);
    expect(Object.keys(after).filter((k) => k.includes('deep-research'))).toEqual([]);
    for (const [k, v] of Object.entries(before)) expect(after[k], k).toBe(v);
  });
});
