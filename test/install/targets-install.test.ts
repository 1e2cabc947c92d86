// install/uninstall --target gemini|codex|opencode in a temp HOME and project: the CLI's files and one server
// entry go in, and uninstall leaves every other byte of the user's config as it was.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseJsonc } from 'jsonc-parser';
import matter from 'gray-matter';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { runInstall } from '../../src/cli/install.js';
import { MARKER } from '../../src/cli/targets/owned-files.js';
import { cleanTempDirsAfterEach, snapshot, tmp } from '../helpers/tree.js';

const PACK = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER = path.join(PACK, 'dist', 'server.js');

cleanTempDirsAfterEach();


async function run(argv: string[], home: string, vars: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runInstall(argv, { home, vars, packRoot: PACK, out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const GEMINI_SETTINGS = `{
  // my settings
  "theme": "GitHub",
  "mcpServers": {
    "other": { "command": "npx", "args": ["-y", "other"] }, // keep me
  },
  "general": { "vimMode": true }
}
`;
const OPENCODE_JSONC = `{
  "$schema": "https://opencode.ai/config.json",
  /* my servers */
  "mcp": {
    "mine": {
      "type": "remote",
      "url": "https://example.invalid/mcp"
    }
  },
  "theme": "tokyonight"
}
`;
const CODEX_TOML = `# my codex config
model = "gpt-6.1-sol"
approval_policy = "on-request"

[mcp_servers.other]
command = "npx"
args = ["-y", "other"]

[projects."/somewhere"]
trust_level = "trusted"`; // no newline at the end, on purpose

describe('install --target gemini', () => {
  it('writes commands, agent, skill and the settings entry; uninstall restores the exact bytes', async () => {
    const home = tmp('dr-home-');
    const dir = tmp('dr-proj-');
    mkdirSync(path.join(dir, '.gemini', 'commands'), { recursive: true });
    writeFileSync(path.join(dir, '.gemini', 'settings.json'), GEMINI_SETTINGS);
    writeFileSync(path.join(dir, '.gemini', 'commands', 'mine.toml'), 'prompt = "mine"\n');
    const before = snapshot(dir);

    const r = await run(['install', '--target', 'gemini', '--project', dir], home);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('/deep-research "<question>"');
    const settings = readFileSync(path.join(dir, '.gemini', 'settings.json'), 'utf8');
    expect(settings).toContain('"other": { "command": "npx", "args": ["-y", "other"] }, // keep me');
    const parsed = parseJsonc(settings, [], { allowTrailingComma: true });
    expect(parsed.mcpServers['deep-research']).toEqual({ command: 'node', args: [SERVER], trust: true });
    expect(parsed.general).toEqual({ vimMode: true });

    const cmd = readFileSync(path.join(dir, '.gemini', 'commands', 'deep-research.toml'), 'utf8');
    expect(cmd.startsWith(`# ${MARKER}\n`)).toBe(true);
    const toml = parseToml(cmd) as { prompt: string };
    expect(toml.prompt).toContain('{{args}}');
    expect(toml.prompt).toContain('.gemini/skills/deep-research-method/investigate.md');
    expect(toml.prompt).not.toContain(dir);
    expect(r.out).toMatch(/"trust": true, so Gemini CLI calls this server's tools \(fetch_source included\) without asking/);
    expect(toml.prompt).not.toContain('${DEEP_RESEARCH_SKILLS}');
    expect(existsSync(path.join(dir, '.gemini', 'agents', 'deep-research-investigator.md'))).toBe(true);
    expect(matter(readFileSync(path.join(dir, '.gemini', 'skills', 'deep-research-method', 'SKILL.md'), 'utf8'), {}).data.name).toBe('deep-research-method');

    const once = snapshot(dir);
    const again = await run(['install', '--target', 'gemini', '--project', dir], home);
    expect(again.out).toContain('already installed');
    expect(snapshot(dir)).toEqual(once);

    const un = await run(['uninstall', '--target', 'gemini', '--project', dir], home);
    expect(un.code, un.err).toBe(0);
    expect(snapshot(dir)).toEqual(before);
    expect(readdirSync(home)).toEqual([]);
  });

  it('--user writes ~/.gemini and removes everything it created', async () => {
    const home = tmp('dr-home-');
    expect((await run(['install', '--target', 'gemini', '--user'], home)).code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(home, '.gemini', 'settings.json'), 'utf8')).mcpServers['deep-research'].args).toEqual([SERVER]);
    expect((await run(['uninstall', '--target', 'gemini', '--user'], home)).code).toBe(0);
    expect(readdirSync(home)).toEqual([]);
  });

  it('refuses a deep-research server it did not write, and a command file of the same name, changing nothing', async () => {
    const home = tmp('dr-home-');
    const dir = tmp('dr-proj-');
    mkdirSync(path.join(dir, '.gemini', 'commands'), { recursive: true });
    writeFileSync(path.join(dir, '.gemini', 'settings.json'), '{"mcpServers": {"deep-research": {"command": "python"}}}');
    writeFileSync(path.join(dir, '.gemini', 'commands', 'deep-research.toml'), 'prompt = "mine"\n');
    const before = snapshot(dir);
    const r = await run(['install', '--target', 'gemini', '--project', dir], home);
    expect(r.code).toBe(1);
    expect(r.err).toContain('gemini mcp remove --scope project deep-research');
    expect(r.err).toContain('deep-research.toml already exists');
    expect(r.err).toContain('nothing was changed');
    expect(snapshot(dir)).toEqual(before);
  });
});

describe('install --target opencode', () => {
  it('edits opencode.jsonc in place, comments kept, and uninstall restores the exact bytes', async () => {
    const home = tmp('dr-home-');
    const dir = tmp('dr-proj-');
    writeFileSync(path.join(dir, 'opencode.jsonc'), OPENCODE_JSONC);
    mkdirSync(path.join(dir, '.opencode', 'commands'), { recursive: true });
    writeFileSync(path.join(dir, '.opencode', 'commands', 'mine.md'), '---\ndescription: mine\n---\nmine\n');
    const before = snapshot(dir);

    const r = await run(['install', '--target', 'opencode', '--project', dir], home);
    expect(r.code, r.err).toBe(0);
    expect(existsSync(path.join(dir, 'opencode.json'))).toBe(false);
    const text = readFileSync(path.join(dir, 'opencode.jsonc'), 'utf8');
    expect(text).toContain('/* my servers */');
    const cfg = parseJsonc(text);
    expect(Object.keys(cfg.mcp)).toEqual(['mine', 'deep-research']);
    expect(cfg.mcp['deep-research']).toEqual({ type: 'local', command: ['node', SERVER] });
    const cmd = matter(readFileSync(path.join(dir, '.opencode', 'commands', 'deep-research.md'), 'utf8'), {});
    expect(cmd.data.description).toBeTypeOf('string');
    expect(cmd.content).toContain('$ARGUMENTS');
    expect(cmd.content).toContain(MARKER);
    expect(matter(readFileSync(path.join(dir, '.opencode', 'agents', 'deep-research-investigator.md'), 'utf8'), {}).data.mode).toBe('subagent');

    const un = await run(['uninstall', '--target', 'opencode', '--project', dir], home);
    expect(un.code, un.err).toBe(0);
    expect(snapshot(dir)).toEqual(before);
  });

  it('--user goes to $XDG_CONFIG_HOME/opencode (default ~/.config/opencode) and creates opencode.json only when none exists', async () => {
    const home = tmp('dr-home-');
    expect((await run(['install', '--target', 'opencode', '--user'], home)).code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(home, '.config', 'opencode', 'opencode.json'), 'utf8')).mcp['deep-research'].type).toBe('local');
    expect((await run(['uninstall', '--target', 'opencode', '--user'], home)).code).toBe(0);
    expect(readdirSync(home)).toEqual([]);

    const xdg = tmp('dr-xdg-');
    mkdirSync(path.join(xdg, 'opencode'));
    writeFileSync(path.join(xdg, 'opencode', 'opencode.jsonc'), '{\n  // global\n}\n');
    const before = snapshot(xdg);
    expect((await run(['install', '--target', 'opencode', '--user'], home, { XDG_CONFIG_HOME: xdg })).code).toBe(0);
    expect(parseJsonc(readFileSync(path.join(xdg, 'opencode', 'opencode.jsonc'), 'utf8')).mcp['deep-research']).toBeDefined();
    expect(existsSync(path.join(xdg, 'opencode', 'skills', 'deep-research-method', 'SKILL.md'))).toBe(true);
    expect((await run(['uninstall', '--target', 'opencode', '--user'], home, { XDG_CONFIG_HOME: xdg })).code).toBe(0);
    expect(snapshot(xdg)).toEqual(before);
    expect(readdirSync(home)).toEqual([]);
  });
});

describe('install --target codex', () => {
  it('appends a marked block to config.toml that parses, and uninstall restores the exact bytes', async () => {
    const home = tmp('dr-home-');
    const codexHome = tmp('dr-codex-');
    writeFileSync(path.join(codexHome, 'config.toml'), CODEX_TOML);
    mkdirSync(path.join(codexHome, 'skills', 'mine'), { recursive: true });
    writeFileSync(path.join(codexHome, 'skills', 'mine', 'SKILL.md'), '---\nname: mine\ndescription: mine\n---\n');
    const before = snapshot(codexHome);

    const r = await run(['install', '--target', 'codex', '--user'], home, { CODEX_HOME: codexHome });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('$deep-research');
    const text = readFileSync(path.join(codexHome, 'config.toml'), 'utf8');
    expect(text.startsWith(CODEX_TOML)).toBe(true);
    const cfg = parseToml(text) as { model: string; mcp_servers: Record<string, unknown>; projects: Record<string, unknown> };
    expect(cfg.model).toBe('gpt-6.1-sol');
    expect(cfg.mcp_servers['deep-research']).toEqual({
      command: 'node',
      args: [SERVER],
      env_vars: ['DEEP_RESEARCH_ARTIFACTS', 'DEEP_RESEARCH_LOG', 'DEEP_RESEARCH_TRACE_FILE'],
    });
    expect(cfg.mcp_servers.other).toEqual({ command: 'npx', args: ['-y', 'other'] });
    const skill = readFileSync(path.join(codexHome, 'skills', 'deep-research', 'SKILL.md'), 'utf8');
    expect(matter(skill, {}).data.name).toBe('deep-research');
    expect(skill).toContain(`${codexHome}/skills/deep-research-investigate/SKILL.md`);
    expect(readdirSync(home)).toEqual([]);

    const once = snapshot(codexHome);
    expect((await run(['install', '--target', 'codex', '--user'], home, { CODEX_HOME: codexHome })).out).toContain('already installed');
    expect(snapshot(codexHome)).toEqual(once);

    const un = await run(['uninstall', '--target', 'codex', '--user'], home, { CODEX_HOME: codexHome });
    expect(un.code, un.err).toBe(0);
    expect(snapshot(codexHome)).toEqual(before);
  });

  it('keeps tables the user added after install, and removes only its block', async () => {
    const home = tmp('dr-home-');
    expect((await run(['install', '--target', 'codex', '--user'], home)).code).toBe(0);
    const file = path.join(home, '.codex', 'config.toml');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n[mcp_servers.later]\ncommand = "x"\n`);
    expect((await run(['uninstall', '--target', 'codex', '--user'], home)).code).toBe(0);
    const left = readFileSync(file, 'utf8');
    expect(parseToml(left)).toEqual({ mcp_servers: { later: { command: 'x' } } });
    expect(left).not.toContain('deep-research');
  });

  it('--project writes <dir>/.codex, and refuses a [mcp_servers.deep-research] it did not write', async () => {
    const home = tmp('dr-home-');
    const dir = tmp('dr-proj-');
    const r = await run(['install', '--target', 'codex', '--project', dir], home);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('trusted');
    expect(existsSync(path.join(dir, '.codex', 'config.toml'))).toBe(true);
    expect(existsSync(path.join(dir, '.codex', 'skills', 'deep-research', 'SKILL.md'))).toBe(true);
    expect((await run(['uninstall', '--target', 'codex', '--project', dir], home)).code).toBe(0);
    expect(readdirSync(dir)).toEqual([]);

    mkdirSync(path.join(dir, '.codex'));
    writeFileSync(path.join(dir, '.codex', 'config.toml'), '[mcp_servers.deep-research]\ncommand = "python"\n');
    const before = snapshot(dir);
    const bad = await run(['install', '--target', 'codex', '--project', dir], home);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('codex mcp remove deep-research');
    expect(snapshot(dir)).toEqual(before);
  });

  it('refuses a config.toml that is not valid TOML, or where an appended table would not parse', async () => {
    const home = tmp('dr-home-');
    for (const text of ['model = \n', 'mcp_servers = { other = { command = "x" } }\n']) {
      mkdirSync(path.join(home, '.codex'), { recursive: true });
      writeFileSync(path.join(home, '.codex', 'config.toml'), text);
      const before = snapshot(home);
      const r = await run(['install', '--target', 'codex', '--user'], home);
      expect(r.code, text).toBe(1);
      expect(snapshot(home)).toEqual(before);
    }
  });
});
