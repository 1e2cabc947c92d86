// `deep-research lint`: every micro-report and completion report carries the frontmatter and sections
// SPEC 6 requires, and every fact row links its source to its URL.
import { splitFrontmatter } from '../format/frontmatter.js';
import { COMPLETION_FIELDS, COMPLETION_SECTIONS, MICRO_REPORT_FIELDS, MICRO_REPORT_SECTIONS } from './spec-sections.js';

export interface LintProblem {
  file: string;
  line: number;
  message: string;
}

export function lintArtifact(file: string, text: string): LintProblem[] {
  const base = file.split('/').at(-1) ?? file;
  if (base.startsWith('micro-report-')) return lintDoc(file, text, MICRO_REPORT_FIELDS, MICRO_REPORT_SECTIONS, true);
  if (base.startsWith('thread-completion-')) {
    const problems = lintDoc(file, text, COMPLETION_FIELDS, COMPLETION_SECTIONS, false);
    const lines = text.split('\n');
    for (const [re, what] of [
      [/^# Thread Completion Report: .+/, 'a "# Thread Completion Report: <name>" title'],
      [/^Rounds executed: \d+ of \d+$/, 'a "Rounds executed: <n> of <budget>" line'],
      [/^Convergence reason: (CRITERIA_MET|BUDGET_EXHAUSTED|PLATEAU_STOPPED|ENDED_EARLY)$/, 'a "Convergence reason: <reason>" line'],
    ] as const) {
      if (!lines.some((l) => re.test(l))) problems.push({ file, line: 1, message: `missing ${what}` });
    }
    if (!text.includes('```mermaid')) problems.push({ file, line: 1, message: 'Plateau History has no mermaid chart' });
    return problems;
  }
  return [];
}

function lintDoc(file: string, text: string, fields: readonly string[], sections: readonly string[], factRows: boolean): LintProblem[] {
  const problems: LintProblem[] = [];
  const parsed = splitFrontmatter(text);
  if (!parsed) return [{ file, line: 1, message: 'no YAML frontmatter' }];
  for (const f of fields) {
    if (!(f in parsed.data)) problems.push({ file, line: 1, message: `frontmatter lacks "${f}"` });
  }
  const lines = text.split('\n');
  let last = -1;
  for (const s of sections) {
    const idx = lines.findIndex((l) => l === `## ${s}`);
    if (idx < 0) problems.push({ file, line: 1, message: `missing section "## ${s}"` });
    else if (idx < last) problems.push({ file, line: idx + 1, message: `section "## ${s}" is out of order` });
    else last = idx;
  }
  if (factRows) {
    const start = lines.findIndex((l) => l === '## Facts Extracted');
    for (let i = start + 1; start >= 0 && i < lines.length && !lines[i]?.startsWith('## '); i++) {
      const l = lines[i] ?? '';
      if (!l.startsWith('|') || l.startsWith('| #') || l.startsWith('| ---')) continue;
      const cells = l.split(/(?<!\\)\|/).map((c) => c.trim());
      // Columns: #, Fact, Quote, Source ([S<n>](sources/S<n>.md) <url>, or an older run's [S<n>](url)), Confidence, Notes.
      const src = cells[4] ?? '';
      if (!/^\[(S\d+)\]\(sources\/\1\.md\) <(?:https?:\/\/|local:)[^>\s]+>$/.test(src) && !/^\[[^\]]+\]\(https?:\/\/[^)\s]+\)$/.test(src)) {
        problems.push({ file, line: i + 1, message: 'fact row has no source linked to its stored file and URL' });
      }
    }
  }
  return problems;
}
