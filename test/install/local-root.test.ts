// install --local-root writes DEEP_RESEARCH_LOCAL_ROOTS into the server entry of every CLI target, under the
// key that CLI reads, and uninstall takes out exactly what went in: every other byte of the config stays.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { runInstall } from '../../src/cli/install.js';
import { cleanTempDirsAfterEach, snapshot, tmp } from '../helpers/tree.js';

const PACK = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

cleanTempDirsAfterEach();

async function run(argv: string[], home: string, cwd: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runInstall(argv, { home, cwd, vars: {}, packRoot: PACK, out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

// Each target: the config file of a project install, a config the user had before, and where the entry's
// environment sits in it.
const TARGETS = [
  { target: 'claude', file: '.mcp.json', before: '{\n  "mcpServers": {\n    "other": { "command": "npx" } // mine\n  }\n}\n', env: (c: any) => c.mcpServers['deep-research'].env },
  { target: 'gemini', file: '.gemini/settings.json', before: '{\n  // my settings\n  "theme": "GitHub"\n}\n', env: (c: any) => c.mcpServers['deep-research'].env },
  { target: 'opencode', file: 'opencode.json', before: '{\n  "theme": "tokyonight",\n  "mcp": {}\n}\n', env: (c: any) => c.mcp['deep-research'].environment },
  { target: 'codex', file: '.codex/config.toml', before: '# mine\nmodel = "x"\n', env: (c: any) => c.mcp_servers['deep-research'].env },
] as const;

describe('install --local-root', () => {
  for (const t of TARGETS) {
    it(`${t.target}: writes the roots into the server entry and uninstall restores the exact bytes`, async () => {
      const home = tmp('dr-home-');
      const project = tmp('dr-proj-');
      const papers = path.join(project, 'My Papers');
      const manuals = tmp('dr-manuals-');
      mkdirSync(papers);
      const file = path.join(project, t.file);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, t.before);
      const before = snapshot(project);

      const r = await run(['install', '--project', project, '--target', t.target, '--local-root', 'My Papers', `--local-root=manuals=${manuals}`], home, project);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      const text = readFileSync(file, 'utf8');
      const config = t.target === 'codex' ? parseToml(text) : parseJsonc(text);
      // A relative folder is made absolute against the working directory; a bare folder is named after it.
      expect(t.env(config)).toEqual({ DEEP_RESEARCH_LOCAL_ROOTS: `${papers}${path.delimiter}manuals=${manuals}` });

      // Installing again without --local-root takes the roots out of the entry.
      expect((await run(['install', '--project', project, '--target', t.target], home, project)).code).toBe(0);
      const plain = readFileSync(file, 'utf8');
      expect(plain).not.toContain('DEEP_RESEARCH_LOCAL_ROOTS');
      expect((await run(['install', '--project', project, '--target', t.target, '--local-root', papers], home, project)).code).toBe(0);
      expect(readFileSync(file, 'utf8')).toContain('DEEP_RESEARCH_LOCAL_ROOTS');

      const u = await run(['uninstall', '--project', project, '--target', t.target], home, project);
      expect(u.code, u.err).toBe(0);
      expect(snapshot(project)).toEqual(before);
    });
  }

  it('refuses a folder that does not exist, two folders of one name, and --local-root on uninstall, changing nothing', async () => {
    const home = tmp('dr-home-');
    const project = tmp('dr-proj-');
    mkdirSync(path.join(project, 'a', 'docs'), { recursive: true });
    mkdirSync(path.join(project, 'b', 'docs'), { recursive: true });
    const before = snapshot(project);
    const missing = await run(['install', '--project', project, '--local-root', path.join(project, 'nope')], home, project);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/--local-root: the folder of root "nope" does not exist or is not a folder/);
    const twice = await run(['install', '--project', project, '--local-root', 'a/docs', '--local-root', 'b/docs'], home, project);
    expect(twice.code).toBe(2);
    expect(twice.err).toMatch(/two folders are named "docs"/);
    expect((await run(['uninstall', '--project', project, '--local-root', 'a/docs'], home, project)).err).toMatch(/--local-root is for install/);
    expect(snapshot(project)).toEqual(before);
  });
});
