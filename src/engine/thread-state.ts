// The persisted shape of one thread. Plain JSON: the store writes it as-is and a new server process
// continues from it exactly where the last one stopped.
import type {
  Action,
  CompletionReason,
  Confidence,
  ContradictionStatus,
  ConvergenceReason,
  EscapeStrategy,
  Level,
  Phase,
  Saturation,
  SourceHints,
  SubQuestionStatus,
  SubjectStatus,
  ThreadDefinition,
} from './types.js';
import { firstPhaseWithRounds, phaseAllowances, phaseOrder } from './phases.js';

export interface SubQuestionState {
  id: string;
  question: string;
  status: SubQuestionStatus;
  confidence?: Confidence;
  key_finding?: string;
}

export interface SubjectState {
  name: string;
  rounds: number;
  status: SubjectStatus;
  evidence?: string;
}

export interface StoredFact {
  round: number;
  fact: string;
  url: string;
  canonical_key: string;
  source_id?: string;
  source_title?: string;
  quote?: string;
  confidence: Confidence;
  notes?: string;
  sub_questions: string[];
  is_new: boolean;
  grounded: boolean;
  /** Other sources that state the fact, each grounded (ungrounded ones are dropped when recorded). */
  also?: { url: string; quote: string; source_id?: string }[];
  /** Distinct origins among its grounded quotes; absent in facts recorded before origins were counted. */
  origins?: string[];
  /** Whether one of them is a primary origin of the thread. */
  primary?: boolean;
}

export interface Contradiction {
  id: string;
  claim: string;
  source_a: string;
  url_a: string;
  source_b: string;
  url_b: string;
  status: ContradictionStatus;
  severity: Level;
  round: number;
  /** How it was resolved, in the words of the thread that resolved it, and the round it was resolved in. */
  resolution?: string;
  resolved_round?: number;
}

export interface SubjectChange {
  name: string;
  prior: SubjectStatus;
  next: SubjectStatus;
  evidence?: string;
}

export interface RoundRecord {
  round: number;
  timestamp: string;
  query: string;
  phase: Phase;
  urls: string[];
  keys: string[];
  /** Canonical keys of the round's search results, when it sent them. */
  result_keys?: string[];
  /** Absent in rounds recorded before the overlap used search results: those compared urls_visited. */
  overlap_on?: OverlapInput;
  queries?: string[];
  /** The sites of its search results and pages read, and how many of them the thread had not seen. */
  origins?: string[];
  new_origins?: number;
  summary: string;
  new_facts: number;
  confirming_facts: number;
  saturation: Saturation;
  url_overlap: number;
  plateau_level: 0 | 1 | 2 | 3;
  action: Action;
  escape_strategy?: EscapeStrategy;
  /** Every result was already stored in the run and the round added no fact. */
  stale?: boolean;
  next_phase: Phase;
  phase_reason: string;
  targeted_subjects: string[];
  subject_changes: SubjectChange[];
  disambiguation_updates: string[];
  contradiction_ids: string[];
  next_focus?: string;
  warnings: string[];
  converged: boolean;
  convergence_reason?: ConvergenceReason;
  /** What stood open after this round, kept so a later re-render cannot rewrite history. */
  remaining_gaps: string[];
  forced_subject_next?: string;
  reformulate_from_next?: string;
}

export type OverlapInput = 'search_results' | 'urls_visited';

export interface NextDirectives {
  forced_subject?: string;
  reformulate_from?: string;
  escape_strategy?: EscapeStrategy;
  /** ANSWERED sub-questions still waiting for a VERIFIED fact, for the next round's query hints. */
  verify?: { id: string; origins: string[] }[];
}

export interface ThreadGap {
  gap: string;
  why_not_found: string;
  rounds_attempted: number;
  next_step: string;
}

export interface ThreadState {
  version: 1;
  name: string;
  slug: string;
  critic: boolean;
  definition: ThreadDefinition;
  /** The brief's run-wide source hints, for phases the thread's own hints leave out. */
  run_source_hints?: SourceHints;
  round_budget: number;
  results_per_round: number;
  phase_order: Phase[];
  phase: Phase;
  rounds_in_phase: number;
  zero_new_streak: number;
  /** Late-phase rounds in a row with no new site; origins are exhausted at 2 and stay so. */
  origin_streak?: number;
  origins_exhausted?: boolean;
  /** Stale rounds in a row (stale-round.ts), and the run's highest source number when the next round began. */
  stale_streak?: number;
  sources_before?: number;
  /** Quick tier: convergence does not wait for VERIFIED answers. */
  quick?: boolean;
  drift_streak: number;
  drifted_keys: string[];
  /** Canonical keys of the pages this thread checked with check_drift; absent in threads begun before it was kept. */
  drift_checked?: string[];
  escapes_used: EscapeStrategy[];
  pending: NextDirectives;
  sub_questions: SubQuestionState[];
  subjects: SubjectState[];
  facts: StoredFact[];
  contradictions: Contradiction[];
  rounds: RoundRecord[];
  converged: boolean;
  convergence_reason?: ConvergenceReason;
  completed?: { reason: CompletionReason; gaps: ThreadGap[] };
}

export function newThreadState(i: {
  definition: ThreadDefinition;
  slug: string;
  critic: boolean;
  roundBudget: number;
  resultsPerRound: number;
  runSourceHints?: SourceHints;
  quick?: boolean;
}): ThreadState {
  const order = phaseOrder(i.definition.source_strategy);
  // A phase the budget gives no round is skipped from the start (e.g. a short budget's EXTRACT).
  const first = firstPhaseWithRounds(order, phaseAllowances(order, i.roundBudget));
  return {
    version: 1,
    name: i.definition.name,
    slug: i.slug,
    critic: i.critic,
    definition: i.definition,
    round_budget: i.roundBudget,
    results_per_round: i.resultsPerRound,
    phase_order: order,
    phase: first,
    rounds_in_phase: 0,
    zero_new_streak: 0,
    drift_streak: 0,
    drifted_keys: [],
    drift_checked: [],
    escapes_used: [],
    pending: {},
    sub_questions: i.definition.sub_questions.map((q) => ({ id: q.id, question: q.question, status: 'OPEN' })),
    subjects: i.definition.subjects.map((name) => ({ name, rounds: 0, status: 'UNCOVERED' })),
    facts: [],
    contradictions: [],
    rounds: [],
    converged: false,
    ...(i.quick ? { quick: true } : {}),
    ...(i.runSourceHints && Object.keys(i.runSourceHints).length > 0 ? { run_source_hints: i.runSourceHints } : {}),
  };
}
