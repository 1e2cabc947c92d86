// Reading the files the server writes (brief.md, thread-completion-*.md) the way a model would: by their
// headings and tables. Only what the scripted policy acts on is extracted.
import { stripLineNumbers } from './reply.js';

export interface BriefThreadView {
  name: string;
  critic: boolean;
  subQuestions: { id: string; question: string }[];
  subjects: string[];
}

export interface BriefView {
  threads: BriefThreadView[];
  include: string[];
  exclude: string[];
  resultsPerRound?: number;
}

const listValue = (v: string) => (v.trim() === '—' || v.trim() === '' ? [] : v.split(', ').map((x) => x.trim()));

export function parseBrief(raw: string): BriefView {
  const text = stripLineNumbers(raw);
  const threads: BriefThreadView[] = [];
  let section = '';
  let current: BriefThreadView | undefined;
  const view: BriefView = { threads, include: [], exclude: [] };
  for (const line of text.split('\n')) {
    const h2 = /^## (.+)$/.exec(line);
    if (h2) {
      section = h2[1]!.trim();
      current = undefined;
      continue;
    }
    if (section === 'Threads') {
      const h3 = /^### (.+?)( \(critic thread\))?$/.exec(line);
      if (h3) {
        current = { name: h3[1]!, critic: h3[2] !== undefined, subQuestions: [], subjects: [] };
        threads.push(current);
        continue;
      }
      const sq = /^- ([^:]+): (.+)$/.exec(line);
      if (current && sq) current.subQuestions.push({ id: sq[1]!.trim(), question: sq[2]!.trim() });
      const subjects = /^Subjects: (.*)$/.exec(line);
      if (current && subjects) current.subjects = listValue(subjects[1]!);
    } else if (section === 'Disambiguation') {
      const inc = /^- Include: (.*)$/.exec(line);
      if (inc) view.include = listValue(inc[1]!);
      const exc = /^- Exclude: (.*)$/.exec(line);
      if (exc) view.exclude = listValue(exc[1]!);
    } else if (section === 'Budgets') {
      const row = /^\| Results per round \| (\d+) \|/.exec(line);
      if (row) view.resultsPerRound = Number(row[1]);
    }
  }
  return view;
}

export interface CompletionView {
  thread: string;
  roundsExecuted: number;
  convergenceReason: string;
  subQuestions: { id: string; question: string; status: string; confidence: string }[];
  sources: { url: string; title: string; value: string }[];
}

/** Splits a markdown table row on unescaped pipes. */
export function cells(row: string): string[] {
  const inner = row.trim().replace(/^\|/, '').replace(/\|$/, '');
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i]!;
    if (ch === '\\' && inner[i + 1] === '|') {
      cur += '|';
      i++;
    } else if (ch === '|') {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  out.push(cur.trim());
  return out;
}

export function parseCompletion(raw: string): CompletionView {
  const text = stripLineNumbers(raw);
  const view: CompletionView = { thread: '', roundsExecuted: 0, convergenceReason: '', subQuestions: [], sources: [] };
  let section = '';
  for (const line of text.split('\n')) {
    const title = /^# Thread Completion Report: (.+)$/.exec(line);
    if (title) view.thread = title[1]!.trim();
    const rounds = /^Rounds executed: (\d+)/.exec(line);
    if (rounds) view.roundsExecuted = Number(rounds[1]);
    const reason = /^Convergence reason: ([A-Z_]+)/.exec(line);
    if (reason) view.convergenceReason = reason[1]!;
    const h2 = /^## (.+)$/.exec(line);
    if (h2) {
      section = h2[1]!.trim();
      continue;
    }
    if (!line.startsWith('|') || /^\|\s*-/.test(line)) continue;
    const c = cells(line);
    if (section === 'Sub-Question Status' && c[0] !== 'ID' && c.length >= 4) {
      view.subQuestions.push({ id: c[0]!, question: c[1]!, status: c[2]!, confidence: c[3]! });
    } else if (section === 'All Sources Consulted' && c[0] !== 'Source' && c.length >= 5) {
      view.sources.push({ url: c[1]!, title: c[2]!, value: c[4]! });
    }
  }
  return view;
}
