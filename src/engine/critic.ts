// Critic loop (SPEC 4.1): when to stop critiquing, and which gap to chase next.
import { containment, jaccard } from './similarity.js';
import { isStopWord, terms } from './text.js';
import type { GapKind } from './types.js';

export interface CriticGap {
  kind: GapKind;
  description: string;
  query: string;
  priority: number;
  material: boolean;
  unanswerable?: boolean;
  /** For kind `uncovered`: the stored source whose passage the report leaves out. */
  source_id?: string;
}

export interface CriticState {
  rounds: number;
  clean_signoffs: number;
  open_questions: string[];
  /** Critiques that named a next_target, each a critic thread granted (absent in runs made before it). */
  sent?: number;
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

/**
 * Two open questions are the same gap when their texts match after normalisation, or when their
 * stop-word-free stems overlap by at least SAME_GAP (Jaccard): a critic rewording a gap in a later round
 * ("Is WAL checkpoint starvation documented for long-running readers?" / "Whether checkpoint starvation
 * under long-running readers in WAL mode is documented") must not list it twice; two gaps about one
 * subject that ask different things ("revenue" / "staff turnover" of the same pilot) stay apart.
 */
export const SAME_GAP = 0.6;

/** A shorter gap whose words (at least this many) the longer one nearly all holds is the same gap. */
const CONTAINED = { share: 0.8, min: 4 };

export function sameQuestion(a: string, b: string): boolean {
  if (normaliseQuestion(a) === normaliseQuestion(b) || jaccard(a, b) >= SAME_GAP) return true;
  const c = containment(a, b);
  return c.smaller >= CONTAINED.min && c.share >= CONTAINED.share;
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
  const base = `Critic ${criticIndex}: ${shortName(gap)}`;
  let name = base;
  for (let n = 2; taken.includes(name); n++) name = `${base} (${n})`;
  return { name, sub_questions: [{ id: 'SQ-1', question: asQuestion(gap) }], subjects: [] };
}

const NAME_WORDS = 4;
/** A query of up to this many content words is a name already; cutting it would drop what it is about. */
const WHOLE_QUERY_WORDS = 8;

/**
 * A name a person would write for the gap: the content words of its query (search operators, site:
 * filters, quoted-phrase marks, stop words and repeats left out), as written; all of them when there are
 * at most WHOLE_QUERY_WORDS, else the first NAME_WORDS of a query that is a long search string. A query
 * with no such word falls back to the description's.
 */
export function shortName(gap: Pick<CriticGap, 'description' | 'query'>): string {
  const words = (text: string) => {
    const out: string[] = [];
    const seen = new Set<string>();
    for (const raw of text.split(/\s+/)) {
      if (/^-|^[a-z]+:/i.test(raw) || /^(?:OR|AND|NOT)$/.test(raw)) continue; // -term, site:x, OR
      const w = raw.replace(/^["'(\u201c]+|["'),.;:!?\u201d]+$/g, '');
      const key = w.toLowerCase();
      if (w === '' || !/[\p{L}\p{N}]/u.test(w) || isStopWord(key) || seen.has(key)) continue;
      if (terms(w).every((t) => isStopWord(t))) continue;
      seen.add(key);
      out.push(w);
    }
    return out.length > WHOLE_QUERY_WORDS ? out.slice(0, NAME_WORDS) : out;
  };
  const picked = words(gap.query);
  return (picked.length > 0 ? picked : words(gap.description)).join(' ') || 'follow-up';
}

const QUESTION_START = /^(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|can|could|should|would|will|has|have|had)\b/i;

/**
 * The gap as a question: its description's first sentence when that is one (or starts like one, as
 * "Which versions …"); "Whether X" becomes "Is it true that X?"; anything else is asked about:
 * "What do the sources say about <name>? (<description>)".
 */
export function asQuestion(gap: Pick<CriticGap, 'description' | 'query'>): string {
  // The first sentence: up to a line break (a list of points has no full stops) or a sentence end, an
  // abbreviation's full stop ("e.g.", "vs.") aside; a "?" goes after that one sentence, never after several.
  const firstLine = gap.description.trim().split(/\n/)[0]!.trim().replace(/\s+/g, ' ');
  const first = /^.*?(?<!\b(?:e\.g|i\.e|vs|etc|cf|approx|incl|ca|no))[.?!](?=\s|$)/i.exec(firstLine)?.[0] ?? firstLine;
  if (first.endsWith('?')) return first;
  const body = first.replace(/[.!]+$/, '');
  if (QUESTION_START.test(body)) return `${body}?`;
  const whether = /^whether\s+(.*)$/i.exec(body);
  if (whether) return `Is it true that ${whether[1]}?`;
  return `What do the sources say about ${shortName(gap)}? (${body})`;
}

/** The loop has stopped: two clean sign-offs in a row, or the critic rounds spent. */
export function criticStopped(state: Pick<CriticState, 'rounds' | 'clean_signoffs'>, criticRounds: number): boolean {
  return state.clean_signoffs >= CLEAN_SIGNOFFS_TO_STOP || state.rounds >= criticRounds;
}

export function emptyCriticState(): CriticState {
  return { rounds: 0, clean_signoffs: 0, open_questions: [] };
}

/**
 * Applies one critique. Unanswerable gaps become open questions and play no other part, uncovered ones
 * are the writer's; a sign-off that still lists material gaps is not a clean one. Never refuses: past the
 * budget it keeps counting and says stop.
 */
export function applyCritique(
  state: CriticState,
  input: { gaps: readonly CriticGap[]; signoff: boolean },
  criticRounds: number,
): CritiqueOutcome {
  const openQuestions = [...state.open_questions];
  const keep = (g: CriticGap): void => {
    if (openQuestions.some((q) => sameQuestion(q, g.description))) return;
    openQuestions.push(g.description);
  };
  for (const g of input.gaps) if (g.unanswerable === true) keep(g);
  // An uncovered passage is already stored: the writer states it, cited, so it opens no thread and keeps
  // no sign-off from being clean.
  const material = input.gaps.filter((g) => g.unanswerable !== true && g.material && g.kind !== 'uncovered');

  const clean = input.signoff && material.length === 0;
  const rounds = state.rounds + 1;
  const cleanSignoffs = clean ? state.clean_signoffs + 1 : 0;
  const stop = criticStopped({ rounds, clean_signoffs: cleanSignoffs }, criticRounds);
  // Material gaps the critic budget ran out on are open too: no gap is dropped silently.
  if (stop) for (const g of material) keep(g);
  const next: CriticState = { rounds, clean_signoffs: cleanSignoffs, open_questions: openQuestions, ...(state.sent !== undefined ? { sent: state.sent } : {}) };

  const outcome: CritiqueOutcome = { state: next, stop, open_material_gaps: material.length, clean };
  if (!stop) {
    let top: CriticGap | undefined;
    for (const g of material) if (!top || g.priority > top.priority) top = g;
    if (top) {
      outcome.next_target = top.query;
      outcome.next_gap = top;
      next.sent = (state.sent ?? 0) + 1;
    }
  }
  return outcome;
}
