import type { Contradiction, RoundRecord, ThreadState } from '../engine/thread-state.js';
import { block, cell, inline, render, sourceLink } from './render.js';
import { withFrontmatter } from '../format/frontmatter.js';
import { originsLabel } from '../engine/basis.js';
import { DEAD_END_REASON } from '../engine/origin-exhaustion.js';
import { STALE_PREFIX } from '../engine/stale-round.js';

export function microReportName(slug: string, round: number): string {
  return `micro-report-${slug}-round-${round}.md`;
}

/** Renders round `round` of the thread from state alone (the timestamp is the one recorded). */
export function renderMicroReport(state: ThreadState, round: number, othersUpdated: readonly Contradiction[] = []): string {
  const r = state.rounds[round - 1] as RoundRecord;
  const facts = state.facts.filter((f) => f.round === round);
  // Ids are run-wide: a round may update another thread's contradiction.
  const contradictions = [...state.contradictions, ...othersUpdated].filter((c) => r.contradiction_ids.includes(c.id));
  const remaining = r.remaining_gaps;
  const body = render('micro-report', {
    thread: inline(state.name),
    round: r.round,
    query: inline(r.query).replace(/`/g, "'"),
    summary: block(r.summary),
    queries: [r.query, ...(r.queries ?? [])].map((q, i, all) => ({ q: inline(q).replace(/`/g, "'"), last: i === all.length - 1 })),
    overlap_on: (r.overlap_on ?? 'urls_visited') === 'search_results' ? 'the search results' : 'the URLs visited',
    has_facts: facts.length > 0,
    facts: facts.map((f, i) => ({
      n: i + 1,
      fact: cell(f.fact),
      quote: f.quote?.trim() ? `"${cell(f.quote)}"` : '—',
      // The id a report cites, linked to the page, so a reviewer can open the source from the table.
      source: [sourceLink(f.source_id, f.url), ...(f.also ?? []).map((a) => sourceLink(a.source_id, a.url))].join(', '),
      confidence: f.confidence,
      origins: cell(originsLabel(f)),
      notes: cell([f.is_new ? 'new' : 'confirming', ...(f.also ?? []).map((a) => `also "${a.quote}" [${a.source_id ?? 'not stored'}]`), f.notes].filter(Boolean).join('; ')),
    })),
    has_subject_changes: r.subject_changes.length > 0,
    subject_changes: r.subject_changes.map((c) => ({ name: cell(c.name), prior: c.prior, next: c.next, evidence: cell(c.evidence) })),
    disambiguation_updates: r.disambiguation_updates.map(inline),
    has_contradictions: contradictions.length > 0,
    contradictions: contradictions.map((c) => ({
      id: c.id,
      claim: cell(c.claim),
      source_a: cell(c.source_a),
      source_b: cell(c.source_b),
      status: c.status,
    })),
    new_facts: r.new_facts,
    confirming_facts: r.confirming_facts,
    saturation: r.saturation,
    url_overlap: r.url_overlap.toFixed(2),
    plateau_level: `L${r.plateau_level}`,
    escape_strategy: r.escape_strategy,
    action: r.action,
    stop: r.converged,
    phase_move: r.converged ? 'STOP' : r.next_phase === r.phase ? 'STAY' : 'ADVANCE',
    phase: r.phase,
    next_phase: r.next_phase,
    phase_reason: r.converged
      ? `thread converged: ${r.convergence_reason ?? ''}${r.phase_reason.startsWith(DEAD_END_REASON) ? ` (${DEAD_END_REASON} and nothing new)` : r.phase_reason.startsWith(STALE_PREFIX) ? ` (${r.phase_reason.split(': the thread stopped')[0]})` : ''}`
      : r.phase_reason,
    focus: inline(r.next_focus),
    forced_subject: r.forced_subject_next,
    reformulate_from: r.reformulate_from_next === undefined ? undefined : inline(r.reformulate_from_next).replace(/`/g, "'"),
    remaining_gaps: remaining.length > 0 ? remaining.join('; ') : 'none',
    has_warnings: r.warnings.length > 0,
    warnings: r.warnings.map(inline),
  });
  return withFrontmatter(
    {
      thread: state.name,
      round: r.round,
      strategy_phase: r.phase,
      timestamp: r.timestamp,
      sources_consulted: r.urls.length,
      new_facts: r.new_facts,
      confirming_facts: r.confirming_facts,
      saturation: r.saturation,
    },
    body,
  );
}
