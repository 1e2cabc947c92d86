// Completion-report size (issue 17, item 5): the characters a run's thread completion reports hold as
// written when the run was made (the files on disk) against the same threads re-rendered from the run's
// state by this code. The renderer is pure, so the figure is reproducible from a run folder alone.
//
//   tsx bench/completion-size.ts [run-dir ...]
// Without arguments: the runs bench/pair-context.ts uses (committed example, demo output, trials).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { completionReportName, renderCompletionReport } from '../src/reports/completion.js';
import { RunStore } from '../src/store/run-store.js';
import { defaultRuns } from './pair-context.js';
import { REPO } from './targets.js';

export function completionSizes(runDir: string): { run: string; threads: number; before: number; after: number } {
  const abs = path.resolve(runDir);
  const store = new RunStore(path.dirname(abs));
  const runId = path.basename(abs);
  const run = store.loadRun(runId);
  let before = 0;
  let after = 0;
  let threads = 0;
  for (const t of run.threads) {
    const state = store.loadThread(runId, t.slug);
    const file = path.join(abs, completionReportName(t.slug));
    if (!state?.completed || !fs.existsSync(file)) continue;
    threads += 1;
    before += fs.readFileSync(file, 'utf8').length;
    after += renderCompletionReport(state, state.completed.reason, state.completed.gaps, (key) => {
      const s = store.lookupSource(runId, key);
      return s ? { id: s.id, title: s.title } : undefined;
    }).length;
  }
  return { run: path.relative(process.cwd(), abs) || abs, threads, before, after };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(REPO, 'bench', 'completion-size.ts')) {
  const args = process.argv.slice(2);
  let b = 0;
  let a = 0;
  for (const dir of args.length > 0 ? args : defaultRuns()) {
    const s = completionSizes(dir);
    b += s.before;
    a += s.after;
    console.log(`${s.run}: ${s.threads} completion reports, ${s.before} characters as written → ${s.after} re-rendered (${s.before ? ((100 * s.after) / s.before).toFixed(0) : '—'}%)`);
  }
  console.log(`total: ${b} → ${a} characters (${b ? ((100 * a) / b).toFixed(0) : '—'}%)`);
}
