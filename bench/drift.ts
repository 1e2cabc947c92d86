// Drift, measured (SPEC 11.1; issue 24 item 4): check_drift's rules over a labelled set of real pages
// (bench/drift/: Debian documentation packages, each page's main text as fetch_source stores it, cut to
// its first 6,000 characters). Per thread, a page is `on` its subject (some name the run's excluded
// terms), `off` (about something else) or `version` (the same product, another release than the question
// names). Reference: the rules before the change, on the same pages in the same run.
//   tsx bench/run.ts drift
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assessDrift } from '../src/engine/drift.js';
import { driftBefore } from './drift-before.js';
import type { Row, Section } from './report.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

interface Thread {
  id: string;
  question: string;
  subjects: string[];
  include: string[];
  exclude: string[];
  sub_questions: string[];
  /** Labelled after the rules were changed, and not used to tune them. */
  held_out?: boolean;
  labels: Record<string, 'on' | 'off' | 'version'>;
}

export interface DriftCase {
  thread: string;
  page: string;
  label: 'on' | 'off' | 'version';
  heldOut: boolean;
  now: string[];
  before: string[];
}

export function driftCases(): DriftCase[] {
  const set = JSON.parse(fs.readFileSync(path.join(HERE, 'drift', 'set.json'), 'utf8')) as { threads: Thread[] };
  const out: DriftCase[] = [];
  for (const t of set.threads) {
    for (const [page, label] of Object.entries(t.labels)) {
      // As check_drift reads a stored source: its title line, then its markdown.
      const text = fs.readFileSync(path.join(HERE, 'drift', 'pages', `${page}.md`), 'utf8');
      const input = { text, subjects: t.subjects, subQuestions: t.sub_questions, include: t.include, exclude: t.exclude };
      const now = assessDrift({ ...input, versionContext: [t.question, ...t.include] }).signals;
      out.push({ thread: t.id, page, label, heldOut: t.held_out === true, now, before: driftBefore(input) });
    }
  }
  return out;
}

const share = (n: number, d: number) => (d === 0 ? 0 : n / d);
const f2 = (x: number) => x.toFixed(2);

export function driftFigures(cases: readonly DriftCase[], which: 'now' | 'before') {
  const flagged = (c: DriftCase) => c[which].length > 0;
  const on = cases.filter((c) => c.label === 'on');
  const off = cases.filter((c) => c.label === 'off');
  const version = cases.filter((c) => c.label === 'version');
  const drifted = cases.filter((c) => c.label !== 'on');
  const hits = cases.filter(flagged);
  return {
    offRecall: share(off.filter(flagged).length, off.length),
    versionRecall: share(version.filter(flagged).length, version.length),
    recall: share(drifted.filter(flagged).length, drifted.length),
    falsePositives: share(on.filter(flagged).length, on.length),
    precision: share(hits.filter((c) => c.label !== 'on').length, hits.length),
    counts: { on: on.length, off: off.length, version: version.length },
  };
}

function heldOutNote(held: readonly DriftCase[]): string {
  const f = driftFigures(held, 'now');
  const b = driftFigures(held, 'before');
  return `Held out (${held.length} pairs of ${new Set(held.map((c) => c.thread)).size} threads labelled after the rules were changed, not used to tune them): off-topic recall ${f2(f.offRecall)} of ${f.counts.off}, other-release recall ${f2(f.versionRecall)} of ${f.counts.version}, on-topic false positives ${f2(f.falsePositives)} of ${f.counts.on} (before: ${f2(b.offRecall)}, ${f2(b.versionRecall)}, ${f2(b.falsePositives)}).`;
}

export async function drift(): Promise<Section> {
  const cases = driftCases();
  const now = driftFigures(cases, 'now');
  const before = driftFigures(cases, 'before');
  const rows: Row[] = [
    { figure: `drift: off-topic pages flagged (recall, ${now.counts.off} pages)`, ours: f2(now.offRecall), reference: `${f2(before.offRecall)} (rules before)`, goal: 'goal ≥ 0.80', met: now.offRecall >= 0.8, because: `${f2(now.offRecall)} < 0.80` },
    { figure: `drift: on-topic pages flagged (false positives, ${now.counts.on} pages)`, ours: f2(now.falsePositives), reference: `${f2(before.falsePositives)} (rules before)`, goal: 'goal ≤ 0.10', met: now.falsePositives <= 0.1, because: `${f2(now.falsePositives)} > 0.10` },
    { figure: `drift: other-release pages flagged (recall, ${now.counts.version} pages)`, ours: f2(now.versionRecall), reference: `${f2(before.versionRecall)} (rules before)`, goal: 'goal ≥ 0.80', met: now.versionRecall >= 0.8, because: `${f2(now.versionRecall)} < 0.80` },
    { figure: 'drift: precision (flagged pages that are off-topic or another release)', ours: f2(now.precision), reference: `${f2(before.precision)} (rules before)` },
  ];
  const miss = cases.filter((c) => (c.label === 'on') === c.now.length > 0).map((c) => `${c.thread} / ${c.page} (${c.label}${c.now.length ? `: ${c.now.join(', ')}` : ''})`);
  return {
    name: 'drift',
    title: 'Drift on a labelled set of real pages',
    rows,
    notes: [
      `${cases.length} labelled (thread, page) pairs over ${new Set(cases.map((c) => c.page)).size} pages and ${new Set(cases.map((c) => c.thread)).size} threads (bench/drift/set.json); recall over off-topic and other-release pages together: ${f2(now.recall)} (before ${f2(before.recall)}).`,
      heldOutNote(cases.filter((c) => c.heldOut)),
      miss.length ? `Wrong calls: ${miss.join('; ')}.` : 'No wrong calls.',
    ],
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.join(HERE, 'drift.ts')) {
  const s = await drift();
  for (const r of s.rows) console.log(`${r.figure}: ${r.ours} (${r.reference ?? ''}) ${r.goal ?? ''}`);
  for (const n of s.notes) console.log(n);
}
