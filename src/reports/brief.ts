import type { RunState } from '../store/run-store.js';
import { cell, inline, render } from './render.js';
import { phaseOrder } from '../engine/phases.js';

export function renderBrief(run: RunState, criticThreads: { name: string; sub_questions: { id: string; question: string }[]; subjects: string[]; source_strategy?: string[] }[] = []): string {
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
    strategy: phaseOrder(t.source_strategy as never).join(' → '),
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
