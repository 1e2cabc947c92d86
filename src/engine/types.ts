// Shared vocabulary of the research engine. Pure data: no IO, no Node APIs.

export const PHASES = ['SURVEY', 'EXTRACT', 'DIVERSIFY', 'VERIFY'] as const;
export type Phase = (typeof PHASES)[number];

export const CONFIDENCES = ['VERIFIED', 'PLAUSIBLE', 'UNVERIFIED'] as const;
export type Confidence = (typeof CONFIDENCES)[number];

export const LEVELS = ['HIGH', 'MEDIUM', 'LOW'] as const;
export type Level = (typeof LEVELS)[number];
export type Saturation = Level;

export const ACTIONS = ['CONTINUE', 'REFORMULATE', 'ADVANCE_PHASE', 'STOP'] as const;
export type Action = (typeof ACTIONS)[number];

export const CONVERGENCE_REASONS = ['CRITERIA_MET', 'BUDGET_EXHAUSTED', 'PLATEAU_STOPPED'] as const;
export type ConvergenceReason = (typeof CONVERGENCE_REASONS)[number];
export type CompletionReason = ConvergenceReason | 'ENDED_EARLY';

export const DEPTHS = ['quick', 'standard', 'deep'] as const;
export type Depth = (typeof DEPTHS)[number];

export const SQ_STATUSES = ['ANSWERED', 'PARTIAL', 'OPEN'] as const;
export type SubQuestionStatus = (typeof SQ_STATUSES)[number];

export const SUBJECT_STATUSES = ['COVERED', 'PARTIAL', 'UNCOVERED'] as const;
export type SubjectStatus = (typeof SUBJECT_STATUSES)[number];

export const CONTRADICTION_STATUSES = ['OPEN', 'RESOLVED'] as const;
export type ContradictionStatus = (typeof CONTRADICTION_STATUSES)[number];

export const DRIFT_SIGNALS = ['subject', 'domain', 'temporal', 'geographic', 'version'] as const;
export type DriftSignal = (typeof DRIFT_SIGNALS)[number];

export const GAP_KINDS = [
  'modality',
  'unverified-claim',
  'unread-source',
  'missing-counterarg',
  'unresolved-contradiction',
  'uncovered',
] as const;
export type GapKind = (typeof GAP_KINDS)[number];

/** The escape ladder, in the order the server hands the strategies out (SPEC 4.1). */
export const ESCAPE_STRATEGIES = [
  'query reformulation',
  'source-type shift',
  'lateral search',
  'negative search',
  'community pivot',
  'assumption reframing',
] as const;
export type EscapeStrategy = (typeof ESCAPE_STRATEGIES)[number];

export interface SubQuestion {
  id: string;
  question: string;
}

/** Source types to look for in each phase, in the words of the question's field (SPEC 4.1 source hints). */
export type SourceHints = Partial<Record<Phase, string[]>>;

export interface ThreadDefinition {
  name: string;
  sub_questions: SubQuestion[];
  subjects: string[];
  source_strategy?: Phase[];
  source_hints?: SourceHints;
  /** Registrable domains of the sites that speak for the thread's subjects first-hand. */
  primary_origins?: string[];
}

export interface KnownFact {
  fact: string;
  confidence: Level;
}

export interface Scope {
  regions?: string[];
  period?: { from: number; to: number };
}

export interface Brief {
  threads: ThreadDefinition[];
  assumptions?: string[];
  disambiguation?: { include?: string[]; exclude?: string[] };
  known_facts?: KnownFact[];
  scope?: Scope;
  source_hints?: SourceHints;
}

export interface TierBudgets {
  max_threads: number;
  rounds_per_thread: number;
  results_per_round: number;
  critic_rounds: number;
}
