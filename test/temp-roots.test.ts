// Every test file runs with a temp root of its own, inside the run's, and the run's teardown fails when
// anything is left there: `npm test` no longer leaves folders in the temp dir.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRunRoots, removeRunRoots, RUN_SHM, RUN_TMP } from './helpers/temp-run.js';

describe('temp roots', () => {
  it('gives this test file its own temp dir inside the run’s root', () => {
    const run = process.env[RUN_TMP];
    expect(run, 'the global setup did not run').toBeDefined();
    expect(path.dirname(os.tmpdir())).toBe(run);
    expect(path.basename(os.tmpdir())).toMatch(/^file-/);
    const shm = process.env[RUN_SHM];
    if (shm !== undefined) expect(path.basename(shm)).toMatch(/^file-/);
  });

  it('the teardown removes the run’s roots and fails, naming them, when anything was left', () => {
    const env: NodeJS.ProcessEnv = {};
    const roots = makeRunRoots(env);
    expect(roots[0]).toBe(env[RUN_TMP]);
    const left = fs.mkdtempSync(path.join(roots[0]!, 'dr-test-'));
    expect(() => removeRunRoots(roots)).toThrow(`the test run left 1 temp folder behind (now removed): ${left}`);
    for (const r of roots) expect(fs.existsSync(r)).toBe(false);

    const clean = makeRunRoots({});
    expect(() => removeRunRoots(clean)).not.toThrow();
    for (const r of clean) expect(fs.existsSync(r)).toBe(false);
  });
});
