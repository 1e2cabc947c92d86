// Where the installed plugin runs from, with the real pinned Claude Code, after the clone it came from moves.
// Added by git URL, the marketplace is cloned under ~/.claude/plugins and the plugin runs from Claude Code's
// own copy, so moving the clone changes nothing. Added as a folder, Claude Code reads the marketplace and
// runs the plugin from that folder in place, so moving it unloads the plugin: the README says so, and the
// second test keeps that sentence true for the pinned version.
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE, REPO, removeTempDirs, requireBinaries, tempDir } from './harness/claude.js';
import { serveGit, type GitHttp } from './harness/git-http.js';

let git: GitHttp | undefined;

beforeAll(() => requireBinaries());
afterAll(async () => {
  await git?.close();
  removeTempDirs();
});

/** A clone of this working tree as it is now (tracked files plus the built dist/), committed. */
function cloneOfWorkingTree(): string {
  const dir = path.join(tempDir('dr-e2e-clone-'), 'deep-research');
  fs.mkdirSync(dir);
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: REPO, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const f of [...files, ...listDist()]) {
    const from = path.join(REPO, f);
    if (!fs.existsSync(from) && !isLink(from)) continue; // deleted in the working tree, not yet committed
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    if (isLink(from)) fs.symlinkSync(fs.readlinkSync(from), path.join(dir, f));
    else fs.copyFileSync(from, path.join(dir, f));
  }
  const id = ['-c', 'user.name=e2e', '-c', 'user.email=e2e@example.invalid', '-c', 'commit.gpgsign=false'];
  execFileSync('git', ['init', '-q', '-b', 'main', dir]);
  execFileSync('git', ['-C', dir, 'add', '-A']);
  execFileSync('git', [...id, '-C', dir, 'commit', '-q', '-m', 'clone']);
  return dir;
}

function listDist(): string[] {
  return (fs.readdirSync(path.join(REPO, 'dist'), { recursive: true }) as string[])
    .map((f) => path.join('dist', f))
    .filter((f) => fs.statSync(path.join(REPO, f)).isFile());
}

function isLink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Claude Code's output, whatever its exit code. Asynchronous: the git server answering it runs in this process. */
function claude(home: string, ...args: string[]): Promise<string> {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1', DEEP_RESEARCH_LOG: 'off' };
  return new Promise((resolve) => {
    execFile('timeout', ['-k', '10', '120', CLAUDE, ...args], { cwd: home, env, encoding: 'utf8' }, (_err, stdout, stderr) => resolve(`${stdout}${stderr}`));
  });
}

function moveAway(dir: string): string {
  const moved = `${dir}-moved`;
  fs.renameSync(dir, moved);
  return moved;
}

describe('the installed plugin and the clone it came from', () => {
  it('added by git URL, the plugin runs from Claude Code’s copy and still connects after the clone moves', async () => {
    const clone = cloneOfWorkingTree();
    const served = tempDir('dr-e2e-git-');
    execFileSync('git', ['clone', '-q', '--bare', clone, path.join(served, 'deep-research.git')]);
    git = await serveGit(served);
    const home = tempDir('dr-e2e-home-');

    expect(await claude(home, 'plugin', 'marketplace', 'add', git.url('deep-research.git'))).toMatch(/Successfully added marketplace: deep-research/);
    expect(await claude(home, 'plugin', 'install', 'deep-research@deep-research')).toMatch(/Successfully installed plugin/);
    moveAway(clone);
    moveAway(path.join(served, 'deep-research.git'));
    await git.close();
    git = undefined;

    const list = await claude(home, 'mcp', 'list');
    const line = list.split('\n').find((l) => l.startsWith('plugin:deep-research:deep-research:'));
    expect(line, list).toMatch(/✔ Connected/);
    // The server is Claude Code's copy, not a path back into the clone.
    expect(line).toContain(`node ${path.join(home, '.claude', 'plugins', 'cache', 'deep-research', 'deep-research')}`);
    const copy = line!.replace(/^.*?node (\S+\/dist\/server\.js).*$/, '$1');
    expect(fs.lstatSync(copy).isFile()).toBe(true);
  });

  it('added as a folder, Claude Code runs the plugin from that folder, so moving it unloads the plugin (as the README says)', async () => {
    const clone = cloneOfWorkingTree();
    const home = tempDir('dr-e2e-home-');
    expect(await claude(home, 'plugin', 'marketplace', 'add', clone)).toMatch(/Successfully added marketplace: deep-research/);
    expect(await claude(home, 'plugin', 'install', 'deep-research@deep-research')).toMatch(/Successfully installed plugin/);
    expect(await claude(home, 'mcp', 'list')).toContain(`node ${path.join(clone, 'plugin', 'dist', 'server.js')} - ✔ Connected`);

    const moved = moveAway(clone);
    expect(await claude(home, 'mcp', 'list')).not.toMatch(/plugin:deep-research/);
    expect(await claude(home, 'plugin', 'list')).toMatch(/Marketplace deep-research failed to load: cache-miss/);

    // Moved back, it loads again: nothing was lost, the folder is simply where the plugin lives.
    fs.renameSync(moved, clone);
    expect(await claude(home, 'mcp', 'list')).toMatch(/plugin:deep-research:deep-research: .*✔ Connected/);
  });
});
