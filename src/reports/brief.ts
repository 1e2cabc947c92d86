import type { RunState } from '../store/run-store.js';
import { cell, inline, render } from './render.js';
import { phaseAllowances, phaseOrder } from '../engine/phases.js';
import { PHASES, type Phase, type SourceHints } from '../engine/types.js';

type BriefThread = { name: string; sub_questions: { id: string; question: string }[]; subjects: string[]; source_strategy?: string[]; source_hints?: SourceHints; primary_origins?: string[] };

export function renderBrief(run: RunState, criticThreads: BriefThread[] = []): string {
  const b = run.brief;
  const list = (xs: readonly string[] | undefined) => (xs && xs.length > 0 ? xs.map(inline).join(', ') : '—');
  const threads = [
    ...b.threads.map((t) => ({ ...t, critic: false })),
    ...criticThreads.map((t) => ({ ...t, critic: true })),
  ].map((t) => ({
    name: inline(t.name),
    critic: t.critic,
    sub_questions: t.sub_questions.map((q) => ({ id: inline(q.id), question: inline(q.question) })),
    subjects: list(t.subjects),
    primary: t.primary_origins && t.primary_origins.length > 0 ? list(t.primary_origins) : 'none named',
    strategy: strategyLine(t.source_strategy as Phase[] | undefined, run.budgets.rounds_per_thread),
    hints: hintsLine(t.source_hints, b.source_hints),
  }));
  return render('brief', {
    question: inline(run.question),
    run_id: run.run_id,
    depth: run.depth,
    assumptions: (b.assumptions ?? []).map(inline),
    threads,
    include: list(b.disambiguation?.include),
    exclude: list(b.disambiguation?.exclude),
    has_known_facts: (b.known_facts ?? []).length > 0,
    known_facts: (b.known_facts ?? []).map((k) => ({ fact: cell(k.fact), confidence: k.confidence })),
    regions: list(b.scope?.regions),
    period: b.scope?.period ? `${b.scope.period.from}–${b.scope.period.to}` : '—',
    budgets: run.budgets,
    max_fetches: run.max_fetches,
  });
}

/** "SURVEY (2) → EXTRACT (1) → …": the phase order with each phase's allowance at the run's budget. */
function strategyLine(strategy: Phase[] | undefined, budget: number): string {
  const order = phaseOrder(strategy);
  const a = phaseAllowances(order, budget);
  return order.map((p) => `${p} (${a[p] ?? 0})`).join(' → ');
}

/** The hints the thread's directives will use: its own per phase, else the run's. */
function hintsLine(own: SourceHints | undefined, run: SourceHints | undefined): string | undefined {
  const parts = PHASES.flatMap((p) => {
    const h = own?.[p] ?? run?.[p];
    return h && h.length > 0 ? [`${p}: ${h.map(inline).join(', ')}`] : [];
  });
  return parts.length > 0 ? parts.join('; ') : undefined;
}
