// The status block start_thread and thread_status share. The output schema lists the SPEC fields; the
// reply also carries sub-question, subject and fact counts for the status command.
import { nextDirectives } from '../engine/directives.js';
import { phasePlan } from '../engine/phases.js';
import type { Phase } from '../engine/types.js';
import type { ThreadState } from '../engine/thread-state.js';
import type { HeldAnswer } from '../engine/contradictions.js';
import type { RunState } from '../store/run-store.js';
import * as z from 'zod';
import { directivesOut, phase } from './schemas.js';

export const threadStatusOutput = () => ({
  thread: z.string(),
  round_budget: z.number(),
  rounds_completed: z.number(),
  phase: phase(),
  phases: z.array(z.string()),
  converged: z.boolean(),
  degraded: z.boolean(),
  next: directivesOut().optional(),
});

/** `held`: answers an OPEN HIGH contradiction of the run holds at PARTIAL (contradictions.ts). */
export function threadSummary(run: RunState, s: ThreadState, held: readonly HeldAnswer[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {
    thread: s.name,
    round_budget: s.round_budget,
    rounds_completed: s.rounds.length,
    phase: s.phase,
    phases: phaseSummary(s),
    converged: s.converged,
    convergence_reason: s.convergence_reason,
    completed: s.completed !== undefined,
    degraded: run.fetch.degraded,
    sub_questions: s.sub_questions.map((q) => {
      const h = held.find((x) => x.id === q.id);
      return `${q.id} ${h ? `PARTIAL (held by ${h.contradiction.id})` : q.status}${q.confidence ? ` ${q.confidence}` : ''}`;
    }),
    subjects: s.subjects.map((x) => `${x.name}: ${x.rounds} rounds, ${x.status}`),
    facts: s.facts.length,
  };
  if (s.definition.primary_origins && s.definition.primary_origins.length > 0) out.primary_origins = s.definition.primary_origins;
  if (!s.converged && !s.completed) out.next = nextDirectives(s);
  return out;
}

/** "SURVEY 2 of 2 rounds (done)": each phase's rounds spent, the rounds it has, and where the thread is. */
export function phaseSummary(s: ThreadState): string[] {
  const roundsByPhase: Partial<Record<Phase, number>> = {};
  for (const r of s.rounds) roundsByPhase[r.phase] = (roundsByPhase[r.phase] ?? 0) + 1;
  const plan = phasePlan({ order: s.phase_order, budget: s.round_budget, phase: s.phase, roundsByPhase, converged: s.converged || s.completed !== undefined });
  return plan.map((p) => `${p.phase} ${p.rounds} of ${p.allowance} round${p.allowance === 1 ? '' : 's'} (${p.state})`);
}
