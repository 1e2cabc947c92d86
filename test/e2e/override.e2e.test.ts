// The "done when" of the pack, checked with the real Claude Code binary: after `install --project`, a plain
// `/deep-research "q"` runs our command (not the built-in workflow) and its allowed-tools let it call the
// server; from the plugin, `/deep-research:deep-research` does the same with the plugin's tool names.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import matter from 'gray-matter';
import { runInstall } from '../../src/cli/install.js';
import { conversationText, startFakeApi } from './fake-anthropic.js';
import type { FakeApi, Reply } from './fake-anthropic.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLAUDE = path.join(REPO, '.ci', 'tools', 'node_modules', '.bin', 'claude');
const SERVER = path.join(REPO, 'dist', 'server.js');
const CLI = path.join(REPO, 'dist', 'cli.js');

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

function tmp(prefix: string): string {
  const d = mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanup.push(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

async function fakeApi(script: Reply[] = []): Promise<FakeApi> {
  const api = await startFakeApi(script);
  cleanup.push(() => api.close());
  return api;
}

/** Runs `claude -p` as a user would, against the fake API, with a throwaway HOME. */
function claude(args: string[], o: { cwd: string; home: string; api: FakeApi }): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: o.home,
    ANTHROPIC_BASE_URL: o.api.url,
    ANTHROPIC_API_KEY: 'dummy',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DEEP_RESEARCH_ARTIFACTS: path.join(o.home, 'artifacts'),
    DEEP_RESEARCH_LOG: 'off',
  };
  return new Promise((resolve) => {
    execFile(CLAUDE, ['-p', ...args, '--output-format', 'stream-json', '--verbose'], { cwd: o.cwd, env, timeout: 150_000, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof (err as { code?: unknown }).code === 'number' ? Number((err as { code: number }).code) : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

/** A project as a user has it: a fresh git repository with deep-research installed into it. */
async function installedProject(home: string): Promise<string> {
  const dir = tmp('dr-e2e-proj-');
  execFileSync('git', ['init', '-q', dir]);
  if (existsSync(CLI)) {
    // The way a user runs it from a clean clone.
    execFileSync(process.execPath, [CLI, 'install', '--project', dir], { env: { ...process.env, HOME: home } });
  } else {
    expect(await runInstall(['install', '--project', dir], { home, packRoot: REPO, out: () => {} })).toBe(0);
  }
  return dir;
}

/** A line of the orchestrator's own prose, which the built-in workflow cannot contain. */
function orchestratorLine(): string {
  const body = matter(readFileSync(path.join(REPO, 'commands', 'deep-research.md'), 'utf8'), {}).content;
  const line = body.split('\n').find((l) => l.length > 60 && !l.startsWith('#') && !l.includes('$'));
  if (line === undefined) throw new Error('no prose line found in commands/deep-research.md');
  return line;
}

function initEvent(stdout: string): { mcp_servers?: Array<{ name: string; status: string }>; slash_commands?: string[] } {
  for (const l of stdout.split('\n')) {
    if (!l.startsWith('{')) continue;
    const e = JSON.parse(l) as { type?: string; subtype?: string };
    if (e.type === 'system' && e.subtype === 'init') return e as never;
  }
  throw new Error(`no init event in the stream:\n${stdout.slice(0, 2000)}`);
}

/** Loads one server tool through ToolSearch, then calls it with a dry run of start_run. */
function dryRunScript(prefix: string): Reply[] {
  const tool = `${prefix}start_run`;
  return [
    { tools: [{ name: 'ToolSearch', input: { query: `select:${tool}` } }] },
    {
      tools: [
        {
          name: tool,
          input: {
            question: 'Is the four-day work week net-positive for output?',
            depth: 'quick',
            dry_run: true,
            brief: { threads: [{ name: 'trials', sub_questions: [{ id: 'SQ-1', question: 'What did trials find?' }], subjects: ['Iceland trial'] }] },
          },
        },
      ],
    },
    { text: 'done' },
  ];
}

beforeAll(() => {
  if (!existsSync(CLAUDE)) {
    throw new Error(`${CLAUDE} is missing: run \`bash .ci/install-claude.sh\`, which installs the pinned Claude Code into .ci/tools`);
  }
  if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing: run \`npm run build\``);
});

describe('after install --project, /deep-research is ours', () => {
  it('a plain /deep-research sends our command text to the model, not the built-in workflow', async () => {
    const home = tmp('dr-e2e-home-');
    const dir = await installedProject(home);
    const api = await fakeApi();
    const r = await claude(['/deep-research "Is the four-day work week net-positive for output?"'], { cwd: dir, home, api });
    expect(r.code, r.stderr).toBe(0);
    const text = conversationText(api.requests);
    expect(text).toContain('<command-name>/deep-research</command-name>');
    expect(text).toContain(orchestratorLine());
    expect(text).toContain('Request: "Is the four-day work week net-positive for output?"');
    const init = initEvent(r.stdout);
    expect(init.mcp_servers).toContainEqual(expect.objectContaining({ name: 'deep-research', status: 'connected' }));
  });

  it('its allowed-tools let it call the server under the direct names', async () => {
    const home = tmp('dr-e2e-home-');
    const dir = await installedProject(home);
    const api = await fakeApi(dryRunScript('mcp__deep-research__'));
    const r = await claude(['/deep-research "Is the four-day work week net-positive for output?"'], { cwd: dir, home, api });
    expect(r.code, r.stderr).toBe(0);
    const text = conversationText(api.requests);
    expect(text).not.toMatch(/haven't granted/);
    expect(text).toMatch(/max_fetches/);
  });
});

describe('from the plugin, /deep-research:deep-research', () => {
  it('runs our command, and its allowed-tools let it call the server under the plugin names', async () => {
    const home = tmp('dr-e2e-home-');
    const dir = tmp('dr-e2e-plain-');
    execFileSync('git', ['init', '-q', dir]);
    const api = await fakeApi(dryRunScript('mcp__plugin_deep-research_deep-research__'));
    const r = await claude(['--plugin-dir', REPO, '/deep-research:deep-research "Is the four-day work week net-positive for output?"'], { cwd: dir, home, api });
    expect(r.code, r.stderr).toBe(0);
    const text = conversationText(api.requests);
    expect(text).toContain(orchestratorLine());
    expect(text).not.toMatch(/haven't granted/);
    expect(text).toMatch(/max_fetches/);
  });
});
