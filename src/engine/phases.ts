import { PHASES, type Phase, type Saturation } from './types.js';

/** Rounds after which a phase is left even without HIGH saturation; VERIFY has no cap. */
export const PHASE_CAPS: Record<Phase, number | undefined> = {
  SURVEY: 2,
  EXTRACT: 3,
  DIVERSIFY: 2,
  VERIFY: undefined,
};

/** The thread's phases in canonical order; a strategy may omit phases but never reorder them. */
export function phaseOrder(strategy?: readonly Phase[]): Phase[] {
  if (!strategy || strategy.length === 0) return [...PHASES];
  return PHASES.filter((p) => strategy.includes(p));
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
  phase: Phase;
  roundsInPhase: number;
  saturation: Saturation;
  forceAdvance: boolean;
}): PhaseStep {
  const at = i.order.indexOf(i.phase);
  if (at < 0) throw new Error(`phase ${i.phase} is not in the thread's order ${i.order.join(', ')}`);
  const cap = PHASE_CAPS[i.phase];
  const isLast = at === i.order.length - 1;

  // L2 is named first because it is also the round's action; HIGH saturation before the cap because
  // it is the stronger signal that the phase's sources are spent.
  let trigger: string | undefined;
  if (i.forceAdvance) trigger = 'plateau L2: no new facts in 2 consecutive rounds';
  else if (i.saturation === 'HIGH') trigger = 'saturation HIGH';
  else if (cap !== undefined && i.roundsInPhase >= cap) {
    trigger = `${i.roundsInPhase} rounds in ${i.phase} (cap ${cap})`;
  }

  if (isLast) {
    const reason = trigger
      ? `${i.phase} is the last phase: stay (${trigger}, nothing to advance to)`
      : `${i.phase} is the last phase: stay`;
    return { next: i.phase, advanced: false, reason, isLast };
  }
  if (trigger) return { next: i.order[at + 1]!, advanced: true, reason: trigger, isLast };
  const progress = cap === undefined ? `${i.roundsInPhase} rounds` : `${i.roundsInPhase} of ${cap} rounds`;
  return { next: i.phase, advanced: false, reason: `stay: ${progress} in ${i.phase}`, isLast };
}
