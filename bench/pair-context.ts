// Pair context (issue 17): does the first passage audit_report offers for a claim–source pair hold the
// support? Two ground truths, three rankings.
//
// Judged (the unbiased one): a trial whose report an independent model judged (trial-N/judge.md beside
// trial-N/work/) names, per pair, the source passage it relied on without ever seeing audit_report's
// passages; bench/judge-truth.ts reads the table, aligns its rows with the report's pairs and decides whether
// a passage holds the judge's quote (>= 60% of its words in order) or one of its cited source lines (a run of
// 8 words). A trial without judge.md is NOT MEASURED.
// Own auditor (a proxy, biased toward the old ranking, whose passages the auditor was offered): for every
// pair the run's auditor judged SUPPORTED, the passage it recorded (state/audit.json), found after the
// grounding normalisation in the first passage.
// Rankings: old = the statement alone, a long sentence cut to its head (main before issue 17); main = with
// the pair's ranking context (701a85c); now = as main, a long sentence (a code block, a signature) cut to
// the stretch holding most of the statement's words, widened only by sentences that share a word with the
// statement, the passage holding most of the statement's words first among the best three (as audit_report asks, issue 23); the mean length of the first passage is given for main's
// widening (any neighbour) and now's. Same report, sources and BM25 index throughout.
//
//   tsx bench/pair-context.ts [run-dir ...]     (also `npm run bench pair-context`)
// Without arguments: the committed example run, the demo's output (`npm run demo` writes it) and any
// real-model trial runs under $DEEP_RESEARCH_TRIALS (default /tmp/deep-research-trials/trial-*/work/artifacts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { projectForMatching, quoteFoundIn } from '../src/engine/grounding.js';
import { parseReport, rankingContext } from '../src/engine/statements.js';
import { type PassageOptions, rankedPassages } from '../src/fetch/passages.js';
import { alignRows, evidenceOf, holds, parseJudgeTable } from './judge-truth.js';
import { RunStore } from '../src/store/run-store.js';
import type { Section } from './report.js';
import { REPO } from './targets.js';

// As audit_report offers them.
const PASSAGES = 2;
const PASSAGE_CHARS = 360;

const HEAD: PassageOptions = { longSentence: 'head' };
/** As audit_report ranks a pair's passages. */
const AUDIT: PassageOptions = { widen: 'matching', order: 'strength' };

/** Pairs whose first passage holds the judge's support, per ranking. */
export interface JudgedFigures {
  run: string;
  /** Path of the judge table, or undefined when the trial has none (not measured). */
  judge?: string;
  /** Judge rows matched to a pair, SUPPORTED or PARTIAL, naming a passage. */
  counted: number;
  /** Rows of the judge table, and those matched to a pair. */
  rows: number;
  matched: number;
  old: number;
  main: number;
  now: number;
  /** Characters of the first passages, widened by any neighbour and as audit_report widens them. */
  charsAll: number;
  charsNow: number;
}

/** The judge table beside a trial's work/ folder, for a run under trial-N/work/artifacts/<run>. */
function judgeTableFor(runDir: string): string | undefined {
  const trial = path.resolve(runDir, '..', '..', '..');
  if (path.basename(path.resolve(runDir, '..')) !== 'artifacts' || path.basename(path.resolve(runDir, '..', '..')) !== 'work') return undefined;
  const file = path.join(trial, 'judge.md');
  return fs.existsSync(file) ? file : undefined;
}

export function measureJudged(runDir: string, judgeFile = judgeTableFor(runDir)): JudgedFigures {
  const abs = path.resolve(runDir);
  const f: JudgedFigures = { run: path.relative(process.cwd(), abs) || abs, counted: 0, rows: 0, matched: 0, old: 0, main: 0, now: 0, charsAll: 0, charsNow: 0 };
  if (!judgeFile) return f;
  f.judge = judgeFile;
  const store = new RunStore(path.dirname(abs));
  const runId = path.basename(abs);
  const parsed = parseReport(fs.readFileSync(path.join(abs, 'report.md'), 'utf8'));
  const rows = parseJudgeTable(fs.readFileSync(judgeFile, 'utf8'));
  const aligned = alignRows(rows, parsed.pairs);
  f.rows = rows.length;
  f.matched = aligned.length;
  const lines = new Map<string, string[] | undefined>();
  const sourceLines = (id: string) => {
    if (!lines.has(id)) {
      const file = path.join(abs, 'sources', `${id}.md`);
      lines.set(id, fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n') : undefined);
    }
    return lines.get(id);
  };
  for (const { row, pair } of aligned) {
    if (row.label !== 'SUPPORTED' && row.label !== 'PARTIAL') continue;
    const evidence = evidenceOf(row, rows, pair);
    const source = store.readSource(runId, pair.source_id);
    if (!evidence || !source) continue;
    const context = rankingContext(pair.context, pair.statement);
    const first = (ctx: string | undefined, options?: PassageOptions) => rankedPassages(source.markdown, pair.statement, PASSAGES, PASSAGE_CHARS, ctx, options)[0];
    f.counted += 1;
    if (holds(first(undefined, HEAD), evidence, sourceLines)) f.old += 1;
    if (holds(first(context, HEAD), evidence, sourceLines)) f.main += 1;
    const now = first(context, AUDIT);
    if (holds(now, evidence, sourceLines)) f.now += 1;
    f.charsNow += now?.length ?? 0;
    f.charsAll += first(context)?.length ?? 0;
  }
  return f;
}

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
    const before = holds(rankedPassages(source.markdown, p.statement, PASSAGES, PASSAGE_CHARS, undefined, HEAD)[0]);
    const after = holds(rankedPassages(source.markdown, p.statement, PASSAGES, PASSAGE_CHARS, rankingContext(p.context, p.statement), AUDIT)[0]);
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
  const judged = runs.filter((r) => judgeTableFor(r) !== undefined).map((r) => measureJudged(r));
  const jsum = (k: (f: JudgedFigures) => number) => judged.reduce((n, f) => n + k(f), 0);
  const counted = jsum((f) => f.counted);
  section.rows.push({
    figure: 'audit: first passage holds the independent judge’s support',
    ours: counted === 0 ? 'not measured' : `${jsum((f) => f.now)} of ${counted} (${pct(jsum((f) => f.now), counted)})`,
    reference:
      counted === 0
        ? '—'
        : `${jsum((f) => f.old)} of ${counted} (${pct(jsum((f) => f.old), counted)}) statement only; ${jsum((f) => f.main)} (${pct(jsum((f) => f.main), counted)}) with context, head cut`,
    ...(counted === 0 ? { met: null, because: 'no trial with a judge.md beside its work/ folder' } : {}),
  });
  if (counted > 0) {
    section.rows.push({
      figure: 'audit: mean characters of the first passage (pairs as above)',
      ours: `${(jsum((f) => f.charsNow) / counted).toFixed(0)} (widened by sentences sharing a statement word)`,
      reference: `${(jsum((f) => f.charsAll) / counted).toFixed(0)} (widened by any neighbour)`,
    });
  }
  const figures = runs.map(measureRun).filter((f) => f.judged > 0);
  const sum = (k: (f: RunFigures) => number) => figures.reduce((n, f) => n + k(f), 0);
  const own = sum((f) => f.judged);
  section.rows.push({
    figure: 'audit: first passage holds the run’s own auditor’s support (proxy, SUPPORTED pairs)',
    ours: own === 0 ? 'not measured' : `${sum((f) => f.after)} of ${own} (${pct(sum((f) => f.after), own)})`,
    reference: own === 0 ? '—' : `${sum((f) => f.before)} of ${own} (${pct(sum((f) => f.before), own)}) statement only, head cut`,
    ...(own === 0 ? { met: null, because: 'no run with SUPPORTED verdicts found' } : {}),
  });
  section.notes.push(
    'Pair context, judged: per trial, pairs the independent judge found SUPPORTED or PARTIAL and whose passage it named (a quote: >= 60% of its words in order in the first passage; a source line: 8 consecutive words), first passage holding it: old (statement only, long sentence cut to its head) → main (with ranking context) → now (long sentence cut to its best stretch, widened only by sentences that share a statement word).',
  );
  for (const r of runs) {
    const t = judgeTableFor(r);
    if (!t) {
      if (r.includes(`${path.sep}work${path.sep}artifacts${path.sep}`)) section.notes.push(`- ${path.relative(process.cwd(), r) || r}: NOT MEASURED (no judge.md beside work/)`);
      continue;
    }
    const f = judged.find((x) => x.judge === t && path.resolve(x.run) === path.resolve(r));
    if (f) section.notes.push(`- ${f.run}: ${f.old} → ${f.main} → ${f.now} of ${f.counted} (judge rows ${f.rows}, matched to pairs ${f.matched})`);
  }
  section.notes.push('Pair context, own auditor (proxy): per run, SUPPORTED pairs whose recorded passage is in the first passage offered, statement only with head cut (before) → now (after); fragments are table cells and statements shorter than their sentence.');
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
