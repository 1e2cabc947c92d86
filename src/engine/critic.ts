// Critic loop (SPEC 4.1): when to stop critiquing, and which gap to chase next.
import type { GapKind } from './types.js';

export interface CriticGap {
  kind: GapKind;
  description: string;
  query: string;
  priority: number;
  material: boolean;
  unanswerable?: boolean;
}

export interface CriticState {
  rounds: number;
  clean_signoffs: number;
  open_questions: string[];
}

export interface CritiqueOutcome {
  state: CriticState;
  stop: boolean;
  next_target?: string;
  open_material_gaps: number;
  clean: boolean;
}

export const CLEAN_SIGNOFFS_TO_STOP = 2;

export function emptyCriticState(): CriticState {
  return { rounds: 0, clean_signoffs: 0, open_questions: [] };
}

/**
 * Applies one critique. Unanswerable gaps become open questions and play no other part; a sign-off
 * that still lists material gaps is not a clean one. Never refuses: past the budget it keeps counting
 * and says stop.
 */
export function applyCritique(
  state: CriticState,
  input: { gaps: readonly CriticGap[]; signoff: boolean },
  criticRounds: number,
): CritiqueOutcome {
  const openQuestions = [...state.open_questions];
  for (const g of input.gaps) {
    if (g.unanswerable === true && !openQuestions.includes(g.description)) openQuestions.push(g.description);
  }
  const material = input.gaps.filter((g) => g.unanswerable !== true && g.material);

  const clean = input.signoff && material.length === 0;
  const next: CriticState = {
    rounds: state.rounds + 1,
    clean_signoffs: clean ? state.clean_signoffs + 1 : 0,
    open_questions: openQuestions,
  };
  const stop = next.clean_signoffs >= CLEAN_SIGNOFFS_TO_STOP || next.rounds >= criticRounds;

  const outcome: CritiqueOutcome = { state: next, stop, open_material_gaps: material.length, clean };
  if (!stop) {
    let top: CriticGap | undefined;
    for (const g of material) if (!top || g.priority > top.priority) top = g;
    if (top) outcome.next_target = top.query;
  }
  return outcome;
}
