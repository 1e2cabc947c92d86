// Installed command, agent and skill files are portable: none names a path of this machine (the clone, the
// project, the home folder). Only the MCP config entry names the server's path; under .claude/ nothing does,
// the install manifest included (it records that entry with a placeholder for the path).
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runInstall } from '../../src/cli/install.js';
import { cleanTempDirsAfterEach, snapshot, tmp } from '../helpers/tree.js';

const PACK = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
cleanTempDirsAfterEach();

/** Files that may name the server's path: each CLI's MCP config, and the installer's own record. */
const CONFIG = /(^|\/)(\.mcp\.json|\.claude\.json|settings\.json|config\.toml|opencode\.jsonc?|\.deep-research-install\.json)$/;

async function installed(target: string, scope: 'project' | 'user'): Promise<{ files: Record<string, string>; machine: string[] }> {
  const home = tmp('dr-home-');
  const dir = tmp('dr-proj-');
  const argv = ['install', '--target', target, ...(scope === 'project' ? ['--project', dir] : ['--user'])];
  const err: string[] = [];
  const code = await runInstall(argv, { home, vars: {}, packRoot: PACK, out: () => {}, err: (l) => err.push(l) });
  expect(code, err.join('\n')).toBe(0);
  const root = scope === 'project' ? dir : home;
  return { files: snapshot(root), machine: [PACK, home, dir, os.tmpdir(), os.homedir()] };
}

describe('installed files hold no path of this machine', () => {
  for (const target of ['claude', 'gemini', 'codex', 'opencode']) {
    for (const scope of ['project', 'user'] as const) {
      it(`${target}, ${scope}`, async () => {
        const { files, machine } = await installed(target, scope);
        const pack = Object.keys(files).filter((f) => !f.endsWith('/') && !CONFIG.test(f));
        expect(pack.length).toBeGreaterThan(3);
        for (const f of pack) for (const p of machine) expect(files[f]?.includes(p), `${f} names ${p}`).toBe(false);
        // The config does name the server: that entry is what the README warns about.
        const configs = Object.keys(files).filter((f) => CONFIG.test(f) && !f.endsWith('.deep-research-install.json'));
        expect(configs.some((f) => files[f]?.includes(path.join(PACK, 'dist', 'server.js'))), configs.join(', ')).toBe(true);
        const manifest = Object.keys(files).find((f) => f.endsWith('.deep-research-install.json'));
        expect(JSON.parse(files[manifest!]!)).not.toHaveProperty('pack_root');
      });
    }
  }

  for (const scope of ['project', 'user'] as const) {
    it(`claude, ${scope}: every file under .claude/, the install manifest included, holds no machine path`, async () => {
      const { files, machine } = await installed('claude', scope);
      const underClaude = Object.keys(files).filter((f) => f.startsWith('.claude/') && !f.endsWith('/'));
      expect(underClaude).toContain('.claude/.deep-research-install.json');
      for (const f of underClaude) for (const p of machine) expect(files[f]?.includes(p), `${f} names ${p}`).toBe(false);
    });
  }

  it('claude: uninstall from the clone after it moved still takes out exactly the entry install added', async () => {
    const home = tmp('dr-home-');
    const dir = tmp('dr-proj-');
    const before = snapshot(dir);
    const quiet = { home, vars: {}, out: () => {}, err: () => {} };
    expect(await runInstall(['install', '--project', dir], { ...quiet, packRoot: PACK })).toBe(0);
    const moved = path.join(tmp('dr-moved-'), 'deep-research');
    const err: string[] = [];
    expect(await runInstall(['uninstall', '--project', dir], { ...quiet, packRoot: moved, err: (l) => err.push(l) }), err.join('\n')).toBe(0);
    expect(snapshot(dir)).toEqual(before);
  });
});
