// `deep-research verify <run-dir>`: the verify_report check as a CI gate (exit 1 on any problem).
import * as path from 'node:path';
import { RunStore } from '../store/run-store.js';
import { readFileSafe } from '../store/fs-safe.js';
import { verifyReport } from '../reports/verify-report.js';
import { collectSources } from '../tools/verify-report.js';

export function openRun(runDir: string | undefined): { store: RunStore; runId: string } | string {
  if (!runDir) return 'give the run folder, e.g. artifacts/<run_id>';
  const abs = path.resolve(runDir);
  const store = new RunStore(path.dirname(abs));
  const runId = path.basename(abs);
  try {
    if (!store.exists(runId)) return `${runDir} is not a run folder (no state/run.json)`;
  } catch (err) {
    return (err as Error).message;
  }
  return { store, runId };
}

export function runVerify(argv: string[]): number {
  const noAudit = argv.includes('--no-audit');
  const args = argv.filter((a) => a !== '--no-audit');
  const opened = openRun(args[0]);
  if (typeof opened === 'string') {
    process.stderr.write(`verify: ${opened}\n`);
    return 2;
  }
  const { store, runId } = opened;
  const file = path.join(store.runDir(runId), args[1] ?? 'report.md');
  const text = readFileSafe(file);
  if (text === undefined) {
    process.stderr.write(`verify: no report at ${file}\n`);
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
  process.stdout.write(`verify: ${r.citations} citations, ${r.pairs} claim–source pairs; ${audit}\n`);
  process.stdout.write(r.problems.length === 0 ? 'verify: ok\n' : `verify: ${r.problems.length} problem(s)\n`);
  return r.problems.length === 0 ? 0 : 1;
}
