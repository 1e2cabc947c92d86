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
  /** The gap next_target comes from. */
  next_gap?: CriticGap;
  open_material_gaps: number;
  clean: boolean;
}

export const CLEAN_SIGNOFFS_TO_STOP = 2;

/**
 * The one definition of an unanswerable gap: the command, the record_critique schema and this module
 * say the same, so a critic cannot file a merely unsearched gap as unanswerable by reading one of them.
 */
export const UNANSWERABLE =
  'No source reachable in this run can settle it: the searches that tried found nothing that bears on it (say which in description).';

/** Open questions are compared on case, spacing and end punctuation only. */
export function normaliseQuestion(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').replace(/[\s.?!;:]+$/u, '').trim();
}

export interface NextDefinition {
  name: string;
  sub_questions: { id: string; question: string }[];
  subjects: string[];
}

/**
 * A ready start for the focused thread on a gap: a name from the gap, unused among `taken`, and one
 * sub-question from its description. Subjects are the caller's to add: only it knows the entities.
 */
export function nextDefinition(gap: Pick<CriticGap, 'description' | 'query'>, taken: readonly string[], criticIndex: number): NextDefinition {
  const query = gap.query.trim().replace(/\s+/g, ' ');
  const words = query.length <= 100 ? query : query.slice(0, 100).replace(/\s+\S*$/, '');
  const base = `Critic ${criticIndex}: ${words}`;
  let name = base;
  for (let n = 2; taken.includes(name); n++) name = `${base} (${n})`;
  return { name, sub_questions: [{ id: 'SQ-1', question: gap.description }], subjects: [] };
}

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
  const seen = new Set(openQuestions.map(normaliseQuestion));
  const keep = (g: CriticGap): void => {
    const key = normaliseQuestion(g.description);
    if (seen.has(key)) return;
    seen.add(key);
    openQuestions.push(g.description);
  };
  for (const g of input.gaps) if (g.unanswerable === true) keep(g);
  const material = input.gaps.filter((g) => g.unanswerable !== true && g.material);

  const clean = input.signoff && material.length === 0;
  const rounds = state.rounds + 1;
  const cleanSignoffs = clean ? state.clean_signoffs + 1 : 0;
  const stop = cleanSignoffs >= CLEAN_SIGNOFFS_TO_STOP || rounds >= criticRounds;
  // Material gaps the critic budget ran out on are open too: no gap is dropped silently.
  if (stop) for (const g of material) keep(g);
  const next: CriticState = { rounds, clean_signoffs: cleanSignoffs, open_questions: openQuestions };

  const outcome: CritiqueOutcome = { state: next, stop, open_material_gaps: material.length, clean };
  if (!stop) {
    let top: CriticGap | undefined;
    for (const g of material) if (!top || g.priority > top.priority) top = g;
    if (top) {
      outcome.next_target = top.query;
      outcome.next_gap = top;
    }
  }
  return outcome;
}
