// The deterministic half of SCOPE: what the next round must do, derived from thread state alone.
import type { EscapeStrategy, Phase } from './types.js';
import type { ThreadState } from './thread-state.js';
import { forcedSubject } from './coverage.js';
import { heldHint } from './verified-answers.js';
import { localQuery, NORMATIVE_FETCH_PROMPTS, NORMATIVE_HINTS, readsNormativeText } from './normative.js';

export interface Directives {
  round: number;
  phase: Phase;
  forced_subject?: string;
  reformulate_from?: string;
  escape_strategy?: EscapeStrategy;
  query_hints: string[];
  fetch_prompt: string;
}

const PHASE_HINTS: Record<Phase, string[]> = {
  SURVEY: ['official or institutional pages', 'encyclopedic overviews', 'add site:.gov / site:.org / site:.edu where fitting'],
  EXTRACT: ['databases, registries and datasets', 'statistics tables and structured records', 'add terms like "dataset", "statistics", "registry"'],
  DIVERSIFY: ['forums and community discussion', 'news coverage and practitioner blogs', 'look for dissent and first-hand reports'],
  VERIFY: ['primary documents: papers, filings, standards, laws', 'trace each key claim to its original source', 'prefer DOIs and official PDFs'],
};

const PHASE_FETCH_PROMPTS: Record<Phase, string> = {
  SURVEY: 'Extract definitions, scope and the main claims with who makes them; quote verbatim.',
  EXTRACT: 'Extract figures with units, dates and the population they describe; quote the row or sentence verbatim.',
  DIVERSIFY: 'Extract first-hand experiences, disagreements and claims missing elsewhere; note who is speaking; quote verbatim.',
  VERIFY: 'Find the exact sentence that states each claim in the primary document; quote it verbatim with its context.',
};

const ESCAPE_HINTS: Record<EscapeStrategy, string> = {
  'query reformulation': 'reword the query: change at least half of its terms (synonyms, the field\'s jargon, the opposite framing)',
  'source-type shift': 'search a different kind of source than the last rounds used',
  'lateral search': 'search related entities: competitors, predecessors, parent bodies, adjacent fields',
  'negative search': 'search for what should exist but has not turned up: critiques, failures, retractions, null results',
  'community pivot': 'search practitioner communities: forums, Q&A sites, mailing lists, issue trackers',
  'assumption reframing': 'question the hidden assumptions of the sub-question and search the reframed question',
};

/** Directives for the round after the thread's last recorded one. */
export function nextDirectives(state: ThreadState): Directives {
  const round = state.rounds.length + 1;
  const forced = forcedSubject({
    subjects: state.subjects.map((s) => s.name),
    roundsBySubject: Object.fromEntries(state.subjects.map((s) => [s.name, s.rounds])),
    completedRounds: state.rounds.length,
    roundBudget: state.round_budget,
  });
  // The thread's hints, else the run's, else the generic ones: "registries and datasets" fits a
  // statistics question and misleads on a software one.
  const own = state.definition.source_hints?.[state.phase] ?? state.run_source_hints?.[state.phase];
  const normative = readsNormativeText({ primaryOrigins: state.definition.primary_origins, hints: state.definition.source_hints, runHints: state.run_source_hints });
  const hints = own && own.length > 0 ? [...own] : [...(normative ? NORMATIVE_HINTS : PHASE_HINTS)[state.phase]];
  const escape = state.pending.escape_strategy;
  if (escape) hints.unshift(`escape: ${ESCAPE_HINTS[escape]}`);
  for (const u of [...(state.pending.verify ?? [])].reverse()) hints.unshift(heldHint(u, state.definition.primary_origins ?? []));
  const local = (state.definition.primary_origins ?? []).filter((o) => o.startsWith('local:'));
  if (local.length > 0) {
    const query = localQuery(state, forced);
    hints.unshift(
      `this thread's sources are local (${local.join(', ')}): search_sources first, then the web for other kinds of source${query ? `; a query to try: "${query}"` : ''}`,
    );
  }
  if (forced) hints.unshift(`this round targets the subject "${forced}": list it in targeted_subjects`);
  const d: Directives = { round, phase: state.phase, query_hints: hints, fetch_prompt: (normative ? NORMATIVE_FETCH_PROMPTS : PHASE_FETCH_PROMPTS)[state.phase] };
  if (forced) d.forced_subject = forced;
  if (state.pending.reformulate_from) d.reformulate_from = state.pending.reformulate_from;
  if (escape) d.escape_strategy = escape;
  return d;
}
