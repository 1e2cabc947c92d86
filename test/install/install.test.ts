// The installer owns entries, not files: whatever the user had before install is there after it, and
// after uninstall every file is back to its exact bytes (or gone, when install created it).
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import matter from 'gray-matter';
import { describe, expect, it } from 'vitest';
import { findPackRoot, runInstall } from '../../src/cli/install.js';
import { MARKER } from '../../src/cli/targets/owned-files.js';
import { cleanTempDirsAfterEach, snapshot, tmp } from '../helpers/tree.js';

const PACK = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const SERVER = path.join(PACK, 'dist', 'server.js');

cleanTempDirsAfterEach();


interface Run {
  code: number;
  out: string[];
  err: string[];
}
async function run(argv: string[], env: { home: string; cwd?: string; claudeConfigDir?: string }): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runInstall(argv, {
    ...env,
    packRoot: PACK,
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, out, err };
}

const USER_MCP = `{
  // project servers, hand-written
  "mcpServers": {
    "other": { "command": "npx", "args": ["-y", "other-server"] }, // keep this comment
    "second": {
      "command": "node",
      "args": ["x.js"],
    }
  },
  "note": "untouched"
}
`;

function project(): { home: string; dir: string } {
  const home = tmp('dr-home-');
  const dir = tmp('dr-proj-');
  return { home, dir };
}

describe('install --project', () => {
  it('adds the commands and the server, keeps everything else, and uninstall restores the exact bytes', async () => {
    const { home, dir } = project();
    mkdirSync(path.join(dir, '.claude', 'commands'), { recursive: true });
    writeFileSync(path.join(dir, '.claude', 'commands', 'other.md'), '---\ndescription: mine\n---\nmine\n');
    writeFileSync(path.join(dir, '.mcp.json'), USER_MCP);
    const before = snapshot(dir);

    const first = await run(['install', '--project', '.'], { home, cwd: dir });
    expect(first.code, first.err.join('\n')).toBe(0);
    const cmd = readFileSync(path.join(dir, '.claude', 'commands', 'deep-research.md'), 'utf8');
    expect(cmd).toContain(MARKER);
    expect(cmd).not.toContain('${CLAUDE_PLUGIN_ROOT}');
    // Named relative to the project, where Claude Code runs: the installed copy, not this clone.
    expect(cmd).toContain('`.claude/commands/deep-research-investigate.md`');
    expect(cmd).toContain('.claude/skills/deep-research-method/references/');
    expect(cmd).not.toContain(PACK);
    expect(first.out).toContain('wrote .claude/commands/deep-research.md');
    expect(matter(cmd, {}).data.description).toBeTypeOf('string');
    for (const f of ['deep-research-investigate.md', 'deep-research-status.md', 'deep-research-verify.md']) {
      expect(existsSync(path.join(dir, '.claude', 'commands', f))).toBe(true);
    }
    expect(existsSync(path.join(dir, '.claude', 'agents', 'deep-research-investigator.md'))).toBe(true);
    expect(existsSync(path.join(dir, '.claude', 'skills', 'deep-research-method', 'references', 'reading-sources.md'))).toBe(true);
    expect(readFileSync(path.join(dir, '.claude', 'commands', 'other.md'), 'utf8')).toBe(before['.claude/commands/other.md']);

    const mcp = readFileSync(path.join(dir, '.mcp.json'), 'utf8');
    expect(mcp).toContain('// project servers, hand-written');
    expect(mcp).toContain('"other": { "command": "npx", "args": ["-y", "other-server"] }, // keep this comment');
    const { parse } = await import('jsonc-parser');
    const servers = parse(mcp, [], { allowTrailingComma: true }).mcpServers;
    expect(servers['deep-research']).toEqual({ type: 'stdio', command: 'node', args: [SERVER] });
    expect(Object.keys(servers)).toEqual(['other', 'second', 'deep-research']);

    const afterFirst = snapshot(dir);
    const second = await run(['install', '--project', dir], { home, cwd: '/' });
    expect(second.code).toBe(0);
    expect(second.out.join('\n')).toContain('already installed');
    expect(snapshot(dir)).toEqual(afterFirst);

    const un = await run(['uninstall', '--project', dir], { home });
    expect(un.code, un.err.join('\n')).toBe(0);
    expect(snapshot(dir)).toEqual(before);
    expect(readdirSync(home)).toEqual([]);
  });

  it('creates .mcp.json and .claude/ when absent and removes them again', async () => {
    const { home, dir } = project();
    writeFileSync(path.join(dir, 'README.md'), 'x\n');
    const before = snapshot(dir);
    expect((await run(['install', '--project', dir], { home })).code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(dir, '.mcp.json'), 'utf8'))).toEqual({
      mcpServers: { 'deep-research': { type: 'stdio', command: 'node', args: [SERVER] } },
    });
    expect((await run(['uninstall', '--project', dir], { home })).code).toBe(0);
    expect(snapshot(dir)).toEqual(before);
  });

  it('keeps what the user added after install, and removes only its own entry', async () => {
    const { home, dir } = project();
    expect((await run(['install', '--project', dir], { home })).code).toBe(0);
    const file = path.join(dir, '.mcp.json');
    const text = readFileSync(file, 'utf8').replace('"mcpServers": {', '"mcpServers": {\n    "mine": { "command": "m" },');
    writeFileSync(file, text);
    writeFileSync(path.join(dir, '.claude', 'commands', 'mine.md'), 'mine\n');
    expect((await run(['uninstall', '--project', dir], { home })).code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ mcpServers: { mine: { command: 'm' } } });
    expect(readdirSync(path.join(dir, '.claude', 'commands'))).toEqual(['mine.md']);
    expect(existsSync(path.join(dir, '.claude', 'agents'))).toBe(false);
  });

  it('refuses to overwrite a deep-research.md it did not write, and changes nothing', async () => {
    const { home, dir } = project();
    mkdirSync(path.join(dir, '.claude', 'commands'), { recursive: true });
    writeFileSync(path.join(dir, '.claude', 'commands', 'deep-research.md'), 'my own workflow\n');
    const before = snapshot(dir);
    const r = await run(['install', '--project', dir], { home });
    expect(r.code).toBe(1);
    expect(r.err.join('\n')).toMatch(/\.claude\/commands\/deep-research\.md already exists and was not written by deep-research install/);
    expect(r.err.join('\n')).toContain('nothing was changed');
    expect(snapshot(dir)).toEqual(before);
  });

  it('refuses a deep-research server entry it did not write', async () => {
    const { home, dir } = project();
    const text = '{ "mcpServers": { "deep-research": { "command": "python", "args": ["other.py"] } } }\n';
    writeFileSync(path.join(dir, '.mcp.json'), text);
    const before = snapshot(dir);
    const r = await run(['install', '--project', dir], { home });
    expect(r.code).toBe(1);
    expect(r.err.join('\n')).toContain('claude mcp remove deep-research --scope project');
    expect(snapshot(dir)).toEqual(before);
  });

  it('refuses an .mcp.json that is not valid JSON', async () => {
    const { home, dir } = project();
    writeFileSync(path.join(dir, '.mcp.json'), '{ "mcpServers": ');
    const before = snapshot(dir);
    const r = await run(['install', '--project', dir], { home });
    expect(r.code).toBe(1);
    expect(r.err.join('\n')).toContain('.mcp.json is not valid JSON');
    expect(snapshot(dir)).toEqual(before);
  });

  it('leaves an installed file the user edited, and says so', async () => {
    const { home, dir } = project();
    await run(['install', '--project', dir], { home });
    const f = path.join(dir, '.claude', 'commands', 'deep-research-status.md');
    writeFileSync(f, `${readFileSync(f, 'utf8')}\nmy note\n`);
    const r = await run(['uninstall', '--project', dir], { home });
    expect(r.code).toBe(1);
    expect(r.err.join('\n')).toContain('deep-research-status.md: it was edited after install');
    expect(readFileSync(f, 'utf8')).toContain('my note');
    expect(existsSync(path.join(dir, '.claude', 'commands', 'deep-research.md'))).toBe(false);
  });
});

describe('install --user', () => {
  const CLAUDE_JSON = `{
  "firstStartTime": "2026-01-01T00:00:00.000Z",
  "numStartups": 4,
  "mcpServers": {
    "other": {
      "type": "stdio",
      "command": "node",
      "args": [
        "/x/server.js"
      ],
      "env": {}
    }
  },
  "projects": {}
}`;

  it('registers the server in ~/.claude.json and the commands in ~/.claude, then restores both', async () => {
    const home = tmp('dr-home-');
    writeFileSync(path.join(home, '.claude.json'), CLAUDE_JSON, { mode: 0o600 });
    mkdirSync(path.join(home, '.claude', 'commands'), { recursive: true });
    writeFileSync(path.join(home, '.claude', 'commands', 'other.md'), 'other\n');
    const before = snapshot(home);

    const r = await run(['install', '--user'], { home });
    expect(r.code, r.err.join('\n')).toBe(0);
    // The real paths under the home folder, whatever folder it was run from; the files say ~/.claude.
    expect(r.out).toContain(`wrote ${path.join(home, '.claude', 'commands', 'deep-research.md')}`);
    expect(r.out.some((l) => l.startsWith(`registered MCP server "deep-research" in ${path.join(home, '.claude.json')}:`)), r.out.join('\n')).toBe(true);
    const userCmd = readFileSync(path.join(home, '.claude', 'commands', 'deep-research.md'), 'utf8');
    expect(userCmd).toContain('`~/.claude/commands/deep-research-investigate.md`');
    expect(userCmd).not.toContain(home);
    const cfg = JSON.parse(readFileSync(path.join(home, '.claude.json'), 'utf8'));
    expect(cfg.mcpServers['deep-research']).toEqual({ type: 'stdio', command: 'node', args: [SERVER] });
    expect(cfg.numStartups).toBe(4);
    expect(statSync(path.join(home, '.claude.json')).mode & 0o777).toBe(0o600);
    expect(existsSync(path.join(home, '.claude', 'commands', 'deep-research.md'))).toBe(true);

    const twice = snapshot(home);
    expect((await run(['install', '--user'], { home })).code).toBe(0);
    expect(snapshot(home)).toEqual(twice);

    expect((await run(['uninstall', '--user'], { home })).code).toBe(0);
    expect(snapshot(home)).toEqual(before);
  });

  it('creates ~/.claude.json when it does not exist and removes it on uninstall', async () => {
    const home = tmp('dr-home-');
    expect((await run(['install', '--user'], { home })).code).toBe(0);
    expect(existsSync(path.join(home, '.claude.json'))).toBe(true);
    expect((await run(['uninstall', '--user'], { home })).code).toBe(0);
    expect(readdirSync(home)).toEqual([]);
  });

  it('follows CLAUDE_CONFIG_DIR like claude mcp add does', async () => {
    const home = tmp('dr-home-');
    const cfg = tmp('dr-cfg-');
    expect((await run(['install', '--user'], { home, claudeConfigDir: cfg })).code).toBe(0);
    expect(existsSync(path.join(cfg, '.claude.json'))).toBe(true);
    expect(existsSync(path.join(cfg, 'commands', 'deep-research.md'))).toBe(true);
    expect(readdirSync(home)).toEqual([]);
    expect((await run(['uninstall', '--user'], { home, claudeConfigDir: cfg })).code).toBe(0);
    expect(readdirSync(cfg)).toEqual([]);
  });
});

describe('command line', () => {
  it('rejects bad arguments with usage', async () => {
    const home = tmp('dr-home-');
    for (const argv of [[], ['install'], ['install', '--user', '--project', '.'], ['install', '--bogus'], ['remove', '--user']]) {
      const r = await run(argv, { home });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err.join('\n')).toContain('usage:');
    }
  });

  it('accepts every known target and refuses an unknown one', async () => {
    const { home, dir } = project();
    for (const t of ['claude', 'gemini', 'codex', 'opencode']) {
      expect((await run(['install', '--target', t, '--project', dir], { home })).code, t).toBe(0);
      expect((await run(['uninstall', `--target=${t}`, '--project', dir], { home })).code, t).toBe(0);
    }
    expect((await run(['install', '--target', 'emacs', '--user'], { home })).code).toBe(2);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('finds the clone root from its own location', () => {
    expect(findPackRoot()).toBe(PACK);
    expect(findPackRoot(path.join(PACK, 'dist'))).toBe(PACK);
  });
});
