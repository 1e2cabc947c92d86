import type { CompletionReason } from '../engine/types.js';
import type { StoredFact, ThreadGap, ThreadState } from '../engine/thread-state.js';
import { subjectKeyFinding, subQuestionKeyFinding, supportingFact } from '../engine/key-findings.js';
import { canonicalKey } from '../engine/canonical-url.js';
import { contradictionsOf, heldAnswers, keyOrNone, runContradictions, withHolds, type RunContradiction } from '../engine/contradictions.js';

const keyOf = keyOrNone(canonicalKey);
import { normalizeFactText } from '../engine/facts.js';
import { cell, inline, render, sourceLink } from './render.js';
import { withFrontmatter } from '../format/frontmatter.js';
import { microReportName } from './micro-report.js';
import { basisCounts, originsLabel } from '../engine/basis.js';
import { unverifiedAnswers } from '../engine/verified-answers.js';

export function completionReportName(slug: string): string {
  return `thread-completion-${slug}.md`;
}

export interface SourceTitleLookup {
  (canonicalKey: string): { id: string; title: string } | undefined;
}

/** Value per SPEC 4.1: HIGH for 3+ grounded facts from the source, MEDIUM for 1–2, LOW for none. */
export function sourceValue(groundedFacts: number): 'HIGH' | 'MEDIUM' | 'LOW' {
  if (groundedFacts >= 3) return 'HIGH';
  if (groundedFacts >= 1) return 'MEDIUM';
  return 'LOW';
}

export function renderCompletionReport(
  state: ThreadState,
  reason: CompletionReason,
  gaps: ThreadGap[],
  lookup: SourceTitleLookup,
  /** Every thread's contradictions (run-wide ids); without it, the thread's own. */
  all: readonly RunContradiction[] = runContradictions([state]),
): string {
  const microReports = state.rounds.map((r) => microReportName(state.slug, r.round));
  const phases: string[] = [];
  for (const r of state.rounds) if (!phases.includes(r.phase)) phases.push(r.phase);

  // One row per canonical key, in order of first use, so URL variants of a page count once.
  const byKey = new Map<string, { url: string; rounds: number[]; title?: string; grounded: number }>();
  const touch = (key: string, url: string, round: number) => {
    let e = byKey.get(key);
    if (!e) {
      e = { url, rounds: [], grounded: 0 };
      byKey.set(key, e);
    }
    if (!e.rounds.includes(round)) e.rounds.push(round);
    return e;
  };
  for (const r of state.rounds) r.keys.forEach((k, i) => touch(k, r.urls[i] ?? k, r.round));
  for (const f of state.facts) {
    const e = touch(f.canonical_key, f.url, f.round);
    if (f.grounded) e.grounded += 1;
    if (!e.title && f.source_title) e.title = f.source_title;
  }
  // Numbered by source id, as report.md cites them; pages never stored follow in order of first use.
  const sources = [...byKey.entries()]
    .map(([key, e], order) => ({ e, order, stored: lookup(key) }))
    .sort((a, b) => idNumber(a.stored?.id) - idNumber(b.stored?.id) || a.order - b.order)
    .map(({ e, stored }) => ({
      id: stored ? sourceLink(stored.id) : cell(undefined),
      url: cell(e.url),
      title: cell(stored ? stored.title : e.title),
      rounds: e.rounds.sort((a, b) => a - b).join(', '),
      value: sourceValue(e.grounded),
    }));
  // A fact restated by a later round (a confirming one) is listed once, with every round that found it.
  const grounded: (StoredFact & { rounds: number[] })[] = [];
  for (const f of state.facts) {
    if (!f.grounded) continue;
    const same = grounded.find((g) => g.canonical_key === f.canonical_key && normalizeFactText(g.fact) === normalizeFactText(f.fact));
    if (!same) grounded.push({ ...f, rounds: [f.round] });
    else {
      if (!same.rounds.includes(f.round)) same.rounds.push(f.round);
      same.sub_questions = [...new Set([...same.sub_questions, ...f.sub_questions])];
    }
  }
  // The quote is not repeated here: the micro-report of the round that found the fact (linked at the top)
  // shows it (real runs' completion reports ran to 37k characters, mostly quotes shown twice).
  const factView = (f: StoredFact & { rounds: number[] }) => ({
    fact: inline(f.fact),
    source: [sourceLink(f.source_id, f.url), ...(f.also ?? []).map((a) => sourceLink(a.source_id, a.url))].join(', '),
    confidence: f.confidence,
    origins: inline(originsLabel(f)),
    rounds: `${f.rounds.length === 1 ? 'round' : 'rounds'} ${f.rounds.join(', ')}`,
  });
  const unlinked = grounded.filter((f) => f.sub_questions.length === 0);
  const factGroups = [
    ...state.sub_questions.map((q) => ({
      heading: `${inline(q.id)}: ${inline(q.question)}`,
      facts: grounded.filter((f) => f.sub_questions.includes(q.id)).map(factView),
    })),
    ...(unlinked.length > 0 ? [{ heading: 'Not linked to a sub-question', facts: unlinked.map(factView) }] : []),
  ];
  // Its own contradictions and other threads' on pages of its facts; a HIGH open one holds answers.
  const mine = contradictionsOf(state.name, state.facts, all, keyOf);
  const open = mine.filter((c) => c.status === 'OPEN');
  const resolved = mine.filter((c) => c.status === 'RESOLVED');
  const holds = heldAnswers(state.sub_questions, state.facts, all, keyOf);
  const shown = withHolds(state.sub_questions, holds);
  const recordedBy = (c: RunContradiction) => (c.thread === state.name ? 'this thread' : cell(c.thread));
  const maxNew = Math.max(1, ...state.rounds.map((r) => r.new_facts));
  const unverified = unverifiedAnswers(shown, state.facts);

  const body = render('thread-completion', {
    thread: inline(state.name),
    rounds_executed: state.rounds.length,
    round_budget: state.round_budget,
    convergence_reason: reason,
    micro_report_count: microReports.length,
    micro_reports: microReports,
    phases_line: phases.length > 0 ? phases.join(' → ') : '—',
    basis: basisCounts(grounded),
    unverified_line:
      unverified.length === 0
        ? 'none'
        : unverified.map((u) => `${inline(u.id)} (rests on ${u.origins.length > 0 ? u.origins.join(', ') : 'no grounded site'})`).join('; '),
    sub_questions: shown.map((q) => {
      const held = holds.find((h) => h.id === q.id);
      const computed = finding(subQuestionKeyFinding(q.id, state.facts, q.key_finding));
      // The investigator's own words, when a grounded fact linked to the sub-question supports them.
      const support = supportingFact(q.id, state.facts, q.key_finding);
      return {
        id: cell(q.id),
        question: cell(q.question),
        status: held ? `${q.status} (held by ${held.contradiction.id})` : q.status,
        confidence: cell(q.confidence),
        key_finding: support && q.key_finding ? `${cell(q.key_finding)} ${support.source_id ? sourceLink(support.source_id) : '[not stored]'}` : computed,
        computed_finding: support ? computed : 'same',
      };
    }),
    subjects: state.subjects.map((s) => ({ name: cell(s.name), rounds: s.rounds, status: s.status, key_finding: finding(subjectKeyFinding(s.name, state.facts, { evidence: s.evidence, targetedRounds: state.rounds.filter((r) => r.targeted_subjects.includes(s.name)).map((r) => r.round), others: state.subjects.map((o) => o.name) })) })),
    fact_groups: factGroups,
    has_sources: sources.length > 0,
    sources,
    has_open_contradictions: open.length > 0,
    open_contradictions: open.map((c) => ({
      id: c.id,
      claim: cell(c.claim),
      source_a: cell(c.source_a),
      source_b: cell(c.source_b),
      severity: c.severity,
      recorded_by: recordedBy(c),
    })),
    has_resolved_contradictions: resolved.length > 0,
    resolved_contradictions: resolved.map((c) => ({
      id: c.id,
      claim: cell(c.claim),
      source_a: cell(c.source_a),
      source_b: cell(c.source_b),
      resolution: c.resolution?.trim() ? cell(c.resolution) : 'not said',
      round: c.resolved_round ?? '—',
      recorded_by: recordedBy(c),
    })),
    has_gaps: gaps.length > 0,
    gaps: gaps.map((g) => ({
      gap: cell(g.gap),
      why_not_found: cell(g.why_not_found),
      rounds_attempted: g.rounds_attempted,
      next_step: cell(g.next_step),
    })),
    rounds: state.rounds.map((r) => ({
      round: r.round,
      new_facts: r.new_facts,
      confirming_facts: r.confirming_facts,
      saturation: r.saturation,
      phase: r.phase,
      escape: cell(r.escape_strategy),
    })),
    chart_x: state.rounds.map((r) => r.round).join(', '),
    chart_y: state.rounds.map((r) => r.new_facts).join(', '),
    chart_max: maxNew,
  });
  return withFrontmatter(
    {
      thread: state.name,
      round_budget: state.round_budget,
      rounds_executed: state.rounds.length,
      convergence_reason: reason,
      micro_reports: microReports,
      phases,
    },
    body,
  );
}

/** A key finding cell: the fact and the source id that grounds it, linked to its stored text, or a dash when no grounded fact fits. */
function finding(f: StoredFact | undefined): string {
  return f ? `${cell(f.fact)} ${f.source_id ? sourceLink(f.source_id) : '[not stored]'}` : '—';
}

function idNumber(id: string | undefined): number {
  const m = /^S(\d+)$/.exec(id ?? '');
  return m ? Number(m[1]) : Number.MAX_SAFE_INTEGER;
}
