// Finding and reading a run's report for the tools that check it (audit_report, record_audit,
// verify_report). Every failure is a refusal that says what to pass; no reply carries a path of the
// machine the caller did not give.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { InputError } from '../errors.js';
import { readFileSafe } from '../store/fs-safe.js';
import type { RunStore } from '../store/run-store.js';

export const REPORT_NAME = 'report.md';

export interface ReportFile {
  file: string;
  /** How replies name the file: relative to the working directory, or as the caller gave it. */
  shown: string;
  /** undefined when there is no file there yet. */
  text: string | undefined;
}

export function readReport(store: RunStore, runId: string, given: string | undefined, cwd: string): ReportFile {
  const dir = store.runDir(runId);
  const p = given ?? REPORT_NAME;
  const file = resolveInside(dir, p, cwd);
  const rel = path.relative(cwd, file);
  const shown = given ?? (rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : `${runId}/${REPORT_NAME}`);
  const hint = `pass the report file inside the run folder, e.g. "${REPORT_NAME}" (the default)`;
  let text: string | undefined;
  try {
    if (fs.lstatSync(file, { throwIfNoEntry: false })?.isDirectory()) throw new InputError(`path "${clip(p)}" is a folder, not a report; ${hint}`);
    text = readFileSafe(file, store.root);
  } catch (err) {
    if (err instanceof InputError) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? '';
    const why: Record<string, string> = {
      ENAMETOOLONG: 'is too long for a file name',
      EISDIR: 'is a folder, not a report',
      EACCES: 'cannot be read (permission denied)',
      EPERM: 'cannot be read (permission denied)',
      ELOOP: 'leads through a symlink loop',
    };
    throw new InputError(`path "${clip(p)}" ${why[code] ?? `cannot be read (${code || 'unreadable'})`}; ${hint}`);
  }
  return { file, shown, text };
}

/** A path relative to the run folder or to the working directory; anything outside the run is refused. */
function resolveInside(runDir: string, p: string, cwd: string): string {
  if (p.includes('\0')) throw new InputError('path contains a NUL byte; pass a file name such as "report.md"');
  const candidates = [path.resolve(runDir, p), path.resolve(cwd, p)];
  for (const c of candidates) {
    const rel = path.relative(runDir, c);
    if (!rel.startsWith('..') && !path.isAbsolute(rel) && rel !== '') return c;
  }
  throw new InputError(`path "${clip(p)}" is outside the run folder; reports live in the run folder (default "${REPORT_NAME}")`);
}

function clip(p: string): string {
  return p.length > 60 ? `${p.slice(0, 57)}...` : p;
}
