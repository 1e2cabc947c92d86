// The worst case the tiers allow, built through the real tools: a deep run of 6 threads whose rounds
// each read 5 URLs and record 3 facts, every fact quote-checked against the stored page text.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { canonicalKey } from '../src/engine/canonical-url.js';
import type { RoundInput } from '../src/engine/round.js';
import { RunStore } from '../src/store/run-store.js';
import type { InProcess } from './in-process.js';

export const THREADS = 6;
export const ROUNDS = 10;
export const URLS_PER_ROUND = 5;
export const FACTS_PER_ROUND = 3;
/** Stored markdown per page: about a long article after extraction. */
export const PAGE_CHARS = 20_000;

const SUBJECTS = ['Iceland trial', 'UK pilot', 'Spain programme', 'Tokyo office test'];

export function threadName(t: number): string {
  return `Thread ${t + 1}: output and wellbeing`;
}

export function brief() {
  return {
    threads: Array.from({ length: THREADS }, (_, t) => ({
      name: threadName(t),
      sub_questions: [
        { id: 'SQ-1', question: `What happened to productivity in four-day week trials (angle ${t + 1})?` },
        { id: 'SQ-2', question: 'Which sectors and workplace sizes were measured, and for how long?' },
        { id: 'SQ-3', question: 'Which trials reversed the change afterwards, and why did employers return?' },
      ],
      subjects: SUBJECTS,
    })),
    assumptions: ['Output means output per hour unless a source says otherwise.'],
    disambiguation: { include: ['four-day week', 'productivity', 'trial'], exclude: ['school week', 'compressed hours'] },
    known_facts: [
      { fact: 'Iceland ran public-sector trials from 2015 to 2019.', confidence: 'HIGH' },
      { fact: 'The UK pilot in 2022 involved 61 companies.', confidence: 'HIGH' },
    ],
    scope: { regions: ['Europe', 'Japan'], period: { from: 2015, to: 2025 } },
  };
}

// ---- pages -------------------------------------------------------------------------------------------

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'the trial workers hours output week productivity employers managers staff survey results reported ' +
  'stress wellbeing balance sector council office hospital school retail logistics software teams pilot ' +
  'schedule reduced pay same days four five per cent increase decrease measured months year study report ' +
  'analysis researchers data sample baseline control group customers service quality turnover sick leave ' +
  'burnout recruitment retention costs revenue profits shifts rota overtime meetings focus time policy'
).split(' ');

export function sourceUrl(i: number): string {
  // Tracking parameters and a www. prefix, so canonical keys are computed, not copied.
  return `https://www.research.example.org/trials/report-${i}/?utm_source=newsletter&page=1`;
}

/** Sentence k of page i that facts quote; written with markup, quoted as plain text. */
function quotable(i: number, k: number): { markdown: string; quote: string } {
  const pct = ((i * 7 + k * 3) % 23) + 2;
  const sites = ((i * 13 + k) % 90) + 10;
  return {
    markdown: `In workplace group ${i}-${k}, **output per hour** rose by ${pct}% while [reported stress](https://example.org/stress/${i}/${k}) fell across ${sites} sites.`,
    quote: `In workplace group ${i}-${k}, output per hour rose by ${pct}% while reported stress fell across ${sites} sites.`,
  };
}

export function quoteOf(i: number, k: number): string {
  return quotable(i, k).quote;
}

/** A deterministic page of about `chars` characters: headings, prose with emphasis and links, a list, a table. */
export function page(i: number, chars = PAGE_CHARS): string {
  const rnd = prng(i + 1);
  const word = () => WORDS[Math.floor(rnd() * WORDS.length)] as string;
  const sentence = () => {
    const n = 8 + Math.floor(rnd() * 14);
    const ws = Array.from({ length: n }, word);
    const r = rnd();
    if (r < 0.15) ws[2] = `**${ws[2]}**`;
    else if (r < 0.25) ws[3] = `_${ws[3]}_`;
    else if (r < 0.35) ws[4] = `[${ws[4]}](https://example.org/${i}/${Math.floor(rnd() * 1000)})`;
    else if (r < 0.4) ws[1] = `\`${ws[1]}\``;
    const s = ws.join(' ');
    return `${s[0]?.toUpperCase()}${s.slice(1)}.`;
  };
  const parts: string[] = [`# Four-day week trial report ${i}`, ''];
  const quotesAt = [0.2, 0.5, 0.8].map((f) => Math.floor(chars * f));
  let size = 0;
  let placed = 0;
  let para = 0;
  while (size < chars) {
    let block: string;
    if (para % 7 === 6) block = `## ${sentence().replace(/\.$/, '')}`;
    else if (para % 11 === 10) block = Array.from({ length: 4 }, () => `- ${sentence()}`).join('\n');
    else if (para % 17 === 16) {
      block = ['| sector | hours | output |', '|---|---|---|', ...Array.from({ length: 4 }, () => `| ${word()} | ${30 + Math.floor(rnd() * 10)} | ${Math.floor(rnd() * 20)}% |`)].join('\n');
    } else {
      const sentences = Array.from({ length: 3 + Math.floor(rnd() * 4) }, sentence);
      while (placed < quotesAt.length && size >= (quotesAt[placed] as number)) {
        sentences.splice(1, 0, quotable(i, placed).markdown);
        placed++;
      }
      block = sentences.join(' ');
    }
    parts.push(block, '');
    size += block.length + 1;
    para++;
  }
  while (placed < quotesAt.length) parts.push(quotable(i, placed++).markdown, '');
  return parts.join('\n');
}

/** Seeds n stored sources through the store's own API, as fetch_source would leave them. */
export function seedSources(root: string, runId: string, n: number, chars = PAGE_CHARS): void {
  const store = new RunStore(root);
  for (let i = 0; i < n; i++) {
    const url = sourceUrl(i);
    store.addSourceLocked(runId, {
      url,
      canonical_key: canonicalKey(url),
      title: `Four-day week trial report ${i}`,
      markdown: page(i, chars),
      fetched_at: '2026-01-01T00:00:00.000Z',
    });
  }
}

// ---- rounds ------------------------------------------------------------------------------------------

/** Source index of URL slot k of round r (1-based) of thread t in a run of n sources. */
export function sourceIndex(t: number, r: number, k: number, n: number): number {
  return ((t * ROUNDS + (r - 1)) * URLS_PER_ROUND + k) % n;
}

const QUERY_TERMS = [
  ['four-day week', 'productivity', 'Iceland', 'public sector'],
  ['UK pilot', 'output per hour', 'companies', 'results'],
  ['Spain', 'reduced hours', 'manufacturing', 'evaluation'],
  ['Tokyo', 'office', 'compressed schedule', 'sales'],
  ['burnout', 'sick leave', 'registry', 'statistics'],
  ['retail', 'rota', 'customer service', 'quality'],
  ['hospital', 'nurses', 'shift', 'outcomes'],
  ['software', 'teams', 'deployment', 'velocity'],
  ['reversal', 'employers', 'returned', 'five days'],
  ['primary documents', 'council', 'minutes', 'decision'],
];

/** Round r (1-based) of thread t: 5 URLs, 3 facts quoted from the first 3, every update kind once. */
export function roundInput(t: number, r: number, n: number): RoundInput & { run_id?: string; thread?: string } {
  const urls = Array.from({ length: URLS_PER_ROUND }, (_, k) => sourceUrl(sourceIndex(t, r, k, n)));
  const subject = SUBJECTS[(r - 1) % SUBJECTS.length] as string;
  const terms = QUERY_TERMS[(r - 1) % QUERY_TERMS.length] as string[];
  return {
    query: `${terms.join(' ')} ${2015 + r} thread ${t + 1}`,
    urls_visited: urls,
    facts: Array.from({ length: FACTS_PER_ROUND }, (_, k) => {
      const i = sourceIndex(t, r, k, n);
      return {
        fact: `Thread ${t + 1}, round ${r}: in workplace group ${i}-${k} output per hour rose while reported stress fell.`,
        url: urls[k] as string,
        source_title: `Four-day week trial report ${i}`,
        quote: quoteOf(i, k),
        confidence: k === 2 ? ('PLAUSIBLE' as const) : ('VERIFIED' as const),
        notes: 'figure from the report body',
        sub_questions: [k === 0 ? 'SQ-1' : 'SQ-2'],
      };
    }),
    summary: `Round ${r} read five trial reports on ${subject}. Output per hour held or rose in every group measured. Stress fell; sector coverage is still thin.`,
    targeted_subjects: [subject],
    sub_question_updates: [
      { id: 'SQ-1', status: 'ANSWERED' as const, key_finding: 'Output per hour held or rose in the trials read.' },
      { id: 'SQ-2', status: 'PARTIAL' as const },
      { id: 'SQ-3', status: 'OPEN' as const },
    ],
    subject_updates: [{ name: subject, status: 'COVERED' as const, evidence: `round ${r} reports` }],
    disambiguation_updates: [`round ${r}: excluded pages about the school week`],
    contradictions: [
      {
        claim: `Round ${r}: did output rise in group ${sourceIndex(t, r, 0, n)}?`,
        source_a: 'rose by a few per cent',
        url_a: urls[0] as string,
        source_b: 'held flat',
        url_b: urls[1] as string,
        status: 'OPEN' as const,
        severity: 'LOW' as const,
      },
    ],
    next_focus: 'sector breakdown and reversals',
  };
}

export interface Built {
  runId: string;
  root: string;
  /** Thread 0's state file and its bytes before round r (index r − 1; index 0 is the fresh thread). */
  stateFile: string;
  before: string[];
  /** Thread 0's state bytes after each round 1..10, micro-report bytes, and reply text sizes. */
  stateBytes: number[];
  microReportBytes: number[];
  replyChars: number[];
}

/**
 * Starts the run, seeds n sources, and plays rounds 1..9 of every thread (and round 10 of thread 0, for
 * its sizes; its state is then put back to before round 10).
 */
export async function buildRun(s: InProcess, root: string, n: number, question: string): Promise<Built> {
  const start = await s.callTool('start_run', { question, depth: 'deep', brief: brief() });
  const sc = start.structuredContent as { run_id: string } | undefined;
  if (start.isError || !sc) throw new Error(`start_run refused: ${JSON.stringify(start.content)}`);
  const runId = sc.run_id;
  seedSources(root, runId, n);
  const built: Built = { runId, root, stateFile: '', before: [], stateBytes: [], microReportBytes: [], replyChars: [] };
  for (let t = 0; t < THREADS; t++) {
    const started = await s.callTool('start_thread', { run_id: runId, thread: threadName(t) });
    if (started.isError) throw new Error(`start_thread refused: ${JSON.stringify(started.content)}`);
  }
  const stateDir = path.join(root, runId, 'state');
  const thread0 = fs.readdirSync(stateDir).find((f) => f.startsWith('thread-thread-1'));
  if (!thread0) throw new Error(`no state file for ${threadName(0)} in ${stateDir}`);
  built.stateFile = path.join(stateDir, thread0);
  for (let r = 1; r <= ROUNDS; r++) {
    for (let t = 0; t < THREADS; t++) {
      if (r === ROUNDS && t > 0) continue;
      if (t === 0) built.before.push(fs.readFileSync(built.stateFile, 'utf8'));
      const reply = await s.callTool('record_round', { run_id: runId, thread: threadName(t), ...roundInput(t, r, n) });
      const out = reply.structuredContent as { round: number; micro_report: string; warnings: string[]; converged: boolean } | undefined;
      if (reply.isError || !out) throw new Error(`record_round ${r} of thread ${t + 1} refused: ${JSON.stringify(reply.content)}`);
      if (out.round !== r) throw new Error(`expected round ${r}, got ${out.round}`);
      if (out.converged && r < ROUNDS) throw new Error(`thread ${t + 1} converged early at round ${r}: ${JSON.stringify(out)}`);
      if (t === 0) {
        built.stateBytes.push(fs.statSync(built.stateFile).size);
        built.microReportBytes.push(fs.statSync(path.join(root, out.micro_report)).size);
        const text = (reply.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('');
        built.replyChars.push(text.length);
        const ungrounded = out.warnings.filter((w) => /not grounded/.test(w));
        if (ungrounded.length > 0) throw new Error(`round ${r}: facts not grounded, the scenario is wrong: ${ungrounded.join('; ')}`);
      }
    }
  }
  // Back to just before round 10 of thread 0: the round every measurement replays.
  fs.writeFileSync(built.stateFile, built.before[ROUNDS - 1] as string);
  return built;
}
