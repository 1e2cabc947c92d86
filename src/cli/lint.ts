// `deep-research lint <run-dir | folder of runs>`: exit 1 when any report breaks SPEC 6, 2 when the path
// holds no run. Given artifacts/ (the natural CI line), it lints every run inside.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lintArtifact } from '../reports/lint.js';
import { plural } from '../plural.js';
import { readFileSafe } from '../store/fs-safe.js';
import { err, out } from './print.js';
import { isRunFolder, notARunFolder, positionals, runsIn } from './run-folder.js';

export function runLint(args: string[]): number {
  try {
    return lint(args);
  } catch (e) {
    // A file that cannot be read (a FIFO, an oversized file, a symlink): one line naming it.
    return refuse(e instanceof Error ? (e.message.split('\n')[0] ?? '') : String(e));
  }
}

function lint(args: string[]): number {
  const parsed = positionals(args, 1);
  if (typeof parsed === 'string') return refuse(parsed);
  const given = parsed.positionals[0];
  let runs: string[];
  let folderOfRuns = false;
  if (given !== undefined && fs.existsSync(given) && fs.statSync(given).isDirectory() && !isRunFolder(given)) {
    runs = runsIn(given).map((r) => path.join(given, r));
    folderOfRuns = true;
    if (runs.length === 0) return refuse(`${given} holds no run (no state/run.json in it or in its folders); give a run folder, e.g. artifacts/<run_id>, or the folder of runs`);
  } else {
    const why = notARunFolder(given);
    if (why !== undefined) return refuse(why);
    runs = [given as string];
  }
  let files = 0;
  let count = 0;
  for (const dir of runs) {
    const names = fs.readdirSync(dir).filter((f) => /^(micro-report|thread-completion)-.*\.md$/.test(f)).sort();
    files += names.length;
    for (const f of names) {
      for (const p of lintArtifact(f, readFileSafe(path.join(dir, f), dir, path.join(dir, f)) ?? '')) {
        out(`${path.join(dir, p.file)}:${p.line}: ${p.message}`);
        count += 1;
      }
    }
  }
  const scope = !folderOfRuns ? plural(files, 'file') : `${plural(runs.length, 'run')}, ${plural(files, 'file')}`;
  out(count === 0 ? `lint: ok (${scope})` : `lint: ${plural(count, 'problem')} in ${scope}`);
  return count === 0 ? 0 : 1;
}

function refuse(message: string): number {
  err(`lint: ${message}`);
  return 2;
}
