// Pair context (issue 17): does the first passage audit_report offers for a claim–source pair hold the
// support, with the pair's context in the ranking (the sentence, the previous sentence, a table's column and
// row label) and without it (main before issue 17: the statement alone)? A deterministic proxy for "the
// auditor found the support at once": for every pair a run's own auditor judged SUPPORTED, the passage it
// recorded (state/audit.json) is the support; a pair counts when that passage is found, after the grounding
// normalisation, in the first passage offered. Same report, same stored sources, same BM25 passage index;
// only the query differs.
//
//   tsx bench/pair-context.ts [run-dir ...]     (also `npm run bench pair-context`)
// Without arguments: the committed example run, the demo's output (`npm run demo` writes it) and any
// real-model trial runs under $DEEP_RESEARCH_TRIALS (default /tmp/deep-research-trials/trial-*/work/artifacts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { projectForMatching, quoteFoundIn } from '../src/engine/grounding.js';
import { parseReport, rankingContext } from '../src/engine/statements.js';
import { rankedPassages } from '../src/fetch/passages.js';
import { RunStore } from '../src/store/run-store.js';
import type { Section } from './report.js';
import { REPO } from './targets.js';

// As audit_report offers them.
const PASSAGES = 2;
const PASSAGE_CHARS = 360;

export interface RunFigures {
  run: string;
  judged: number;
  before: number;
  after: number;
  /** Pairs of table cells or fragments (statement shorter than its sentence), where context matters most. */
  fragments: { judged: number; before: number; after: number };
}

export function defaultRuns(): string[] {
  const dirs: string[] = [];
  const runsIn = (root: string) => (fs.existsSync(root) ? fs.readdirSync(root).sort().map((d) => path.join(root, d)).filter((d) => fs.existsSync(path.join(d, 'report.md'))) : []);
  dirs.push(...runsIn(path.join(REPO, 'artifacts')));
  dirs.push(...runsIn(path.join(REPO, 'demo', 'output')));
  const trials = process.env.DEEP_RESEARCH_TRIALS ?? '/tmp/deep-research-trials';
  if (fs.existsSync(trials)) {
    for (const t of fs.readdirSync(trials).sort()) dirs.push(...runsIn(path.join(trials, t, 'work', 'artifacts')));
  }
  return dirs;
}

export function measureRun(runDir: string): RunFigures {
  const abs = path.resolve(runDir);
  const store = new RunStore(path.dirname(abs));
  const runId = path.basename(abs);
  const parsed = parseReport(fs.readFileSync(path.join(abs, 'report.md'), 'utf8'));
  const audit = store.loadAudit(runId);
  const f: RunFigures = { run: path.relative(process.cwd(), abs) || abs, judged: 0, before: 0, after: 0, fragments: { judged: 0, before: 0, after: 0 } };
  for (const p of parsed.pairs) {
    const v = audit.verdicts[p.pair_id];
    if (v?.verdict !== 'SUPPORTED' || !v.passage) continue;
    const source = store.readSource(runId, p.source_id);
    if (!source) continue;
    const holds = (first: string | undefined) => first !== undefined && quoteFoundIn(v.passage as string, projectForMatching(first));
    const before = holds(rankedPassages(source.markdown, p.statement, PASSAGES, PASSAGE_CHARS)[0]);
    const after = holds(rankedPassages(source.markdown, p.statement, PASSAGES, PASSAGE_CHARS, rankingContext(p.context, p.statement))[0]);
    f.judged += 1;
    if (before) f.before += 1;
    if (after) f.after += 1;
    if (p.context.header || p.context.sentence.length > p.statement.length + 2) {
      f.fragments.judged += 1;
      if (before) f.fragments.before += 1;
      if (after) f.fragments.after += 1;
    }
  }
  return f;
}

const pct = (n: number, d: number) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(0)}%`);

export async function pairContext(runs: string[] = defaultRuns()): Promise<Section> {
  const section: Section = { name: 'pair-context', title: 'Audit pair context', rows: [], notes: [] };
  const figures = runs.map(measureRun).filter((f) => f.judged > 0);
  const sum = (k: (f: RunFigures) => number) => figures.reduce((n, f) => n + k(f), 0);
  const judged = sum((f) => f.judged);
  section.rows.push({
    figure: 'audit: first passage holds the auditor’s support (SUPPORTED pairs)',
    ours: judged === 0 ? 'not measured' : `${sum((f) => f.after)} of ${judged} (${pct(sum((f) => f.after), judged)})`,
    reference: judged === 0 ? '—' : `${sum((f) => f.before)} of ${judged} (${pct(sum((f) => f.before), judged)}) statement only`,
    ...(judged === 0 ? { met: null, because: 'no run with SUPPORTED verdicts found' } : {}),
  });
  section.notes.push('Pair context: per run, SUPPORTED pairs whose recorded passage is in the first passage offered, statement only (before) → with context (after); fragments are table cells and statements shorter than their sentence.');
  for (const f of figures) {
    section.notes.push(`- ${f.run}: ${f.before} → ${f.after} of ${f.judged}; fragments ${f.fragments.before} → ${f.fragments.after} of ${f.fragments.judged}`);
  }
  return section;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(REPO, 'bench', 'pair-context.ts')) {
  const args = process.argv.slice(2);
  void pairContext(args.length > 0 ? args : defaultRuns()).then((s) => {
    for (const r of s.rows) console.log(`${r.figure}: ${r.ours} (before: ${r.reference})`);
    for (const n of s.notes) console.log(n);
  });
}
