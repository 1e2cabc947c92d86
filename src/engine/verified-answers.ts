// Convergence asks for a verified answer (SPEC 4.1): an ANSWERED sub-question whose linked facts are all
// PLAUSIBLE holds the thread open, except in the quick tier or once the thread's origins are exhausted.
import type { Confidence, SubQuestionStatus } from './types.js';

interface LinkedFact {
  confidence: Confidence;
  grounded: boolean;
  sub_questions: readonly string[];
  origins?: readonly string[];
}

/** Distinct origins among the grounded quotes of the facts linked to a sub-question. */
export function subQuestionOrigins(id: string, facts: readonly LinkedFact[]): string[] {
  const out = new Set<string>();
  for (const f of facts) if (f.grounded && f.sub_questions.includes(id)) for (const o of f.origins ?? []) out.add(o);
  return [...out];
}

/** ANSWERED sub-questions without a grounded VERIFIED linked fact, each with the sites its answer rests on. */
export function unverifiedAnswers(
  subQuestions: readonly { id: string; status: SubQuestionStatus }[],
  facts: readonly LinkedFact[],
): { id: string; origins: string[] }[] {
  return subQuestions
    .filter((q) => q.status === 'ANSWERED')
    .filter((q) => !facts.some((f) => f.grounded && f.confidence === 'VERIFIED' && f.sub_questions.includes(q.id)))
    .map((q) => ({ id: q.id, origins: subQuestionOrigins(q.id, facts) }));
}

/** The warning for a sub-question that holds convergence back. */
export function heldWarning(u: { id: string; origins: readonly string[] }): string {
  const on =
    u.origins.length === 0 ? 'no grounded site' : u.origins.length === 1 ? `one secondary site, ${u.origins[0]}` : `secondary sites only (${u.origins.join(', ')})`;
  return `${u.id} rests on ${on}: read the primary source or a second site`;
}

/** The query hint that asks for it. */
export function heldHint(u: { id: string; origins: readonly string[] }, primaryOrigins: readonly string[]): string {
  const primary = primaryOrigins.length > 0 ? ` on ${primaryOrigins.join(' or ')}` : '';
  const other = u.origins.length > 0 ? ` or a site other than ${u.origins.join(', ')}` : '';
  return `verify ${u.id}: find its primary source${primary}${other} that states the answer`;
}
