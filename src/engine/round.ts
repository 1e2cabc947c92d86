// One investigation round, decided. Composes the single-rule modules into the reply `record_round` gives;
// pure: the caller resolves canonical keys and stored texts first and persists the returned state.
import { InputError } from '../errors.js';
import type {
  Action,
  Confidence,
  ContradictionStatus,
  ConvergenceReason,
  EscapeStrategy,
  Level,
  Phase,
  Saturation,
  SubQuestionStatus,
  SubjectStatus,
} from './types.js';
import type { Contradiction, OverlapInput, RoundRecord, StoredFact, SubjectChange, ThreadState } from './thread-state.js';
import { admitFact, classifyNew, normalizeFactText, numbersNotInQuote } from './facts.js';
import { saturationOf } from './saturation.js';
import { urlOverlap } from './overlap.js';
import { nextEscape, plateauLevel } from './plateau.js';
import { nextPhase, phaseAllowances } from './phases.js';
import { checkQuery } from './reformulation.js';
import { resolveSubQuestion } from './answered.js';
import { convergence } from './convergence.js';
import { nextDirectives, type Directives } from './directives.js';
import { DRIFT_STREAK_LIMIT } from './drift-streak.js';

export interface RoundFactInput {
  fact: string;
  url: string;
  source_title?: string;
  quote?: string;
  confidence: Confidence;
  notes?: string;
  sub_questions?: string[];
  confirms_known?: boolean;
}

export interface RoundInput {
  query: string;
  /** Further searches of the same round, for the micro-report; the reformulation check uses `query`. */
  queries?: string[];
  urls_visited: string[];
  /** The URLs the round's searches returned, in rank order: the overlap input when sent. */
  search_results?: string[];
  facts: RoundFactInput[];
  summary: string;
  targeted_subjects?: string[];
  sub_question_updates?: { id: string; status: SubQuestionStatus; confidence?: Confidence; key_finding?: string }[];
  subject_updates?: { name: string; status: SubjectStatus; evidence?: string }[];
  disambiguation_updates?: string[];
  contradictions?: {
    id?: string;
    claim: string;
    source_a: string;
    url_a: string;
    source_b: string;
    url_b: string;
    status: ContradictionStatus;
    severity?: Level;
  }[];
  next_focus?: string;
}

export interface StoredText {
  source_id: string;
  title: string;
  markdown: string;
  /** projectForMatching(markdown), when the caller caches it across calls. */
  projected?: string;
}

export interface RoundContext {
  grounding: boolean;
  timestamp: string;
  canonicalKey: (url: string) => string;
  storedText: (canonicalKey: string) => StoredText | undefined;
}

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
  sub_questions: { id: string; status: SubQuestionStatus; confidence?: Confidence }[];
  converged: boolean;
  convergence_reason?: ConvergenceReason;
  warnings: string[];
  next?: Directives;
}

/** Throws InputError for the refusals SPEC 4.1 lists; everything else becomes a warning. */
export function decideRound(prev: ThreadState, input: RoundInput, ctx: RoundContext): { state: ThreadState; decision: RoundDecision } {
  if (prev.completed) throw new InputError(`thread "${prev.name}" was completed with complete_thread; start a new thread instead of recording more rounds`);
  if (prev.converged) {
    throw new InputError(
      `thread "${prev.name}" already converged (${prev.convergence_reason ?? 'stopped'}); call complete_thread instead of recording more rounds`,
    );
  }
  if (input.urls_visited.length > prev.results_per_round) {
    throw new InputError(
      `urls_visited has ${input.urls_visited.length} URLs but this run reads at most ${prev.results_per_round} results per round; record only the results you read`,
    );
  }
  const keys: string[] = [];
  input.urls_visited.forEach((url, i) => {
    const key = keyOrRefuse(ctx, url, `urls_visited[${i}]`);
    if (!keys.includes(key)) keys.push(key);
  });
  const factKeys = input.facts.map((f, i) => keyOrRefuse(ctx, f.url, `facts[${i}].url`));
  const resultKeys: string[] = [];
  (input.search_results ?? []).forEach((url, i) => {
    const key = keyOrRefuse(ctx, url, `search_results[${i}]`);
    if (!resultKeys.includes(key)) resultKeys.push(key);
  });

  const warnings: string[] = [];
  const round = prev.rounds.length + 1;
  const phase = prev.phase;
  const sqIds = new Set(prev.sub_questions.map((q) => q.id));
  const subjectNames = new Set(prev.subjects.map((s) => s.name));
  const drifted = new Set(prev.drifted_keys);

  // Facts: ground, then classify new vs confirming against the thread's earlier facts.
  const earlier = new Set(prev.facts.map((f) => normalizeFactText(f.fact)));
  const isNew = classifyNew(input.facts, earlier);
  const facts: StoredFact[] = input.facts.map((f, i) => {
    const key = factKeys[i] as string;
    const stored = ctx.storedText(key);
    const admitted = admitFact(f, {
      grounding: ctx.grounding,
      storedMarkdownFor: () => stored?.markdown,
      projectedFor: () => stored?.projected,
    });
    if (admitted.warning) warnings.push(`fact ${i + 1}: ${admitted.warning}`);
    else {
      const unquoted = numbersNotInQuote(f.fact, f.quote);
      if (unquoted.length > 0) {
        const it = unquoted.length === 1 ? 'it' : 'them';
        // Recorded as given: a number from the page's title or a table cell can be right without being in the quote.
        warnings.push(`fact ${i + 1}: ${unquoted.join(', ')} ${unquoted.length === 1 ? 'is' : 'are'} not in its quote (recorded as given); from the next round, quote the words that state ${it}, or leave ${it} out of the fact`);
      }
    }
    let confidence = admitted.confidence;
    let notes = joinNotes(f.notes, admitted.notes);
    let productive = isNew[i] === true;
    if (drifted.has(key)) {
      confidence = 'UNVERIFIED';
      productive = false;
      notes = joinNotes(notes, 'source flagged as drifted by check_drift');
      warnings.push(`fact ${i + 1}: its page was flagged as drifted by check_drift, so it counts as neither new nor answering`);
    }
    const links = (f.sub_questions ?? []).filter((id) => {
      if (sqIds.has(id)) return true;
      warnings.push(`fact ${i + 1}: unknown sub-question id "${id}" ignored; known ids are ${[...sqIds].join(', ')}`);
      return false;
    });
    const out: StoredFact = {
      round,
      fact: f.fact,
      url: f.url,
      canonical_key: key,
      confidence,
      sub_questions: links,
      is_new: productive,
      grounded: admitted.grounded && !drifted.has(key),
    };
    if (stored) out.source_id = stored.source_id;
    const title = f.source_title ?? stored?.title;
    if (title !== undefined) out.source_title = title;
    if (f.quote !== undefined) out.quote = f.quote;
    if (notes !== undefined) out.notes = notes;
    return out;
  });
  const newFacts = facts.filter((f) => f.is_new).length;
  const confirming = facts.filter((f) => !f.is_new && !drifted.has(f.canonical_key)).length;
  const saturation = saturationOf(newFacts);
  // The search engine handing back the same results is the plateau signal; a model rarely re-reads a
  // stored page, so the pages read are only the fallback for a round that sent no search results.
  const overlapOn: OverlapInput = resultKeys.length > 0 ? 'search_results' : 'urls_visited';
  const overlapKeys = overlapOn === 'search_results' ? resultKeys : keys;
  const previous = prev.rounds.at(-1);
  const overlap = urlOverlap(overlapKeys, previous ? overlapBasis(previous) : undefined);
  if (overlapOn === 'urls_visited' && keys.length > 0) {
    warnings.push('no search_results sent: overlap was measured on urls_visited; send every URL your searches returned, in rank order');
  }
  const zeroStreak = newFacts === 0 ? prev.zero_new_streak + 1 : 0;

  // Required reformulation and repeats are checked, never refused.
  const queryCheck = checkQuery({
    query: input.query,
    earlierQueries: prev.rounds.map((r) => r.query),
    ...(prev.pending.reformulate_from !== undefined ? { reformulateFrom: prev.pending.reformulate_from } : {}),
  });
  warnings.push(...queryCheck.warnings);

  // Subjects: coverage counts only what the round says it targeted.
  const targeted: string[] = [];
  for (const name of input.targeted_subjects ?? []) {
    if (!subjectNames.has(name)) {
      warnings.push(`targeted subject "${name}" is not a subject of this thread; subjects are ${[...subjectNames].join(', ')}`);
    } else if (!targeted.includes(name)) targeted.push(name);
  }
  if (prev.pending.forced_subject && !targeted.includes(prev.pending.forced_subject)) {
    warnings.push(`this round was forced onto the subject "${prev.pending.forced_subject}" but did not list it in targeted_subjects`);
  }
  const subjectChanges: SubjectChange[] = [];
  const subjects = prev.subjects.map((s) => {
    const next = { ...s };
    if (targeted.includes(s.name)) next.rounds += 1;
    const update = input.subject_updates?.find((u) => u.name === s.name);
    if (update) {
      next.status = update.status;
      if (update.evidence !== undefined) next.evidence = update.evidence;
    } else if (targeted.includes(s.name) && s.status === 'UNCOVERED') {
      next.status = 'PARTIAL';
    }
    if (update || next.status !== s.status) {
      const change: SubjectChange = { name: s.name, prior: s.status, next: next.status };
      if (next.evidence !== undefined) change.evidence = next.evidence;
      subjectChanges.push(change);
    }
    return next;
  });
  for (const u of input.subject_updates ?? []) {
    if (!subjectNames.has(u.name)) warnings.push(`subject update for unknown subject "${u.name}" ignored`);
  }

  // Sub-questions: the caller proposes, the server decides on the grounded evidence.
  const allFacts = [...prev.facts, ...facts];
  const subQuestions = prev.sub_questions.map((q) => {
    const update = input.sub_question_updates?.find((u) => u.id === q.id);
    if (!update) return q;
    const linked = allFacts.filter((f) => f.sub_questions.includes(q.id));
    const resolved = resolveSubQuestion({
      id: q.id,
      proposed: update.status,
      ...(update.confidence !== undefined ? { proposedConfidence: update.confidence } : {}),
      linkedFacts: linked,
    });
    if (resolved.warning) warnings.push(resolved.warning);
    const next = { ...q, status: resolved.status };
    if (resolved.confidence !== undefined) next.confidence = resolved.confidence;
    else delete next.confidence;
    if (update.key_finding !== undefined) next.key_finding = update.key_finding;
    return next;
  });
  for (const u of input.sub_question_updates ?? []) {
    if (!sqIds.has(u.id)) warnings.push(`sub-question update for unknown id "${u.id}" ignored`);
  }

  // Contradictions: new ones get the next C<n>; an id updates an existing one.
  const contradictions: Contradiction[] = prev.contradictions.map((c) => ({ ...c }));
  const touched: string[] = [];
  for (const c of input.contradictions ?? []) {
    const existing = c.id !== undefined ? contradictions.find((x) => x.id === c.id) : undefined;
    if (c.id !== undefined && !existing) {
      warnings.push(`contradiction id "${c.id}" is unknown; recorded as a new contradiction`);
    }
    if (existing) {
      Object.assign(existing, { ...c, id: existing.id, severity: c.severity ?? existing.severity, round: existing.round });
      touched.push(existing.id);
    } else {
      const id = `C${contradictions.length + 1}`;
      contradictions.push({
        id,
        claim: c.claim,
        source_a: c.source_a,
        url_a: c.url_a,
        source_b: c.source_b,
        url_b: c.url_b,
        status: c.status,
        severity: c.severity ?? 'MEDIUM',
        round,
      });
      touched.push(id);
    }
  }

  // Plateau, escape ladder and phase.
  let level = plateauLevel({ overlap, newFacts, zeroNewStreak: zeroStreak });
  let escape: EscapeStrategy | undefined;
  if (level === 1 || level === 2) {
    escape = nextEscape(prev.escapes_used);
    if (escape === undefined) {
      level = 3;
      warnings.push('every escape strategy has been used and the plateau persists: the thread stops');
    }
  }
  const phaseStep = nextPhase({
    order: prev.phase_order,
    allowances: phaseAllowances(prev.phase_order, prev.round_budget),
    phase,
    roundsInPhase: prev.rounds_in_phase + 1,
    saturation,
    forceAdvance: level === 2,
  });

  const reason = convergence({
    subQuestions,
    subjectRounds: subjects.map((s) => s.rounds),
    openHighContradictions: contradictions.filter((c) => c.status === 'OPEN' && c.severity === 'HIGH').length,
    plateauL3: level === 3,
    roundsCompleted: round,
    roundBudget: prev.round_budget,
  });
  const converged = reason !== undefined;

  // One action per round (SPEC 4.1): the first that holds of STOP, ADVANCE_PHASE, REFORMULATE, CONTINUE.
  // A reformulation that coincides with a phase change still shows in next.reformulate_from.
  const driftForcesReformulation = prev.drift_streak >= DRIFT_STREAK_LIMIT;
  const plateauReformulates = level === 1 || (level === 2 && !phaseStep.advanced);
  let action: Action = 'CONTINUE';
  if (converged) action = 'STOP';
  else if (phaseStep.advanced) action = 'ADVANCE_PHASE';
  else if (plateauReformulates || driftForcesReformulation) action = 'REFORMULATE';

  const needsReformulation = !converged && (level === 1 || plateauReformulates || driftForcesReformulation);
  if (driftForcesReformulation && !converged) {
    warnings.push('the last results drifted off topic several times in a row: the next query must be reformulated');
  }
  const phaseReason = converged ? `the thread stopped (${reason}): no next round` : phaseStep.reason;

  const record: RoundRecord = {
    round,
    timestamp: ctx.timestamp,
    query: input.query,
    phase,
    urls: input.urls_visited,
    keys,
    overlap_on: overlapOn,
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
  if (resultKeys.length > 0) record.result_keys = resultKeys;
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
    sub_questions: subQuestions.map((q) => (q.confidence !== undefined ? { id: q.id, status: q.status, confidence: q.confidence } : { id: q.id, status: q.status })),
    converged,
    warnings,
  };
  if (record.escape_strategy) decision.escape_strategy = record.escape_strategy;
  if (reason !== undefined) decision.convergence_reason = reason;
  if (!converged) {
    if (needsReformulation) state.pending.reformulate_from = input.query;
    if (record.escape_strategy) state.pending.escape_strategy = record.escape_strategy;
    const next = nextDirectives(state);
    if (next.forced_subject !== undefined) state.pending.forced_subject = next.forced_subject;
    decision.next = next;
    if (next.forced_subject !== undefined) decision.forced_subject = next.forced_subject;
    if (next.forced_subject !== undefined) record.forced_subject_next = next.forced_subject;
    if (next.reformulate_from !== undefined) record.reformulate_from_next = next.reformulate_from;
  }
  record.remaining_gaps = [
    ...subQuestions.filter((q) => q.status !== 'ANSWERED').map((q) => `${q.id} ${q.status}`),
    ...subjects.filter((s) => s.rounds === 0).map((s) => `subject "${s.name}" not yet targeted`),
  ];
  return { state, decision };
}

/** The URLs a recorded round offers the overlap rule: its search results, else the pages it read. */
function overlapBasis(r: RoundRecord): string[] {
  return r.result_keys && r.result_keys.length > 0 ? r.result_keys : r.keys;
}

function keyOrRefuse(ctx: RoundContext, url: string, where: string): string {
  try {
    return ctx.canonicalKey(url);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new InputError(`${where}: ${why}`);
  }
}

function joinNotes(a: string | undefined, b: string | undefined): string | undefined {
  if (a && b) return `${a}; ${b}`;
  return a ?? b;
}

function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
