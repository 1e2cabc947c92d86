// Convergence (SPEC 4.1): when several reasons hold in one round, the first in this order is given.
import type { Confidence, ConvergenceReason, SubQuestionStatus } from './types.js';

const ANSWERING: ReadonlySet<Confidence | undefined> = new Set<Confidence | undefined>(['VERIFIED', 'PLAUSIBLE']);

export function convergence(i: {
  subQuestions: readonly { status: SubQuestionStatus; confidence?: Confidence }[];
  subjectRounds: readonly number[];
  openHighContradictions: number;
  /** ANSWERED sub-questions that still wait for a VERIFIED fact (none in the quick tier or once origins are exhausted). */
  heldAnswers?: number;
  plateauL3: boolean;
  /** Origin exhaustion's dead end: the last phase, no new site, no new fact. */
  deadEnd?: boolean;
  /** Two stale rounds in a row: every result already stored, no new fact. */
  stale?: boolean;
  roundsCompleted: number;
  roundBudget: number;
}): ConvergenceReason | undefined {
  // A thread always has a sub-question; with none, "all answered" would hold before any research.
  const answered =
    i.subQuestions.length > 0 && i.subQuestions.every((q) => q.status === 'ANSWERED' && ANSWERING.has(q.confidence));
  const covered = i.subjectRounds.every((n) => n >= 1);
  if (answered && covered && i.openHighContradictions === 0 && (i.heldAnswers ?? 0) === 0) return 'CRITERIA_MET';
  if (i.plateauL3 || i.deadEnd === true || i.stale === true) return 'PLATEAU_STOPPED';
  if (i.roundsCompleted >= i.roundBudget) return 'BUDGET_EXHAUSTED';
  return undefined;
}
