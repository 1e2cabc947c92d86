import { PHASES, type Phase, type Saturation } from './types.js';

/**
 * The most rounds the deal gives a phase that is not the thread's last (SPEC 4.1 allowances). The last
 * phase has no maximum: it takes every round the others do not.
 */
export const PHASE_MAX: Record<Phase, number> = {
  SURVEY: 2,
  EXTRACT: 3,
  DIVERSIFY: 2,
  // VERIFY is the last phase whenever a strategy lists it.
  VERIFY: Number.POSITIVE_INFINITY,
};

/** The thread's phases in canonical order; a strategy may omit phases but never reorder them. */
export function phaseOrder(strategy?: readonly Phase[]): Phase[] {
  if (!strategy || strategy.length === 0) return [...PHASES];
  return PHASES.filter((p) => strategy.includes(p));
}

export type Allowances = Partial<Record<Phase, number>>;

/**
 * Deals the round budget over the phase order one round at a time (SPEC 4.1): first the last phase, then
 * one to each earlier phase in order, then again one to each earlier phase still below its maximum;
 * whatever is left goes to the last phase. The last phase is dealt first so that a short budget still
 * reaches primary sources; the earlier phases are capped so that a long budget does not spend itself on
 * overviews.
 */
export function phaseAllowances(order: readonly Phase[], budget: number): Allowances {
  const out: Allowances = Object.fromEntries(order.map((p) => [p, 0]));
  const last = order.at(-1);
  if (last === undefined || budget <= 0) return out;
  let left = budget;
  out[last] = 1;
  left--;
  const earlier = order.slice(0, -1);
  let dealt = true;
  while (left > 0 && dealt) {
    dealt = false;
    for (const p of earlier) {
      if (left === 0) break;
      if ((out[p] ?? 0) >= PHASE_MAX[p]) continue;
      out[p] = (out[p] ?? 0) + 1;
      left--;
      dealt = true;
    }
  }
  out[last] = (out[last] ?? 0) + left;
  return out;
}

/** The first phase of the order at or after `from` that gets a round; the last phase always does. */
export function firstPhaseWithRounds(order: readonly Phase[], allowances: Allowances, from = 0): Phase {
  for (let i = from; i < order.length; i++) {
    const p = order[i]!;
    if ((allowances[p] ?? 0) > 0 || i === order.length - 1) return p;
  }
  return order.at(-1) ?? 'SURVEY';
}

export interface PhaseStep {
  next: Phase;
  advanced: boolean;
  reason: string;
  /** Whether `phase` is the last phase of the order. */
  isLast: boolean;
}

/**
 * Decides the phase of the next round (SPEC 4.1 source phases). `roundsInPhase` counts the completed
 * rounds in `phase`, this one included; `forceAdvance` is plateau L2.
 */
export function nextPhase(i: {
  order: readonly Phase[];
  allowances: Allowances;
  phase: Phase;
  roundsInPhase: number;
  saturation: Saturation;
  forceAdvance: boolean;
}): PhaseStep {
  const at = i.order.indexOf(i.phase);
  if (at < 0) throw new Error(`phase ${i.phase} is not in the thread's order ${i.order.join(', ')}`);
  const allowance = i.allowances[i.phase] ?? 0;
  const isLast = at === i.order.length - 1;

  if (isLast) return { next: i.phase, advanced: false, reason: `${i.phase} is the last phase: stay`, isLast };

  // L2 is named first because it is also the round's action; HIGH saturation before the allowance
  // because it is the stronger signal that the phase's sources are spent.
  let trigger: string | undefined;
  if (i.forceAdvance) trigger = 'plateau L2: no new facts in 2 consecutive rounds';
  else if (i.saturation === 'HIGH') trigger = 'saturation HIGH: few new facts this round';
  else if (i.roundsInPhase >= allowance) trigger = `allowance used: ${i.roundsInPhase} of ${allowance} rounds in ${i.phase}`;

  if (trigger) {
    const next = firstPhaseWithRounds(i.order, i.allowances, at + 1);
    const skipped = i.order.slice(at + 1, i.order.indexOf(next));
    const skip = skipped.length ? ` (${skipped.join(', ')} skipped: no round allowed)` : '';
    return { next, advanced: true, reason: `${trigger}; advance to ${next}${skip}`, isLast };
  }
  return { next: i.phase, advanced: false, reason: `stay: ${i.roundsInPhase} of ${allowance} rounds in ${i.phase}`, isLast };
}

/**
 * Where each phase stands: rounds spent and the rounds it has (spent ones for phases already left,
 * the deal for the rest, whatever the budget leaves for the last phase).
 */
export function phasePlan(i: {
  order: readonly Phase[];
  budget: number;
  phase: Phase;
  roundsByPhase: Partial<Record<Phase, number>>;
  converged: boolean;
}): { phase: Phase; rounds: number; allowance: number; state: 'done' | 'now' | 'ahead' | 'skipped' }[] {
  const dealt = phaseAllowances(i.order, i.budget);
  const at = i.order.indexOf(i.phase);
  const rows = i.order.map((p, idx) => {
    const rounds = i.roundsByPhase[p] ?? 0;
    const state: 'done' | 'now' | 'ahead' | 'skipped' =
      idx < at ? (rounds === 0 ? 'skipped' : 'done') : idx === at ? (i.converged ? 'done' : 'now') : (dealt[p] ?? 0) === 0 ? 'skipped' : 'ahead';
    const allowance = idx < at ? rounds : (dealt[p] ?? 0);
    return { phase: p, rounds, allowance, state };
  });
  const last = rows.at(-1);
  if (last) last.allowance = Math.max(last.rounds, i.budget - rows.slice(0, -1).reduce((n, r) => n + Math.max(r.allowance, r.rounds), 0));
  return rows;
}
