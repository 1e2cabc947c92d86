// `npm run demo` for a newcomer: from a fresh clone (committed files only, no API key, no agent CLI), the
// scripted replay finishes in under a minute with a report that verifies, in an ignored folder a rerun replaces;
// and the example run committed under artifacts/ is exactly what the demo produces today (regenerate it with
// `rm -rf artifacts/is-the-four-day-work-week-net-positive-f-401556 && npm run demo -- --out artifacts`).
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_PORT, runDemo } from '../../demo/demo.js';
import { REPO, SERVER_JS, tempDir, removeTempDirs } from './harness/claude.js';

const EXAMPLE = 'is-the-four-day-work-week-net-positive-f-401556';

function tree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(path.relative(dir, p).split(path.sep).join('/'), fs.readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return out;
}

afterAll(() => removeTempDirs());

describe('the demo', () => {
  it('reproduces the committed example run byte for byte', async () => {
    if (!fs.existsSync(SERVER_JS)) throw new Error(`${SERVER_JS} is missing: run \`npm run build\``);
    const committed = path.join(REPO, 'artifacts', EXAMPLE);
    if (!fs.existsSync(committed)) throw new Error(`no committed example at artifacts/${EXAMPLE}: run \`npm run demo\` and commit it`);
    const cwd = tempDir('dr-demo-');
    const r = await runDemo({ port: DEFAULT_PORT, liveClock: false, cwd });
    expect(r.runId).toBe(EXAMPLE);
    expect(r.verify.ok, r.verify.problems).toBe(true);
    const fresh = tree(r.runDir);
    const example = tree(committed);
    expect([...fresh.keys()].sort()).toEqual([...example.keys()].sort());
    for (const [file, text] of fresh) expect(example.get(file), `artifacts/${EXAMPLE}/${file} differs from a fresh demo run`).toBe(text);
  });

  it('runs from a fresh clone with `npx tsx demo/run.ts` in under a minute; a rerun replaces the replay and leaves git status clean', () => {
    const clone = path.join(tempDir('dr-clone-'), 'deep-research');
    execFileSync('git', ['clone', '-q', REPO, clone]);
    // Dependencies as `npm ci` would install them (offline here: the project's own node_modules, linked, which
    // git sees as a file rather than the ignored folder).
    fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(clone, 'node_modules'), 'dir');
    fs.appendFileSync(path.join(clone, '.git', 'info', 'exclude'), '/node_modules\n');
    expect(fs.existsSync(path.join(clone, 'dist', 'server.js')), 'dist/server.js is committed').toBe(true);
    const demo = () => {
      const started = performance.now();
      const r = spawnSync('timeout', ['60', 'npx', 'tsx', 'demo/run.ts'], {
        cwd: clone,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', HOME: tempDir('dr-clone-home-') },
      });
      return { ...r, seconds: (performance.now() - started) / 1000 };
    };
    const r = demo();
    const seconds = r.seconds;
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(seconds).toBeLessThan(60);
    expect(r.stdout).toMatch(/^verify_report: ok \(\d+ citations checked; (\d+) of \1 claim-source pairs SUPPORTED by the audit\)$/m);
    expect(r.stdout).toMatch(/SCRIPTED REPLAY/);
    // The replay goes to an ignored folder, and the output says where it is and what to open first.
    expect(r.stdout).toContain(`Run: demo/output/${EXAMPLE}/`);
    expect(r.stdout).toContain(`The run is in demo/output/${EXAMPLE}/ (ignored by git; the next \`npm run demo\` replaces it).`);
    expect(r.stdout).toContain(`Open first: demo/output/${EXAMPLE}/report.md`);
    const again = demo();
    expect(again.status, `${again.stdout}\n${again.stderr}`).toBe(0);
    expect(again.stdout).toContain(`Run: demo/output/${EXAMPLE}/`);
    expect(fs.readdirSync(path.join(clone, 'demo', 'output'))).toEqual([EXAMPLE]);
    expect(execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: clone, encoding: 'utf8' })).toBe('');
    process.stdout.write(`[e2e] demo from a fresh clone: ${seconds.toFixed(1)} s\n`);
  });
});
