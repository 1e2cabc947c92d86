// Installed command, agent and skill files are portable: none names a path of this machine (the clone, the
// project, the home folder). Only the MCP config entry names the server's path, and the install manifest
// records where the pack came from; both stay on this machine by nature.
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
      });
    }
  }
});
