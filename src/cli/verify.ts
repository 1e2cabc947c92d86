// `deep-research verify <run-dir>`: the verify_report check as a CI gate (exit 1 on any problem).
import * as path from 'node:path';
import { RunStore } from '../store/run-store.js';
import { readFileSafe } from '../store/fs-safe.js';
import { plural } from '../plural.js';
import { verifyReport } from '../reports/verify-report.js';
import { collectSources } from '../tools/verify-report.js';
import { notARunFolder, positionals } from './run-folder.js';

export function openRun(runDir: string | undefined): { store: RunStore; runId: string } | string {
  const why = notARunFolder(runDir);
  if (why !== undefined) return why;
  const abs = path.resolve(runDir as string);
  const store = new RunStore(path.dirname(abs));
  const runId = path.basename(abs);
  try {
    store.runDir(runId);
  } catch {
    return `${runDir} holds a run, but its folder name is not a run id; keep the name start_run gave it`;
  }
  return { store, runId };
}

export function runVerify(argv: string[]): number {
  // One path, like lint: the report is the run's report.md (a second word is refused, not read as a file).
  const parsed = positionals(argv, 1, { 'no-audit': { type: 'boolean' } });
  if (typeof parsed === 'string') {
    process.stderr.write(`verify: ${parsed}\n`);
    return 2;
  }
  const args = parsed.positionals;
  const noAudit = parsed.values['no-audit'] === true;
  const opened = openRun(args[0]);
  if (typeof opened === 'string') {
    process.stderr.write(`verify: ${opened}\n`);
    return 2;
  }
  const { store, runId } = opened;
  const file = path.join(store.runDir(runId), 'report.md');
  const text = readFileSafe(file);
  if (text === undefined) {
    process.stderr.write(`verify: no report at ${path.relative(process.cwd(), file)}\n`);
    return 1;
  }
  const r = verifyReport(text, collectSources(store, runId), {
    degraded: store.loadRun(runId).fetch.degraded,
    ...(noAudit ? {} : { audit: store.loadAudit(runId) }),
  });
  for (const p of r.problems) process.stdout.write(`${path.relative(process.cwd(), file)}:${p.line}: ${p.message}\n`);
  const a = r.audit;
  const audit = noAudit
    ? 'claim audit not checked (--no-audit): citations, quotations and source hashes only'
    : `audit: ${a.supported} supported, ${a.partial} partial, ${a.unsupported} unsupported, ${a.unaudited} unaudited`;
  process.stdout.write(`verify: ${plural(r.citations, 'citation')}, ${plural(r.pairs, 'claim–source pair')}; ${audit}\n`);
  process.stdout.write(r.problems.length === 0 ? 'verify: ok\n' : `verify: ${plural(r.problems.length, 'problem')}\n`);
  return r.problems.length === 0 ? 0 : 1;
}
