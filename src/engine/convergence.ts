// Convergence (SPEC 4.1): when several reasons hold in one round, the first in this order is given.
import type { Confidence, ConvergenceReason, SubQuestionStatus } from './types.js';

const ANSWERING: ReadonlySet<Confidence | undefined> = new Set<Confidence | undefined>(['VERIFIED', 'PLAUSIBLE']);

export interface ConvergenceInput {
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
}

export function convergence(i: ConvergenceInput): ConvergenceReason | undefined {
  // A thread always has a sub-question; with none, "all answered" would hold before any research.
  const answered =
    i.subQuestions.length > 0 && i.subQuestions.every((q) => q.status === 'ANSWERED' && ANSWERING.has(q.confidence));
  const covered = i.subjectRounds.every((n) => n >= 1);
  if (answered && covered && i.openHighContradictions === 0 && (i.heldAnswers ?? 0) === 0) return 'CRITERIA_MET';
  if (i.plateauL3 || i.deadEnd === true || i.stale === true) return 'PLATEAU_STOPPED';
  if (i.roundsCompleted >= i.roundBudget) return 'BUDGET_EXHAUSTED';
  return undefined;
}

/**
 * The subjects (by index) that alone keep a thread from CRITERIA_MET: every sub-question is answered and
 * nothing else holds it, but these had no round that targeted them. A reply that went on with every
 * sub-question ANSWERED and no word why confused trial 44's model.
 */
export function untargetedSubjectsHolding(i: ConvergenceInput): number[] {
  const answered = i.subQuestions.length > 0 && i.subQuestions.every((q) => q.status === 'ANSWERED' && ANSWERING.has(q.confidence));
  if (!answered || i.openHighContradictions > 0 || (i.heldAnswers ?? 0) > 0) return [];
  return i.subjectRounds.flatMap((n, k) => (n >= 1 ? [] : [k]));
}
