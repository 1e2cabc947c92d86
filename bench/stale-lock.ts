// Kill, then first write: a server SIGKILLed while it holds a run's lock leaves the lock behind, and
// the next write to that run (another session, or the restarted one) has to take it over. Timed from
// the SIGKILL to the write's end, over many trials, for both things a kill can leave: a lock folder with
// its owner record (the holder is seen to be gone), and a bare folder (killed between making the folder
// and writing the record, judged by its age). Reference: before the owner record, proper-lockfile's
// stale rule took over any left lock once its mtime was 10 s old.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RunStore } from '../src/store/run-store.js';
import { canonicalKey } from '../src/engine/canonical-url.js';
import { goalRow, type Section } from './report.js';
import { median, ms, quantile } from './stats.js';
import { REPO } from './targets.js';

const TRIALS = Math.max(10, Number(process.env.BENCH_STALE_LOCK_TRIALS ?? 20));
const BEFORE_MS = 10_000;

function holdThenKill(root: string, runId: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO, 'bench', 'lock-holder.ts'), root, runId], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    let t0 = 0;
    child.stderr.on('data', (d) => (err += String(d)));
    child.stdout.on('data', (d) => {
      if (!String(d).includes('held') || t0) return;
      t0 = performance.now();
      child.kill('SIGKILL');
    });
    child.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve(t0) : reject(new Error(`lock holder exited without being killed: ${err.slice(-500)}`))));
  });
}

async function write(store: RunStore, runId: string, n: number): Promise<void> {
  const url = `https://example.org/after-kill/${n}`;
  await store.addSource(runId, { url, canonical_key: canonicalKey(url), title: `After kill ${n}`, markdown: `# After kill ${n}\n\nBody.\n`, fetched_at: '2026-01-01T00:00:00.000Z' });
}

export async function staleLock(): Promise<Section> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dr-bench-lock-'));
  try {
    const store = new RunStore(dir);
    const runId = 'stale-lock-bench';
    fs.mkdirSync(path.join(dir, runId), { recursive: true });
    await write(store, runId, 0);
    const ordinary: number[] = [];
    const afterKill: number[] = [];
    const bare: number[] = [];
    for (let i = 1; i <= TRIALS; i++) {
      let t = performance.now();
      await write(store, runId, i * 10);
      ordinary.push(performance.now() - t);

      t = await holdThenKill(dir, runId);
      await write(store, runId, i * 10 + 1);
      afterKill.push(performance.now() - t);

      fs.mkdirSync(path.join(dir, runId, '.lock'));
      t = performance.now();
      await write(store, runId, i * 10 + 2);
      bare.push(performance.now() - t);
    }
    const ref = `${ms(BEFORE_MS)} (10 s stale rule, before)`;
    return {
      name: 'stale-lock',
      title: 'Stale lock: kill, then first write',
      rows: [
        goalRow('kill → first write, holder seen gone (max)', Math.max(...afterKill), { max: 1000, format: ms }, {
          ours: `${ms(Math.max(...afterKill))} (median ${ms(median(afterKill))})`,
          reference: ref,
          goalText: `${(Math.max(...afterKill) / BEFORE_MS).toFixed(3)} of before (goal ≤ 1 s)`,
        }),
        goalRow('first write past a bare lock folder (max)', Math.max(...bare), { max: 1500, format: ms }, {
          ours: `${ms(Math.max(...bare))} (median ${ms(median(bare))})`,
          reference: ref,
          goalText: `${(Math.max(...bare) / BEFORE_MS).toFixed(2)} of before (goal ≤ 1.5 s)`,
        }),
      ],
      notes: [
        `${TRIALS} trials. Each: an ordinary write (store a source under the run lock; median ${ms(median(ordinary))}, p90 ${ms(quantile(ordinary, 0.9))}); ` +
          'a child process takes the run lock and is SIGKILLed holding it, and the clock runs from the kill to the end of the next write in this process; ' +
          'then a bare lock folder, as a holder killed between making the folder and writing its owner record leaves, and the next write.',
        'A holder of this host whose pid no longer runs is gone at once; a folder without a record is judged gone once a second old; a holder on another host by a 10 s stale mtime.',
      ],
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
