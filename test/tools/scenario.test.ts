// One thread driven through L1, a cap advance, a HIGH-saturation advance, L2, a forced subject and an
// L3 stop, then the micro-reports and the completion report checked section by section.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import matter from 'gray-matter';
import { connect, type Harness } from '../helpers/mcp.js';
import { PAGE, QUESTION, seedSource } from '../helpers/fixtures.js';
import { COMPLETION_FIELDS, COMPLETION_SECTIONS, MICRO_REPORT_FIELDS, MICRO_REPORT_SECTIONS } from '../../src/reports/spec-sections.js';
import { lintArtifact } from '../../src/reports/lint.js';

const T = 'Trials and output';
const url = (c: string) => `https://example.org/${c}`;
const fact = (c: string, n: number, text?: string) => ({
  fact: text ?? `Output per hour rose by ${n}% in pilot ${c}.`,
  url: url(c),
  quote: `Output per hour rose by ${n}% in the pilot group`,
  confidence: 'PLAUSIBLE',
  sub_questions: ['SQ-1'],
});

let h: Harness;
let runId: string;
const replies: Record<string, any>[] = [];

beforeAll(async () => {
  h = await connect();
  const r = await h.ok('start_run', {
    question: QUESTION,
    depth: 'deep',
    brief: {
      threads: [{ name: T, sub_questions: [{ id: 'SQ-1', question: 'What happened to productivity in trials?' }], subjects: ['Iceland trial', 'UK pilot'] }],
    },
  });
  runId = r.run_id;
  const letters = 'ABCDEFGHI'.split('');
  const start = await h.ok('start_thread', { run_id: runId, thread: T });
  expect(start.next).toMatchObject({ round: 1, phase: 'SURVEY' });
  // Each page is stored as the round that first reads it fetches it (a page stored before a round that
  // reads nothing else would make that round stale).
  const seeded = new Set<string>();
  const round = async (args: Record<string, unknown>) => {
    for (const u of args.urls_visited as string[]) {
      const c = /example\.org\/([A-I])/.exec(u)?.[1];
      if (c === undefined || seeded.has(c)) continue;
      seeded.add(c);
      const stored = await seedSource(h.root, runId, url(c), PAGE(letters.indexOf(c) + 1), `Report ${c}`);
      // As the procedure reads: a drift check after each fetch, before extracting from the page.
      await h.ok('check_drift', { run_id: runId, thread: T, source_id: stored.id });
    }
    const reply = await h.ok('record_round', { run_id: runId, thread: T, summary: 'round summary', search_results: args.urls_visited, ...args });
    replies.push(reply);
    return reply;
  };
  await round({ query: 'four-day week trial productivity Iceland', urls_visited: [url('A'), url('B'), url('C')], facts: [fact('A', 1), fact('B', 2), fact('C', 3)], targeted_subjects: ['Iceland trial'] });
  await round({ query: 'four-day week trial productivity Iceland results', urls_visited: [url('A'), url('B'), url('C') + '?utm_source=x'], facts: [fact('A', 1, 'Iceland trial kept output flat.'), fact('B', 2, 'Most workplaces kept output.')] });
  await round({ query: 'shorter working hours registry statistics', urls_visited: [url('D'), url('E')], facts: [{ ...fact('D', 4, 'Output per hour rose in pilot A.'), confirms_known: true }] });
  await round({ query: 'forum discussion compressed schedule experience', urls_visited: [url('F')], facts: [] });
  await round({ query: 'primary report reduced hours pilot', urls_visited: [url('G')], facts: [fact('G', 7)] });
  await round({ query: 'government evaluation document hours pilot', urls_visited: [url('H')], facts: [fact('H', 8)] });
  await round({ query: 'UK pilot 2022 evaluation employers', urls_visited: [url('H'), url('I')], facts: [fact('I', 9)], targeted_subjects: ['UK pilot'] });
  await round({ query: 'UK pilot 2022 employer survey cambridge', urls_visited: [url('H'), url('I')], facts: [] });
});
afterAll(async () => h?.close());

describe('a thread through every plateau level', () => {
  it('round 1: first round, no overlap, continue in SURVEY', () => {
    expect(replies[0]).toMatchObject({ round: 1, new_facts: 3, saturation: 'MEDIUM', url_overlap: 0, plateau_level: 0, action: 'CONTINUE', phase: 'SURVEY', next_phase: 'SURVEY' });
  });
  it('round 2: same URLs (one with a tracking parameter) → L1; SURVEY\'s allowance is used, so the action is ADVANCE_PHASE', () => {
    expect(replies[1]).toMatchObject({ round: 2, new_facts: 2, url_overlap: 1, overlap_on: 'search_results', plateau_level: 1, action: 'ADVANCE_PHASE', escape_strategy: 'query reformulation', phase: 'SURVEY', next_phase: 'EXTRACT' });
    expect(replies[1]!.phase_reason).toMatch(/^allowance used: 2 of 2 rounds in SURVEY/);
    expect(replies[1]!.next.reformulate_from).toBe('four-day week trial productivity Iceland results');
  });
  it('round 3: a reformulated query passes; zero new facts give HIGH saturation and advance', () => {
    expect(replies[2]).toMatchObject({ new_facts: 0, confirming_facts: 1, saturation: 'HIGH', plateau_level: 0, action: 'ADVANCE_PHASE', phase: 'EXTRACT', next_phase: 'DIVERSIFY' });
    expect(replies[2]!.phase_reason).toMatch(/^saturation HIGH/);
    expect(replies[2]!.warnings).toEqual([]);
  });
  it('round 4: second round without new facts → L2 forces the phase on with the next escape', () => {
    expect(replies[3]).toMatchObject({ plateau_level: 2, action: 'ADVANCE_PHASE', escape_strategy: 'source-type shift', phase: 'DIVERSIFY', next_phase: 'VERIFY' });
  });
  it('round 6: past half the budget with an untouched subject → the next round is forced onto it', () => {
    expect(replies[4]!.forced_subject).toBeUndefined();
    expect(replies[5]).toMatchObject({ round: 6, forced_subject: 'UK pilot' });
    expect(replies[5]!.next.forced_subject).toBe('UK pilot');
  });
  it('round 8: repeated URLs and nothing new → L3 stop, PLATEAU_STOPPED', () => {
    expect(replies[6]).toMatchObject({ url_overlap: 0.5, plateau_level: 0, action: 'CONTINUE' });
    expect(replies[7]).toMatchObject({ url_overlap: 1, plateau_level: 3, action: 'STOP', converged: true, convergence_reason: 'PLATEAU_STOPPED' });
    expect(replies[7]!.next).toBeUndefined();
  });
  it('refuses a round after convergence and writes nothing', async () => {
    const text = await h.refused('record_round', { run_id: runId, thread: T, query: 'q', urls_visited: [], facts: [], summary: 's' });
    expect(text).toMatch(/complete_thread/);
    expect(fs.existsSync(path.join(h.root, runId, 'micro-report-' + replies[0]!.micro_report.split('micro-report-')[1]!.replace('round-1', 'round-9')))).toBe(false);
  });

  it('micro-reports carry the SPEC frontmatter and sections in order', () => {
    for (const [i, r] of replies.entries()) {
      const file = path.join(h.root, r.micro_report);
      const text = fs.readFileSync(file, 'utf8');
      const fm = matter(text, {});
      for (const f of MICRO_REPORT_FIELDS) expect(fm.data).toHaveProperty(f);
      expect(fm.data.round).toBe(i + 1);
      expect(fm.data.strategy_phase).toBe(r.phase);
      expect(fm.data.new_facts).toBe(r.new_facts);
      expect(fm.data.saturation).toBe(r.saturation);
      const headings = text.split('\n').filter((l) => l.startsWith('## ')).map((l) => l.slice(3));
      expect(headings).toEqual([...MICRO_REPORT_SECTIONS]);
      expect(lintArtifact(path.basename(file), text)).toEqual([]);
    }
    const r2 = fs.readFileSync(path.join(h.root, replies[1]!.micro_report), 'utf8');
    expect(r2).toContain('| 1 | Iceland trial kept output flat. | "Output per hour rose by 1% in the pilot group" | [S1](sources/S1.md) <https://example.org/A> | PLAUSIBLE |');
    expect(r2).toContain('- Suggested focus: ');
    // The STOP round suggests nothing: there is no next round.
    const r8 = fs.readFileSync(path.join(h.root, replies[7]!.micro_report), 'utf8');
    expect(r8).toContain('- Phase: STOP');
    expect(r8).not.toContain('Suggested focus');
    expect(r2).toMatch(/Phase: ADVANCE \(SURVEY → EXTRACT\)/);
    expect(r2).toContain('Reformulate away from: `four-day week trial productivity Iceland results`');
  });

  it('complete_thread writes the completion report, section by section, idempotently', async () => {
    const c = await h.ok('complete_thread', {
      run_id: runId,
      thread: T,
      gaps: [{ gap: 'Long-run effects', why_not_found: 'No study past two years', rounds_attempted: 2, next_step: 'Search 2025 follow-ups' }],
    });
    expect(c).toMatchObject({ convergence_reason: 'PLATEAU_STOPPED', rounds_executed: 8 });
    const file = path.join(h.root, c.path);
    const text = fs.readFileSync(file, 'utf8');
    const fm = matter(text, {});
    for (const f of COMPLETION_FIELDS) expect(fm.data).toHaveProperty(f);
    expect(fm.data.phases).toEqual(['SURVEY', 'EXTRACT', 'DIVERSIFY', 'VERIFY']);
    expect(fm.data.micro_reports).toHaveLength(8);
    expect(text).toContain(`# Thread Completion Report: ${T}\n`);
    expect(text).toContain('Rounds executed: 8 of 10\n');
    expect(text).toContain('Convergence reason: PLATEAU_STOPPED\n');
    const headings = text.split('\n').filter((l) => l.startsWith('## ')).map((l) => l.slice(3));
    expect(headings).toEqual([...COMPLETION_SECTIONS]);
    // A: 2 grounded facts (rounds 1, 2) → MEDIUM; H: none grounded from it → LOW.
    expect(text).toContain('| [S1](sources/S1.md) | https://example.org/A | Report A | 1, 2 | MEDIUM |');
    expect(text).toContain('| [S8](sources/S8.md) | https://example.org/H | Report H | 6, 7, 8 | MEDIUM |');
    // Key findings are grounded facts: the latest linked one, and for a subject one that names it.
    expect(text).toContain('| SQ-1 | What happened to productivity in trials? | OPEN | — | Output per hour rose by 9% in pilot I. [S9](sources/S9.md) |');
    expect(text).toContain('| Iceland trial | 1 | PARTIAL | Iceland trial kept output flat. [S1](sources/S1.md) |');
    expect(text).toContain('| UK pilot | 1 | PARTIAL | — |');
    expect(text).toContain('**SQ-1: What happened to productivity in trials?**\n\n- Output per hour rose by 1% in pilot A. [S1](sources/S1.md) <https://example.org/A> (PLAUSIBLE, origins 1: example.org, round 1)\n');
    expect(text).toContain('| Long-run effects | No study past two years | 2 | Search 2025 follow-ups |');
    expect(text).toContain('| 4 | 0 | 0 | HIGH | DIVERSIFY | source-type shift |');
    expect(text).toContain('xychart-beta');
    expect(text).toContain('bar [3, 2, 0, 0, 1, 1, 1, 0]');
    expect(lintArtifact(path.basename(file), text)).toEqual([]);
    const again = await h.ok('complete_thread', { run_id: runId, thread: T });
    expect(again.path).toBe(c.path);
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
  });
});
