// One investigation round, decided: the rules of SPEC 4.1 in the order they apply, each one call to the
// module that owns it. Pure: the caller resolves canonical keys and stored texts first and persists the
// returned state.
import type { Action, Confidence, ConvergenceReason, EscapeStrategy, Phase, Saturation, SubQuestionStatus } from './types.js';
import type { OverlapInput, RoundRecord, ThreadState } from './thread-state.js';
import { saturationOf } from './saturation.js';
import { urlOverlap } from './overlap.js';
import { nextEscape, plateauLevel } from './plateau.js';
import { nextPhase, phaseAllowances } from './phases.js';
import { checkQuery } from './reformulation.js';
import { convergence } from './convergence.js';
import { nextDirectives, type Directives } from './directives.js';
import { DRIFT_STREAK_LIMIT } from './drift-streak.js';
import { DEAD_END_REASON, EXHAUSTED_AFTER, deadEnd, newOrigins, originStreak } from './origin-exhaustion.js';
import { heldWarning, subQuestionOrigins, unverifiedAnswers } from './verified-answers.js';
import {
  admitRoundFacts,
  originFor,
  overlapBasis,
  refuseRound,
  roundKeys,
  updateContradictions,
  updateSubjects,
  updateSubQuestions,
  type RoundContext,
  type RoundInput,
} from './round-parts.js';

export type { RoundContext, RoundFactInput, RoundInput, StoredText } from './round-parts.js';

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
  /** On convergence: ANSWERED sub-questions without a VERIFIED fact. */
  unverified_answers?: string[];
  converged: boolean;
  convergence_reason?: ConvergenceReason;
  warnings: string[];
  next?: Directives;
}

/** Throws InputError for the refusals SPEC 4.1 lists; everything else becomes a warning. */
export function decideRound(prev: ThreadState, input: RoundInput, ctx: RoundContext): { state: ThreadState; decision: RoundDecision } {
  refuseRound(prev, input);
  const keys = roundKeys(input, ctx);
  const round = prev.rounds.length + 1;
  const phase = prev.phase;
  const warnings: string[] = [];

  // 1. Facts: admission and grounding, `also`, computed confidence, new vs confirming; then saturation.
  const facts = admitRoundFacts(prev, input, keys.facts, ctx, round, warnings);
  const allFacts = [...prev.facts, ...facts];
  const newFacts = facts.filter((f) => f.is_new).length;
  const confirming = facts.filter((f) => !f.is_new && !prev.drifted_keys.includes(f.canonical_key)).length;
  const saturation = saturationOf(newFacts);

  // 2. Overlap on the searches' results (the pages read only when none were sent), and new sites.
  const overlapOn: OverlapInput = keys.results.length > 0 ? 'search_results' : 'urls_visited';
  const overlap = urlOverlap(overlapOn === 'search_results' ? keys.results : keys.visited, prev.rounds.length > 0 ? overlapBasis(prev.rounds.at(-1)!) : undefined);
  if (overlapOn === 'urls_visited' && keys.visited.length > 0) {
    warnings.push('no search_results sent: overlap was measured on urls_visited; send every URL your searches returned, in rank order');
  }
  const roundOrigins = [...(input.search_results ?? []), ...input.urls_visited].map((u) => originFor(ctx, u)).filter((o): o is string => o !== undefined);
  const fresh = newOrigins(roundOrigins, new Set(prev.rounds.flatMap((r) => r.origins ?? [])));
  const originRun = originStreak({ prevStreak: prev.origin_streak ?? 0, phase, order: prev.phase_order, newOrigins: fresh.length });
  const exhausted = prev.origins_exhausted === true || originRun >= EXHAUSTED_AFTER;

  // 3. Query checks, subjects, sub-questions, contradictions: recorded with warnings, never refused.
  warnings.push(...checkQuery({ query: input.query, earlierQueries: prev.rounds.map((r) => r.query), ...(prev.pending.reformulate_from !== undefined ? { reformulateFrom: prev.pending.reformulate_from } : {}) }).warnings);
  const { subjects, targeted, changes: subjectChanges } = updateSubjects(prev, input, warnings);
  const subQuestions = updateSubQuestions(prev, input, allFacts, warnings);
  const { contradictions, touched } = updateContradictions(prev, input, round, warnings);

  // 4. Plateau and escape ladder, then the phase.
  const zeroStreak = newFacts === 0 ? prev.zero_new_streak + 1 : 0;
  let level = plateauLevel({ overlap, newFacts, zeroNewStreak: zeroStreak });
  const escape = level === 1 || level === 2 ? nextEscape(prev.escapes_used) : undefined;
  if ((level === 1 || level === 2) && escape === undefined) {
    level = 3;
    warnings.push('every escape strategy has been used and the plateau persists: the thread stops');
  }
  const allowances = phaseAllowances(prev.phase_order, prev.round_budget);
  const phaseStep = nextPhase({ order: prev.phase_order, allowances, phase, roundsInPhase: prev.rounds_in_phase + 1, saturation, forceAdvance: level === 2 });

  // 5. Convergence: unverified answers hold it back until origins run out; a dead end stops the thread.
  const unverified = unverifiedAnswers(subQuestions, allFacts);
  const held = prev.quick === true || exhausted ? [] : unverified;
  const stuck = deadEnd({ isLastPhase: phaseStep.isLast, exhausted, newFacts, newOrigins: fresh.length });
  const reason = convergence({
    subQuestions,
    subjectRounds: subjects.map((s) => s.rounds),
    openHighContradictions: contradictions.filter((c) => c.status === 'OPEN' && c.severity === 'HIGH').length,
    heldAnswers: held.length,
    plateauL3: level === 3,
    deadEnd: stuck,
    roundsCompleted: round,
    roundBudget: prev.round_budget,
  });
  const converged = reason !== undefined;
  if (!converged) warnings.push(...held.map(heldWarning));

  // 6. One action per round (SPEC 4.1): the first that holds of STOP, ADVANCE_PHASE, REFORMULATE, CONTINUE.
  // A reformulation that coincides with a phase change still shows in next.reformulate_from.
  const driftForcesReformulation = prev.drift_streak >= DRIFT_STREAK_LIMIT;
  const plateauReformulates = level === 1 || (level === 2 && !phaseStep.advanced);
  const action: Action = converged ? 'STOP' : phaseStep.advanced ? 'ADVANCE_PHASE' : plateauReformulates || driftForcesReformulation ? 'REFORMULATE' : 'CONTINUE';
  const needsReformulation = !converged && (plateauReformulates || driftForcesReformulation);
  if (driftForcesReformulation && !converged) warnings.push('the last results drifted off topic several times in a row: the next query must be reformulated');
  const phaseReason = !converged
    ? phaseStep.reason
    : reason === 'PLATEAU_STOPPED' && stuck && level !== 3
      ? `${DEAD_END_REASON}: the thread stopped (${reason}), no next round`
      : `the thread stopped (${reason}): no next round`;

  // 7. The record, the new state and the reply.
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
    sub_questions: subQuestions.map((q) => ({
      id: q.id,
      status: q.status,
      ...(q.confidence !== undefined ? { confidence: q.confidence } : {}),
      origins: subQuestionOrigins(q.id, allFacts).length,
    })),
    facts: facts.map((f) => ({ confidence: f.confidence, origins: f.origins?.length ?? 0, primary: f.primary === true })),
    converged,
    warnings,
  };
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
    ...subQuestions.filter((q) => q.status !== 'ANSWERED').map((q) => `${q.id} ${q.status}`),
    ...held.map((u) => `${u.id} not yet VERIFIED`),
    ...subjects.filter((s) => s.rounds === 0).map((s) => `subject "${s.name}" not yet targeted`),
  ];
  return { state, decision };
}

function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
