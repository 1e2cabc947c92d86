// `deep-research verify` and `lint` on hostile run folders (SPEC 7, issue 19 items 2 and 4): a FIFO or an
// oversized file where a run file should be, wrong-shaped or unparsable state, symlinked state/ and
// sources/ leading outside the run, control characters in names and text. Each answer is one clean line,
// a non-zero exit, in well under the time a hang would take, and no control character reaches the terminal.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, tempDir, type Harness } from './helpers/mcp.js';
import { brief, QUESTION, seedSource, supportAll } from './helpers/fixtures.js';

const CLI = path.resolve('src/cli.ts');

function cli(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string; ms: number }> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    // A hang is a failure, not a stuck suite.
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, ms: Date.now() - t0 });
    });
  });
}

// Any control character but the newline that ends each line.
const CONTROL = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

let h: Harness;
let pristine: string;
const REPORT = '# Question\n\n## Findings\n\nOutput held steady in the trial [S1].\n\n## Methods\n\nOne source.\n\n## Sources\n\n- [S1] Trial — https://example.org/a\n';

beforeAll(async () => {
  h = await connect();
  const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
  await seedSource(h.root, run_id, 'https://example.org/a', '# Trial\n\nOutput held steady in the trial, the report says, across every team that took part.\n', 'Trial');
  fs.writeFileSync(path.join(h.root, run_id, 'report.md'), REPORT);
  await supportAll(h, run_id);
  pristine = path.join(h.root, run_id);
});
afterAll(async () => h?.close());

/** A copy of the good run, changed by `spoil`, in a folder of its own (named as a run id). */
function hostile(spoil: (dir: string) => void): string {
  const dir = path.join(tempDir('dr-hostile-'), path.basename(pristine));
  fs.cpSync(pristine, dir, { recursive: true });
  spoil(dir);
  return dir;
}

function expectOneCleanLine(r: { status: number | null; stdout: string; stderr: string; ms: number }, names: RegExp): void {
  expect(r.status, r.stderr + r.stdout).not.toBe(0);
  expect(r.status).not.toBeNull();
  const all = r.stdout + r.stderr;
  expect(all.trimEnd().split('\n'), all).toHaveLength(1);
  expect(all).toMatch(names);
  expect(all).not.toMatch(/TypeError|Cannot read properties|at .*\.(ts|js):\d+/);
  expect(CONTROL.test(all), JSON.stringify(all)).toBe(false);
}

describe('verify on a sound run', () => {
  it('exits 0', async () => {
    const r = await cli('verify', hostile(() => {}));
    expect(r.stdout, r.stderr).toContain('verify: ok');
    expect(r.status).toBe(0);
  });
});

describe('verify on hostile run folders', () => {
  it.each([
    ['state/run.json', /state\/run\.json.*named pipe/],
    ['state/audit.json', /state\/audit\.json.*named pipe/],
    ['report.md', /report\.md.*named pipe/],
    ['sources/S1.md', /sources\/S1\.md.*named pipe/],
  ])('a FIFO at %s is refused by name, without waiting on it', async (file, names) => {
    const dir = hostile((d) => {
      fs.rmSync(path.join(d, file));
      const made = spawnSyncMkfifo(path.join(d, file));
      expect(made).toBe(0);
    });
    const r = await cli('verify', dir);
    expectOneCleanLine(r, names);
    expect(r.ms).toBeLessThan(15_000);
  });

  it('refuses a 200 MB sources/S1.md by name without reading it', async () => {
    const dir = hostile((d) => fs.truncateSync(path.join(d, 'sources', 'S1.md'), 200 * 1024 * 1024));
    expectOneCleanLine(await cli('verify', dir), /sources\/S1\.md.*200 MiB/);
  });

  it.each([
    ['state/audit.json', '[1,2,3]', /state\/audit\.json.*wrong shape/],
    ['state/audit.json', '{"version":1,"verdicts":{"P1":7}}', /state\/audit\.json.*wrong shape/],
    ['state/run.json', '"run"', /state\/run\.json.*wrong shape/],
    ['state/run.json', '{"run_id": ', /state\/run\.json.*not valid JSON/],
    ['sources/S1.md', '---\nurl: [unclosed\n---\nbody\n', /sources\/S1\.md.*not valid YAML/],
  ])('%s holding %j gets one line naming the file', async (file, content, names) => {
    const dir = hostile((d) => fs.writeFileSync(path.join(d, file), content));
    expectOneCleanLine(await cli('verify', dir), names);
  });

  it.each(['sources', 'state'])('refuses a %s/ symlink that leads outside the run', async (sub) => {
    const elsewhere = tempDir('dr-elsewhere-');
    const dir = hostile((d) => {
      fs.cpSync(path.join(d, sub), path.join(elsewhere, sub), { recursive: true });
      fs.rmSync(path.join(d, sub), { recursive: true });
      fs.symlinkSync(path.join(elsewhere, sub), path.join(d, sub));
    });
    expectOneCleanLine(await cli('verify', dir), new RegExp(`"${sub}".*outside the run`));
  });

  it('prints control characters of a report line escaped', async () => {
    // verify reads the run's report.md only; a hostile line reaches the terminal through the uncited-sentence problem.
    const dir = hostile((d) => fs.writeFileSync(path.join(d, 'report.md'), REPORT.replace('Output held', 'Version 2 \u001b]0;PWNED\u0007\u001b[2J held').replace(' [S1].', '.')));
    const r = await cli('verify', dir);
    expect(r.stdout).toContain('report.md:5: uncited statement "Version 2 \\x1b]0;PWNED\\x07\\x1b[2J held');
    expect(r.status).toBe(1);
    expect(CONTROL.test(r.stdout + r.stderr), JSON.stringify(r.stdout)).toBe(false);
  });
});

describe('lint on hostile run folders', () => {
  it('escapes control characters in a file name it prints', async () => {
    const dir = hostile((d) => {
      const good = fs.readdirSync(d).find((f) => f.startsWith('micro-report-'));
      const name = 'micro-report-\u001b]0;PWNED\u0007\u001b[2J-round-1.md';
      fs.writeFileSync(path.join(d, name), good ? fs.readFileSync(path.join(d, good), 'utf8').replace(/^# /m, '') : 'broken\n');
    });
    const r = await cli('lint', dir);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('\\x1b]0;PWNED\\x07\\x1b[2J');
    expect(CONTROL.test(r.stdout + r.stderr), JSON.stringify(r.stdout)).toBe(false);
  });

  it('refuses a FIFO micro-report by name', async () => {
    const dir = hostile((d) => expect(spawnSyncMkfifo(path.join(d, 'micro-report-x-round-1.md'))).toBe(0));
    expectOneCleanLine(await cli('lint', dir), /micro-report-x-round-1\.md.*named pipe/);
  });
});

function spawnSyncMkfifo(file: string): number | null {
  // node has no mkfifo; the coreutils one is on every machine the suite runs on.
  return spawnSync('mkfifo', [file]).status;
}
