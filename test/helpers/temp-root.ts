// Each test file gets a temp root of its own (os.tmpdir() and the tmpfs folder of safety sandboxes point
// into it while the file runs), removed when the file ends: `npm test` used to leave about 170 folders
// (13 MB) in the temp dir per run. Registered as a setupFiles entry, so it runs in every test file first.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll } from 'vitest';
import { RUN_TMP, RUN_SHM } from './temp-run.js';

const runTmp = process.env[RUN_TMP];
if (runTmp) {
  const tmp = fs.mkdtempSync(path.join(runTmp, 'file-'));
  process.env.TMPDIR = tmp; // what os.tmpdir() reads, here and in every child process a test starts
  const runShm = process.env[RUN_SHM];
  const shm = runShm ? fs.mkdtempSync(path.join(runShm, 'file-')) : undefined;
  if (shm) process.env[RUN_SHM] = shm;
  afterAll(() => {
    for (const d of [tmp, shm]) if (d) fs.rmSync(d, { recursive: true, force: true, maxRetries: 3 });
  });
}
