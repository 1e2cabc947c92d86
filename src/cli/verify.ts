// `deep-research verify <run-dir>`: the verify_report check as a CI gate (exit 1 on any problem).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { InputError } from '../errors.js';
import { RunStore } from '../store/run-store.js';
import { readFileSafe } from '../store/fs-safe.js';
import { plural } from '../plural.js';
import { verifyReport } from '../reports/verify-report.js';
import { collectSources } from '../tools/verify-report.js';
import { err, out } from './print.js';
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
  // The run's own folders must be the run's: a state/ or sources/ symlinked elsewhere is refused, as the
  // server refuses it, rather than verified against files the run never held.
  const real = fs.realpathSync(abs);
  for (const sub of ['state', 'sources', path.join('state', 'source-keys')]) {
    let target: string;
    try {
      target = fs.realpathSync(path.join(abs, sub));
    } catch {
      continue;
    }
    const rel = path.relative(real, target);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) {
      return `refusing to read through "${sub.split(path.sep).join('/')}" in ${runDir}: a symlink leads outside the run folder`;
    }
  }
  return { store, runId };
}

export function runVerify(argv: string[]): number {
  try {
    return verify(argv);
  } catch (e) {
    // A run folder that cannot be read (a FIFO, an oversized or malformed file): one line naming it.
    if (e instanceof InputError) {
      err(`verify: ${e.message}`);
      return 2;
    }
    err(`verify: could not read the run folder: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    return 2;
  }
}

function verify(argv: string[]): number {
  // One path, like lint: the report is the run's report.md (a second word is refused, not read as a file).
  const parsed = positionals(argv, 1, { 'no-audit': { type: 'boolean' } });
  if (typeof parsed === 'string') {
    err(`verify: ${parsed}`);
    return 2;
  }
  const args = parsed.positionals;
  const noAudit = parsed.values['no-audit'] === true;
  const opened = openRun(args[0]);
  if (typeof opened === 'string') {
    err(`verify: ${opened}`);
    return 2;
  }
  const { store, runId } = opened;
  const file = path.join(store.runDir(runId), 'report.md');
  const text = readFileSafe(file, store.runDir(runId), path.relative(process.cwd(), file));
  if (text === undefined) {
    err(
      `verify: no report at ${path.relative(process.cwd(), file)}: this run has not written its report yet. ` +
        `Finish it by running /deep-research again in your agent CLI with the same question (it resumes the run), then verify again.`,
    );
    return 1;
  }
  const r = verifyReport(text, collectSources(store, runId), {
    degraded: store.loadRun(runId).fetch.degraded,
    person: true,
    ...(noAudit ? {} : { audit: store.loadAudit(runId) }),
  });
  const runRel = path.relative(process.cwd(), store.runDir(runId));
  for (const p of r.problems) {
    out(p.file !== undefined ? `${path.join(runRel, p.file)}: ${p.message}` : `${path.relative(process.cwd(), file)}:${p.line}: ${p.message}`);
  }
  const a = r.audit;
  const audit = noAudit
    ? 'claim audit not checked (--no-audit): citations, quotations, uncited statements and source hashes only'
    : `audit: ${a.supported} supported, ${a.partial} partial, ${a.unsupported} unsupported, ${a.unaudited} unaudited`;
  out(`verify: ${plural(r.citations, 'citation')}, ${plural(r.pairs, 'claim–source pair')}, ${plural(r.uncited.length, 'uncited statement')}; ${audit}`);
  out(r.problems.length === 0 ? 'verify: ok' : `verify: ${plural(r.problems.length, 'problem')}`);
  return r.problems.length === 0 ? 0 : 1;
}
