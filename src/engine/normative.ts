// Threads that read a specification, manual or standard, or a folder of the user's own documents, need
// other hints than a statistics question: the requirement and its wording, not "registries and datasets".
import type { SourceHints } from './types.js';
import type { Phase } from './types.js';
import type { ThreadState } from './thread-state.js';
import { rankingQuestion } from './coverage-audit.js';
import { isStopWord, terms } from './text.js';

// Source hints that name the kind of document (in any phase) mark the thread as reading normative text.
// "documentation" alone is left out: a software question's docs are read for forums and examples too.
const NORMATIVE_SOURCES = /\b(?:specs?|specifications?|standards?|manuals?|polic(?:y|ies)|rfcs?|normative|handbooks?|man pages?)\b/i;

/** Whether the thread reads a specification, manual or standard: its sources are local, or its hints say so. */
export function readsNormativeText(i: { primaryOrigins?: readonly string[]; hints?: SourceHints; runHints?: SourceHints }): boolean {
  if ((i.primaryOrigins ?? []).some((o) => o.startsWith('local:'))) return true;
  const said = [...Object.values(i.hints ?? {}), ...Object.values(i.runHints ?? {})].flat();
  return said.some((h) => NORMATIVE_SOURCES.test(h));
}

export const NORMATIVE_HINTS: Record<Phase, string[]> = {
  SURVEY: ['the contents, scope and definitions sections', 'the section that governs each sub-question', 'defined terms, with the section that defines each'],
  EXTRACT: [
    'each requirement with its modal verb (must, should, may) and its conditions, in the exact wording',
    'the section number and title that states each requirement',
    'code, command lines, field names and file paths, verbatim',
  ],
  DIVERSIFY: ['exceptions, conditions and cross-references that qualify each requirement', 'appendices, checklists of changes and other versions of the same text'],
  VERIFY: ['the exact sentence that states each claim, with its section', "check each claim's modal verb and conditions against that sentence"],
};

export const NORMATIVE_FETCH_PROMPTS: Record<Phase, string> = {
  SURVEY: 'Extract the scope, the defined terms and the section that governs each sub-question; quote definitions verbatim with their section.',
  EXTRACT:
    'Extract each requirement exactly as worded: its modal verb (must, should, may), its conditions and the section that states it; copy code and command lines verbatim.',
  DIVERSIFY: 'Extract the exceptions, conditions and later changes that qualify each requirement; quote them verbatim with their section.',
  VERIFY: 'Find the sentence that states each claim; quote it verbatim with its section, and check its modal verb and conditions against the claim.',
};

const QUERY_WORDS = 6;
// Question words the stop-word list keeps: a question's "when" or "does" is no word of its subject.
const QUESTION_WORDS = new Set('what when where which who whom whose why how does did do'.split(' '));

/**
 * A `search_sources` query for the next round of a thread reading a local folder: the subject the round
 * targets (else the first one not yet covered) and the content words of the first sub-question not yet
 * answered, without the words that speak of sources ("documentation", "say"), at most QUERY_WORDS words.
 */
export function localQuery(state: Pick<ThreadState, 'sub_questions' | 'subjects'>, forced?: string): string {
  const subject = forced ?? state.subjects.find((s) => s.status !== 'COVERED')?.name ?? '';
  const question = state.sub_questions.find((q) => q.status !== 'ANSWERED')?.question ?? '';
  const words: string[] = [];
  for (const w of terms(`${subject} ${rankingQuestion(question)}`)) {
    if (isStopWord(w) || QUESTION_WORDS.has(w) || words.includes(w)) continue;
    words.push(w);
  }
  return words.slice(0, QUERY_WORDS).join(' ');
}
