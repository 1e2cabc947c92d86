// Gemini CLI 0.61.0, for real: after `deep-research install --target gemini`, `gemini mcp list` starts our
// server and reports it Connected, and a headless run of /deep-research against a stub of the Gemini API
// shows the expanded command, our tools under their Gemini names, and the investigator sub-agent.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER, baseEnv, cleanup, deepResearch, plain, requireCli, run, texts, tmp } from './harness.js';
import { geminiStub } from './stubs.js';
import type { Stub } from './stubs.js';
import { snapshot } from './snapshot.js';

// The user's own settings: API-key auth, no telemetry, no update checks, in the form 0.61.0 writes back
// (it migrates older keys in place). The installer must keep them.
const USER_SETTINGS = `{
  "security": { "auth": { "selectedType": "gemini-api-key" } },
  "telemetry": { "enabled": false },
  "general": { "enableAutoUpdate": false, "enableAutoUpdateNotification": false },
  "privacy": { "usageStatisticsEnabled": false }
}
`;

let home: string;
let project: string;
let gemini: string;
let stub: Stub;
let trace: string;

beforeAll(async () => {
  home = tmp('dr-gemini-home-');
  project = tmp('dr-gemini-proj-');
  gemini = requireCli('gemini');
  mkdirSync(path.join(home, '.gemini'));
  writeFileSync(path.join(home, '.gemini', 'settings.json'), USER_SETTINGS);
  mkdirSync(path.join(project, '.gemini'));
  writeFileSync(path.join(project, '.gemini', 'settings.json'), '{\n  // the project\'s own\n  "context": { "fileName": "AGENTS.md" }\n}\n');
  writeFileSync(path.join(project, 'AGENTS.md'), '# project notes\n');
  trace = path.join(home, 'trace.jsonl');
  stub = await geminiStub();
});
afterAll(async () => {
  await stub?.close();
  cleanup();
});

function env(): Record<string, string> {
  return baseEnv(home, {
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    GEMINI_API_KEY: 'stub-key',
    GOOGLE_GEMINI_BASE_URL: stub.url,
    DEEP_RESEARCH_TRACE_FILE: trace,
    DEEP_RESEARCH_ARTIFACTS: path.join(home, 'artifacts'),
  });
}

describe('Gemini CLI 0.61.0', () => {
  let before: Record<string, string>;

  it('install --target gemini --project, then `gemini mcp list` shows the server Connected', async () => {
    before = snapshot(project);
    await deepResearch(['install', '--target', 'gemini', '--project', project], env(), project);
    const r = await run(gemini, ['mcp', 'list'], { cwd: project, env: env(), timeoutMs: 90_000 });
    const out = plain(`${r.stdout}\n${r.stderr}`);
    console.log(`gemini mcp list (${r.ms} ms):\n${out.trim()}`);
    expect(r.timedOut).toBe(false);
    // It exits 0 even when the server fails, so the line itself is the check.
    expect(out).toMatch(new RegExp(`✓ deep-research: node ${SERVER.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(stdio\\) - Connected`));
    const lines = readFileSync(trace, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { event: string });
    expect(lines.some((l) => l.event === 'initialized')).toBe(true);
  });

  it('/deep-research reaches the model as our prompt, with mcp_deep-research_* tools and the investigator agent', async () => {
    const r = await run(
      gemini,
      ['-m', 'gemini-2.5-pro', '--approval-mode', 'yolo', '--output-format', 'json', '-p', '/deep-research "Is the four-day week net-positive?" quick'],
      { cwd: project, env: env(), timeoutMs: 120_000 },
    );
    console.log(`gemini -p /deep-research: exit ${r.code} in ${r.ms} ms, ${stub.requests.length} model request(s)`);
    expect(r.timedOut).toBe(false);
    expect(r.code, r.stderr).toBe(0);
    const main = stub.requests.find((q) => q.url.includes(':streamGenerateContent'));
    expect(main, 'no streamGenerateContent request reached the stub').toBeDefined();
    const body = JSON.stringify(main?.body);
    const prompt = texts(main?.body);
    expect(body.includes('# Deep research'), '# Deep research').toBe(true);
    expect(/Request: [^\n]*Is the four-day week net-positive\?[^\n]*quick/.test(prompt), 'the question reaches the prompt').toBe(true);
    expect(body.includes('.gemini/skills/deep-research-method/investigate.md'), '.gemini/skills/deep-research-method/investigate.md').toBe(true);
    const tools = ((main?.body.tools ?? []) as { functionDeclarations?: { name: string; description?: string }[] }[]).flatMap((t) => t.functionDeclarations ?? []);
    const names = tools.map((t) => t.name);
    for (const t of ['start_run', 'start_thread', 'fetch_source', 'record_round', 'verify_report']) expect(names).toContain(`mcp_deep-research_${t}`);
    expect(names).toContain('invoke_agent');
    expect(names).toContain('google_web_search');
    expect(names).toContain('activate_skill');
    expect(body.includes('deep-research-investigator'), 'deep-research-investigator').toBe(true);
    expect(JSON.stringify(tools.find((t) => t.name === 'activate_skill'))).toContain('deep-research-method');
  });

  it('uninstall leaves the project and the user settings byte-identical', async () => {
    const userSettings = readFileSync(path.join(home, '.gemini', 'settings.json'), 'utf8');
    expect(userSettings).toBe(USER_SETTINGS);
    await deepResearch(['uninstall', '--target', 'gemini', '--project', project], env(), project);
    expect(snapshot(project)).toEqual(before);
    expect(existsSync(path.join(project, '.gemini', 'commands'))).toBe(false);
  });
});
