// The last step of a round (round.ts): what decideRound computed, written into the round's record, the
// thread's next state and the reply record_round gives. No rule is applied here.
import type { Action, Confidence, ContradictionStatus, ConvergenceReason, EscapeStrategy, Phase, Saturation, SubQuestionStatus } from './types.js';
import type { Contradiction, OverlapInput, RoundRecord, StoredFact, SubjectChange, SubjectState, SubQuestionState, ThreadState } from './thread-state.js';
import type { PhaseStep } from './phases.js';
import { nextDirectives, type Directives } from './directives.js';
import type { RunContradiction } from './contradictions.js';
import { subQuestionOrigins } from './verified-answers.js';
import type { RoundContext, RoundInput, RoundKeys } from './round-parts.js';

export interface RoundDecision {
  round: number;
  new_facts: number;
  confirming_facts: number;
  saturation: Saturation;
  url_overlap: number;
  /** Which URLs the overlap compared: the searches' results, or (when none were sent) the pages read. */
  overlap_on: OverlapInput;
  plateau_level: 0 | 1 | 2 | 3;
  action: Action;
  escape_strategy?: EscapeStrategy;
  phase: Phase;
  next_phase: Phase;
  phase_reason: string;
  forced_subject?: string;
  sub_questions: { id: string; status: SubQuestionStatus; confidence?: Confidence; origins: number }[];
  /** Per fact, in input order: the computed confidence, its distinct origins and whether one is primary. */
  facts: { confidence: Confidence; origins: number; primary: boolean }[];
  /** The contradictions this round added or updated, in input order: the ids to update them by later. */
  contradictions?: { id: string; status: ContradictionStatus }[];
  /** On convergence: ANSWERED sub-questions without a VERIFIED fact. */
  unverified_answers?: string[];
  converged: boolean;
  convergence_reason?: ConvergenceReason;
  warnings: string[];
  next?: Directives;
}

/** Everything decideRound computed for one round. */
export interface RoundOutcome {
  keys: RoundKeys;
  round: number;
  phase: Phase;
  warnings: string[];
  facts: StoredFact[];
  allFacts: StoredFact[];
  newFacts: number;
  confirming: number;
  saturation: Saturation;
  overlap: number;
  overlapOn: OverlapInput;
  roundOrigins: string[];
  fresh: string[];
  originRun: number;
  exhausted: boolean;
  subjects: SubjectState[];
  targeted: string[];
  subjectChanges: SubjectChange[];
  subQuestions: SubQuestionState[];
  contradictions: Contradiction[];
  touched: string[];
  zeroStreak: number;
  level: 0 | 1 | 2 | 3;
  escape: EscapeStrategy | undefined;
  phaseStep: PhaseStep;
  unverified: { id: string; origins: string[] }[];
  held: { id: string; origins: string[] }[];
  reason: ConvergenceReason | undefined;
  action: Action;
  needsReformulation: boolean;
  phaseReason: string;
  stale: boolean;
  staleRun: number;
  /** The sub-questions as shown: ANSWERED held at PARTIAL by an open HIGH contradiction (contradictions.ts). */
  shown: SubQuestionState[];
  /** Contradictions of other threads this round updated, to be written back to them. */
  foreign: RunContradiction[];
}

export function assembleRound(prev: ThreadState, input: RoundInput, ctx: RoundContext, o: RoundOutcome): { state: ThreadState; decision: RoundDecision; foreign: RunContradiction[] } {
  const { keys, round, phase, warnings, facts, allFacts, newFacts, confirming, saturation, overlap, overlapOn, roundOrigins, fresh, originRun, exhausted } = o;
  const { subjects, targeted, subjectChanges, subQuestions, contradictions, touched, zeroStreak, level, escape, phaseStep, unverified, held, reason, action } = o;
  const { needsReformulation, phaseReason, stale, staleRun, shown, foreign } = o;
  const converged = reason !== undefined;
  const record: RoundRecord = {
    round,
    timestamp: ctx.timestamp,
    query: input.query,
    phase,
    urls: input.urls_visited,
    keys: keys.visited,
    overlap_on: overlapOn,
    origins: [...new Set(roundOrigins)],
    new_origins: fresh.length,
    summary: input.summary,
    new_facts: newFacts,
    confirming_facts: confirming,
    saturation,
    url_overlap: round4(overlap),
    plateau_level: level,
    action,
    next_phase: converged ? phase : phaseStep.next,
    phase_reason: phaseReason,
    targeted_subjects: targeted,
    subject_changes: subjectChanges,
    disambiguation_updates: input.disambiguation_updates ?? [],
    contradiction_ids: touched,
    warnings,
    converged,
    remaining_gaps: [],
  };
  if (keys.results.length > 0) record.result_keys = keys.results;
  if (input.queries && input.queries.length > 0) record.queries = input.queries;
  // Never beside STOP: a thread that stops escapes nothing.
  if (escape !== undefined && level !== 3 && !converged) record.escape_strategy = escape;
  if (stale) record.stale = true;
  if (input.next_focus !== undefined) record.next_focus = input.next_focus;
  if (reason !== undefined) record.convergence_reason = reason;

  const state: ThreadState = {
    ...prev,
    phase: record.next_phase,
    rounds_in_phase: phaseStep.advanced && !converged ? 0 : prev.rounds_in_phase + 1,
    zero_new_streak: zeroStreak,
    origin_streak: originRun,
    drift_streak: needsReformulation ? 0 : prev.drift_streak,
    escapes_used: record.escape_strategy ? [...prev.escapes_used, record.escape_strategy] : prev.escapes_used,
    pending: {},
    sub_questions: subQuestions,
    subjects,
    facts: allFacts,
    contradictions,
    rounds: [...prev.rounds, record],
    converged,
  };
  if (exhausted) state.origins_exhausted = true;
  state.stale_streak = staleRun;
  if (ctx.sourcesStored !== undefined) state.sources_before = ctx.sourcesStored;
  if (reason !== undefined) state.convergence_reason = reason;

  const decision: RoundDecision = {
    round,
    new_facts: newFacts,
    confirming_facts: confirming,
    saturation,
    url_overlap: record.url_overlap,
    overlap_on: overlapOn,
    plateau_level: level,
    action,
    phase,
    next_phase: record.next_phase,
    phase_reason: phaseReason,
    sub_questions: shown.map((q) => ({
      id: q.id,
      status: q.status,
      ...(q.confidence !== undefined ? { confidence: q.confidence } : {}),
      origins: subQuestionOrigins(q.id, allFacts).length,
    })),
    facts: facts.map((f) => ({ confidence: f.confidence, origins: f.origins?.length ?? 0, primary: f.primary === true })),
    converged,
    warnings,
  };
  if (touched.length > 0) decision.contradictions = touched.map((id) => ({ id, status: (contradictions.find((c) => c.id === id) ?? foreign.find((c) => c.id === id))!.status }));
  if (record.escape_strategy) decision.escape_strategy = record.escape_strategy;
  if (reason !== undefined) decision.convergence_reason = reason;
  if (converged && unverified.length > 0) decision.unverified_answers = unverified.map((u) => u.id);
  if (!converged) {
    if (needsReformulation) state.pending.reformulate_from = input.query;
    if (record.escape_strategy) state.pending.escape_strategy = record.escape_strategy;
    if (held.length > 0) state.pending.verify = held;
    const next = nextDirectives(state);
    if (next.forced_subject !== undefined) state.pending.forced_subject = next.forced_subject;
    decision.next = next;
    if (next.forced_subject !== undefined) decision.forced_subject = next.forced_subject;
    if (next.forced_subject !== undefined) record.forced_subject_next = next.forced_subject;
    if (next.reformulate_from !== undefined) record.reformulate_from_next = next.reformulate_from;
  }
  record.remaining_gaps = [
    ...shown.filter((q) => q.status !== 'ANSWERED').map((q) => `${q.id} ${q.status}`),
    ...held.map((u) => `${u.id} not yet VERIFIED`),
    ...subjects.filter((s) => s.rounds === 0).map((s) => `subject "${s.name}" not yet targeted`),
  ];
  return { state, decision, foreign };
}

function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
