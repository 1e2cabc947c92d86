// The parts of one round that decideRound (round.ts) sequences: each applies one rule of SPEC 4.1 to the
// round's input and returns what changed, pushing its warnings. Pure, like the rules they call.
import { InputError } from '../errors.js';
import type { Confidence, Level, SubQuestionStatus, SubjectStatus } from './types.js';
import type { Contradiction, RoundRecord, StoredFact, SubjectChange, SubQuestionState, SubjectState, ThreadState } from './thread-state.js';
import { admitFact, classifyNew, normalizeFactText, numbersNotInQuote, type FactInput } from './facts.js';
import { enclosingHeadings, quoteFound, quoteFoundIn } from './grounding.js';
import { labelLinesAbove, numberedHeadingsAbove } from './numbered-headings.js';
import { codeNotInQuote } from './code-in-quote.js';
import { quoteStruckThrough, STRUCK_WARNING } from './struck.js';
import { corroborate } from './corroboration.js';
import { originOf } from './origin.js';
import { resolveSubQuestion } from './answered.js';
import { supportingFact } from './key-findings.js';
import { nextContradictionId, type RunContradiction } from './contradictions.js';

/** A fact as record_round takes it: fact admission's input, plus other sources that state it. */
export interface RoundFactInput extends FactInput {
  also?: { url: string; quote: string }[];
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
  /** A contradiction as sent: the server numbers a new one and defaults its severity. */
  contradictions?: (Omit<Contradiction, 'id' | 'severity' | 'round' | 'resolved_round'> & { id?: string; severity?: Level })[];
  next_focus?: string;
}

export interface StoredText {
  source_id: string;
  title: string;
  markdown: string;
  /** projectForMatching(markdown), when the caller caches it across calls. */
  projected?: string;
  /** The site it counts for: its origin, or the origin of the source it mirrors. */
  origin?: string;
  /** A PDF stored up to its page cap: the pages it does not hold, where a quote may be instead. */
  pages_not_read?: number;
}

export interface RoundContext {
  grounding: boolean;
  timestamp: string;
  canonicalKey: (url: string) => string;
  storedText: (canonicalKey: string) => StoredText | undefined;
  /** The contradictions other threads of the run recorded (ids are run-wide; contradictions.ts). */
  otherContradictions?: RunContradiction[];
  /** The run's highest stored source number now: the baseline of the thread's next round for stale rounds. */
  sourcesStored?: number;
}

export interface RoundKeys {
  visited: string[];
  facts: string[];
  results: string[];
}

/** The refusals of SPEC 4.1 that depend on the thread, before anything is computed. */
export function refuseRound(prev: ThreadState, input: RoundInput): void {
  if (prev.completed) throw new InputError(`thread "${prev.name}" was completed with complete_thread; start a new thread instead of recording more rounds`);
  if (prev.converged) {
    throw new InputError(`thread "${prev.name}" already converged (${prev.convergence_reason ?? 'stopped'}); call complete_thread instead of recording more rounds`);
  }
  if (input.urls_visited.length > prev.results_per_round) {
    throw new InputError(
      `urls_visited has ${input.urls_visited.length} URLs but this run reads at most ${prev.results_per_round} results per round; record only the results you read`,
    );
  }
}

/** Canonical keys of every URL the round names; a URL that has none refuses the round. */
export function roundKeys(input: RoundInput, ctx: RoundContext): RoundKeys {
  const distinct = (urls: readonly string[], where: string) => {
    const out: string[] = [];
    urls.forEach((url, i) => {
      const key = keyOrRefuse(ctx, url, `${where}[${i}]`);
      if (!out.includes(key)) out.push(key);
    });
    return out;
  };
  input.facts.forEach((f, i) => (f.also ?? []).forEach((a, j) => keyOrRefuse(ctx, a.url, `facts[${i}].also[${j}].url`)));
  return {
    visited: distinct(input.urls_visited, 'urls_visited'),
    facts: input.facts.map((f, i) => keyOrRefuse(ctx, f.url, `facts[${i}].url`)),
    results: distinct(input.search_results ?? [], 'search_results'),
  };
}

/** The site a URL counts for: its stored text's (mirrors and redirects resolved), else its own host's. */
export function originFor(ctx: RoundContext, url: string): string | undefined {
  try {
    return ctx.storedText(ctx.canonicalKey(url))?.origin ?? originOf(url);
  } catch {
    return undefined;
  }
}

/** Fact admission, grounding of `also`, corroboration and new-vs-confirming, in input order. */
export function admitRoundFacts(prev: ThreadState, input: RoundInput, factKeys: readonly string[], ctx: RoundContext, round: number, warnings: string[]): StoredFact[] {
  const sqIds = new Set(prev.sub_questions.map((q) => q.id));
  const drifted = new Set(prev.drifted_keys);
  const primaryOrigins = prev.definition.primary_origins ?? [];
  const isNew = classifyNew(input.facts, new Set(prev.facts.map((f) => normalizeFactText(f.fact))));
  const unquoted: Unquoted = { numbers: [], code: [] };
  const facts = input.facts.map((f, i) => {
    const key = factKeys[i] as string;
    const stored = ctx.storedText(key);
    const admitted = admitFact(f, { grounding: ctx.grounding, storedMarkdownFor: () => stored?.markdown, projectedFor: () => stored?.projected });
    if (admitted.warning) warnings.push(`fact ${i + 1}: ${admitted.warning}${stored?.pages_not_read && f.quote?.trim() ? `; the PDF's last ${stored.pages_not_read} pages are not stored: when the quote is from them, read them with fetch_source pages and cite the url it returns` : ''}`);
    else {
      unquotedNumbers(f, i, stored, unquoted.numbers);
      unquotedCode(f, i, stored, unquoted.code);
    }
    if (admitted.grounded && f.quote !== undefined && stored !== undefined && quoteStruckThrough(f.quote, stored.markdown)) warnings.push(`fact ${i + 1}: ${STRUCK_WARNING}`);
    const also = groundAlso(f, i, ctx, warnings);
    const own = stored?.origin ?? originFor(ctx, f.url);
    const isDrifted = drifted.has(key);
    const grounded = admitted.grounded && !isDrifted;
    const judged = corroborate({
      admitted: admitted.confidence,
      ownGrounded: grounded,
      groundedOrigins: [...(own ? [own] : []), ...also.map((a) => a.origin)],
      primaryOrigins,
      grounding: ctx.grounding,
    });
    if (judged.warning) warnings.push(`fact ${i + 1}: ${judged.warning}`);
    let confidence = judged.confidence;
    let notes = joinNotes(f.notes, admitted.notes);
    if (isDrifted) {
      confidence = 'UNVERIFIED';
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
      is_new: isNew[i] === true && !isDrifted,
      grounded,
      origins: grounded ? judged.origins : [],
      primary: grounded && judged.primary,
    };
    if (stored) out.source_id = stored.source_id;
    const title = f.source_title ?? stored?.title;
    if (title !== undefined) out.source_title = title;
    if (f.quote !== undefined) out.quote = f.quote;
    if (notes !== undefined) out.notes = notes;
    if (also.length > 0) out.also = also.map((a) => (a.source_id ? { url: a.url, quote: a.quote, source_id: a.source_id } : { url: a.url, quote: a.quote }));
    return out;
  });
  warnings.push(...unquotedWarnings(unquoted));
  return facts;
}

/** A fact's `also` entries that ground like its own quote would; the others are dropped with a warning. */
function groundAlso(f: RoundFactInput, i: number, ctx: RoundContext, warnings: string[]) {
  const kept: { url: string; quote: string; source_id: string; origin: string }[] = [];
  (f.also ?? []).forEach((a, j) => {
    const stored = ctx.storedText(ctx.canonicalKey(a.url));
    const why = !a.quote.trim()
      ? 'has no quote'
      : !stored
        ? `its URL ${a.url} was not read through fetch_source`
        : !(stored.projected !== undefined ? quoteFoundIn(a.quote, stored.projected) : quoteFound(a.quote, stored.markdown))
          ? `its quote was not found in the stored text of ${a.url}`
          : undefined;
    if (why || !stored) warnings.push(`fact ${i + 1}: also[${j}] dropped: ${why ?? 'not stored'}`);
    else kept.push({ url: a.url, quote: a.quote, source_id: stored.source_id, origin: stored.origin ?? originFor(ctx, a.url) ?? a.url });
  });
  return kept;
}

/** Where advice on quoting applies; a round that stops the thread says where else (see `whenStopped`). */
export const NEXT_ROUND = 'from the next round';

/** Advice for a next round, said of later threads when this round stopped the thread (trial 11: advice with a STOP). */
export function whenStopped(warning: string): string {
  // Trial 66 read "in later rounds of other threads" as something to fix in the thread that had stopped.
  return warning.replace(NEXT_ROUND, 'nothing to redo here, as this thread has stopped; in the facts of other threads');
}

/** Numbers and code terms of facts that their quotes do not hold, by fact (0-based), said in one warning each. */
interface Unquoted {
  numbers: { i: number; terms: string[] }[];
  code: { i: number; terms: string[] }[];
}

function unquotedNumbers(f: RoundFactInput, i: number, stored: StoredText | undefined, out: Unquoted['numbers']): void {
  let unquoted = numbersNotInQuote(f.fact, f.quote);
  // A number may be stated only above the quote: in the page's title (the version a page documents), a
  // heading (a changelog's version), or a PDF's numbered section title. Looked up only then.
  if (unquoted.length > 0 && stored !== undefined && f.quote !== undefined) {
    const above = [stored.title, ...enclosingHeadings(f.quote, stored.markdown), ...numberedHeadingsAbove(f.quote, stored.markdown), ...labelLinesAbove(f.quote, stored.markdown)];
    unquoted = numbersNotInQuote(f.fact, f.quote, above);
  }
  if (unquoted.length > 0) out.push({ i, terms: unquoted });
}

function unquotedCode(f: RoundFactInput, i: number, stored: StoredText | undefined, out: Unquoted['code']): void {
  let unquoted = codeNotInQuote(f.fact, f.quote);
  // A manual names the command a section documents in its heading, or the option it describes on a line of
  // its own just above the sentence that is quoted.
  if (unquoted.length > 0 && stored !== undefined && f.quote !== undefined) unquoted = codeNotInQuote(f.fact, f.quote, [stored.title, ...enclosingHeadings(f.quote, stored.markdown), ...labelLinesAbove(f.quote, stored.markdown)]);
  if (unquoted.length > 0) out.push({ i, terms: unquoted.map((t) => `\`${t}\``) });
}

/**
 * One warning for the numbers and one for the code terms of all facts whose quotes do not hold them
 * (recorded as given: a number from a table cell can be right without being in the quote). The advice is
 * the same for every fact, so it is said once (SPEC 11.1, reply economy).
 */
function unquotedWarnings(u: Unquoted): string[] {
  const say = (notes: { i: number; terms: string[] }[], where: string, verb: string): string[] => {
    if (notes.length === 0) return [];
    const [one] = notes;
    if (notes.length === 1 && one) {
      const it = one.terms.length === 1 ? 'it' : 'them';
      return [`fact ${one.i + 1}: ${one.terms.join(', ')} ${one.terms.length === 1 ? 'is' : 'are'} not in its quote${where} (recorded as given); ${NEXT_ROUND}, quote the words that ${verb} ${it}, or leave ${it} out of the fact`];
    }
    const which = notes.map((n) => `${n.i + 1} (${n.terms.join(', ')})`).join(', ');
    return [`facts ${which}: not in their quotes${where.replace(/\bit\b/g, 'them')} (recorded as given); ${NEXT_ROUND}, quote the words that ${verb} them, or leave them out of the facts`];
  };
  return [...say(u.numbers, ', the headings above it or the page title', 'state'), ...say(u.code, ' or the headings above it', 'name')];
}

/** Subject coverage counts only what the round says it targeted (SPEC 4.1 subject coverage). */
export function updateSubjects(prev: ThreadState, input: RoundInput, warnings: string[]): { subjects: SubjectState[]; targeted: string[]; changes: SubjectChange[] } {
  const names = new Set(prev.subjects.map((s) => s.name));
  const targeted: string[] = [];
  for (const name of input.targeted_subjects ?? []) {
    if (!names.has(name)) warnings.push(`targeted subject "${name}" is not a subject of this thread; subjects are ${[...names].join(', ')}`);
    else if (!targeted.includes(name)) targeted.push(name);
  }
  if (prev.pending.forced_subject && !targeted.includes(prev.pending.forced_subject)) {
    warnings.push(`this round was forced onto the subject "${prev.pending.forced_subject}" but did not list it in targeted_subjects`);
  }
  const changes: SubjectChange[] = [];
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
      changes.push(change);
    }
    return next;
  });
  for (const u of input.subject_updates ?? []) if (!names.has(u.name)) warnings.push(`subject update for unknown subject "${u.name}" ignored`);
  return { subjects, targeted, changes };
}

/** The caller proposes each sub-question's status; the grounded evidence decides (SPEC 4.1 answered). */
export function updateSubQuestions(prev: ThreadState, input: RoundInput, allFacts: readonly StoredFact[], warnings: string[]): SubQuestionState[] {
  const ids = new Set(prev.sub_questions.map((q) => q.id));
  const out = prev.sub_questions.map((q) => {
    const update = input.sub_question_updates?.find((u) => u.id === q.id);
    if (!update) return q;
    const resolved = resolveSubQuestion({
      id: q.id,
      proposed: update.status,
      ...(update.confidence !== undefined ? { proposedConfidence: update.confidence } : {}),
      linkedFacts: allFacts.filter((f) => f.sub_questions.includes(q.id)),
    });
    if (resolved.warning) warnings.push(resolved.warning);
    const next = { ...q, status: resolved.status };
    if (resolved.confidence !== undefined) next.confidence = resolved.confidence;
    else delete next.confidence;
    if (update.key_finding !== undefined) {
      next.key_finding = update.key_finding;
      // The completion report shows it as written only beside a fact that states it; said now, not found there
      // (trial 66), and once per wording: the replays resent one finding round after round.
      if (update.key_finding.trim() !== '' && update.key_finding !== q.key_finding && !supportingFact(q.id, allFacts, update.key_finding)) {
        warnings.push(`${q.id}: no one grounded fact linked to it states its key_finding (half its words, all its numbers), so the completion report shows the strongest linked fact; write it from one such fact`);
      }
    }
    return next;
  });
  for (const u of input.sub_question_updates ?? []) if (!ids.has(u.id)) warnings.push(`sub-question update for unknown id "${u.id}" ignored`);
  return out;
}

/**
 * New contradictions get the next run-wide C<n>; an id updates an existing one, of this thread or of
 * another (returned in `foreign`, for the caller to write back to the thread that recorded it).
 */
export function updateContradictions(
  prev: ThreadState,
  input: RoundInput,
  round: number,
  warnings: string[],
  others: readonly RunContradiction[] = [],
): { contradictions: Contradiction[]; touched: string[]; foreign: RunContradiction[] } {
  const contradictions: Contradiction[] = prev.contradictions.map((c) => ({ ...c }));
  const foreign: RunContradiction[] = [];
  const touched: string[] = [];
  const taken = () => [...contradictions, ...others].map((c) => c.id);
  for (const c of input.contradictions ?? []) {
    let existing: Contradiction | undefined = c.id !== undefined ? contradictions.find((x) => x.id === c.id) : undefined;
    if (c.id !== undefined && !existing) {
      const theirs = foreign.find((x) => x.id === c.id) ?? others.find((x) => x.id === c.id);
      if (theirs) {
        const copy = foreign.includes(theirs) ? theirs : { ...theirs };
        if (copy !== theirs) foreign.push(copy);
        existing = copy;
      } else {
        const ids = taken();
        warnings.push(`contradiction id "${c.id}" is unknown in this run (${ids.length > 0 ? `its ids are ${ids.join(', ')}` : 'it has none yet'}); recorded as a new contradiction, ${nextContradictionId(ids)}`);
      }
    }
    if (existing) {
      const wasOpen = existing.status === 'OPEN';
      Object.assign(existing, { ...c, id: existing.id, severity: c.severity ?? existing.severity, round: existing.round });
      if (wasOpen && c.status === 'RESOLVED') existing.resolved_round = round;
      if (c.status === 'OPEN') delete existing.resolved_round;
      touched.push(existing.id);
    } else {
      const id = nextContradictionId(taken());
      const { claim, source_a, url_a, source_b, url_b, status } = c;
      const added: Contradiction = { id, claim, source_a, url_a, source_b, url_b, status, severity: c.severity ?? 'MEDIUM', round };
      if (c.resolution !== undefined) added.resolution = c.resolution;
      if (status === 'RESOLVED') added.resolved_round = round;
      contradictions.push(added);
      touched.push(id);
    }
    const now = contradictions.find((x) => x.id === touched.at(-1)) ?? foreign.find((x) => x.id === touched.at(-1));
    if (now && now.status === 'RESOLVED' && !now.resolution?.trim()) {
      warnings.push(`${now.id} is RESOLVED without a resolution: send it again with resolution (how it was settled, and by which source) so the completion reports can show it`);
    }
  }
  return { contradictions, touched, foreign };
}

/** The URLs a recorded round offers the overlap rule: its search results, else the pages it read. */
export function overlapBasis(r: RoundRecord): string[] {
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

export function joinNotes(a: string | undefined, b: string | undefined): string | undefined {
  if (a && b) return `${a}; ${b}`;
  return a ?? b;
}
