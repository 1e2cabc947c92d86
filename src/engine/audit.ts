// The claim audit (SPEC 4.1): verdicts kept per pair id, each SUPPORTED or PARTIAL verdict grounded in
// its source like a fact quote. Pure: the caller supplies the report's pairs and the sources' text.
import { projectForMatching, quoteFoundIn } from './grounding.js';
import { pairId, type AuditPair } from './statements.js';

export const VERDICTS = ['SUPPORTED', 'PARTIAL', 'UNSUPPORTED'] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface VerdictRecord {
  pair_id: string;
  /** The cited source; for an uncited sentence, the source the auditor found for it, or null. */
  source_id: string | null;
  /** True for the verdict on an uncited sentence, and for the one carried to the pair citing it. */
  uncited?: boolean;
  statement: string;
  verdict: Verdict;
  passage?: string;
  note?: string;
}

export interface AuditState {
  version: 1;
  /** By pair id; a pair's id changes with its statement, so an edited statement has no verdict. */
  verdicts: Record<string, VerdictRecord>;
}

export interface VerdictInput {
  pair_id: string;
  verdict: Verdict;
  /** For an uncited sentence: the stored source whose passage supports it. */
  source_id?: string | undefined;
  passage?: string | undefined;
  note?: string | undefined;
}

export interface AuditCounts {
  supported: number;
  partial: number;
  unsupported: number;
  unaudited: number;
}

export const MIN_PASSAGE_WORDS = 3;

export function emptyAudit(): AuditState {
  return { version: 1, verdicts: {} };
}

/**
 * Records what can be recorded and refuses the rest, each with a reason that says what to send instead.
 * `sourceText(id)` is the stored markdown of a source, or undefined when there is none.
 */
export function applyVerdicts(
  state: AuditState,
  inputs: readonly VerdictInput[],
  pairs: readonly AuditPair[],
  sourceText: (id: string) => string | undefined,
): { state: AuditState; recorded: string[]; refused: { pair_id: string; why: string }[]; cite: { pair_id: string; line: number; source_id: string }[] } {
  const byId = new Map(pairs.map((p) => [p.pair_id, p]));
  const projected = new Map<string, string>();
  const project = (id: string): string | undefined => {
    if (!projected.has(id)) {
      const text = sourceText(id);
      if (text === undefined) return undefined;
      projected.set(id, projectForMatching(text));
    }
    return projected.get(id);
  };
  const verdicts = { ...state.verdicts };
  const recorded: string[] = [];
  const refused: { pair_id: string; why: string }[] = [];
  const cite: { pair_id: string; line: number; source_id: string }[] = [];
  for (const v of inputs) {
    const pair = byId.get(v.pair_id);
    if (!pair) {
      refused.push({ pair_id: v.pair_id, why: 'not a pair of the report as it now stands; take pair ids from audit_report' });
      continue;
    }
    const passage = v.passage?.trim() ?? '';
    const note = v.note?.trim() ?? '';
    const given = v.source_id?.trim() || undefined;
    if (pair.source_id !== null && given !== undefined && given !== pair.source_id) {
      refused.push({ pair_id: v.pair_id, why: `this pair cites ${pair.source_id}; source_id is only for an uncited sentence (source_id null)` });
      continue;
    }
    // An uncited sentence is judged against the source the auditor names; a cited pair against its own.
    const source = pair.source_id ?? given;
    const which = source ?? 'a stored source';
    if (v.verdict !== 'SUPPORTED' && note === '') {
      refused.push({ pair_id: v.pair_id, why: `${v.verdict} needs a note saying what ${source ?? 'no stored source'} does not support` });
      continue;
    }
    if (v.verdict !== 'UNSUPPORTED') {
      if (source === undefined) {
        refused.push({ pair_id: v.pair_id, why: `the sentence cites nothing: ${v.verdict} needs source_id, the stored source whose passage supports it` });
        continue;
      }
      if (passage === '') {
        refused.push({ pair_id: v.pair_id, why: `${v.verdict} needs the passage of ${which} it rests on, quoted verbatim` });
        continue;
      }
      if (passage.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length < MIN_PASSAGE_WORDS) {
        refused.push({ pair_id: v.pair_id, why: `the passage is under ${MIN_PASSAGE_WORDS} words; quote the sentence of ${which} the verdict rests on` });
        continue;
      }
      const text = project(source);
      if (text === undefined) {
        refused.push({ pair_id: v.pair_id, why: `${source} is not a stored source of this run; the claim must cite a source fetch_source stored` });
        continue;
      }
      if (!quoteFoundIn(passage, text)) {
        refused.push({ pair_id: v.pair_id, why: `the passage is not in the stored text of ${source}; copy it verbatim from audit_report or fetch_source` });
        continue;
      }
    }
    const record: VerdictRecord = { pair_id: pair.pair_id, source_id: source ?? null, statement: pair.statement, verdict: v.verdict };
    if (pair.source_id === null) record.uncited = true;
    if (passage !== '') record.passage = passage;
    if (note !== '') record.note = note;
    verdicts[v.pair_id] = record;
    recorded.push(v.pair_id);
    if (pair.source_id === null && source !== undefined && v.verdict === 'SUPPORTED') {
      // The pair the sentence becomes once the writer cites the source at its end is already judged.
      const carried = pairId(pair.statement, source);
      verdicts[carried] = { ...record, pair_id: carried };
      cite.push({ pair_id: pair.pair_id, line: pair.line, source_id: source });
    }
  }
  return { state: { version: 1, verdicts }, recorded, refused, cite };
}

/** Counts over the report's current pairs; verdicts of statements no longer in it do not count. */
export function auditCounts(state: AuditState, pairs: readonly AuditPair[]): AuditCounts {
  const c: AuditCounts = { supported: 0, partial: 0, unsupported: 0, unaudited: 0 };
  for (const p of pairs) {
    const v = state.verdicts[p.pair_id]?.verdict;
    if (v === 'SUPPORTED') c.supported += 1;
    else if (v === 'PARTIAL') c.partial += 1;
    else if (v === 'UNSUPPORTED') c.unsupported += 1;
    else c.unaudited += 1;
  }
  return c;
}

/** The pairs that keep a report from verifying, each with what to do about it. */
export function auditProblems(state: AuditState, pairs: readonly AuditPair[]): { line: number; message: string }[] {
  const out: { line: number; message: string }[] = [];
  // Pairs without a verdict are named per line, without their statements: before the first audit that
  // is every pair of the report, and a model reads the reply in full.
  const unjudged = new Map<number, string[]>();
  for (const p of pairs) {
    const v = state.verdicts[p.pair_id];
    const what = `pair ${p.pair_id} ("${short(p.statement)}" citing ${p.source_id})`;
    if (!v) {
      const ids = unjudged.get(p.line) ?? [];
      ids.push(`${p.pair_id} (${p.source_id})`);
      unjudged.set(p.line, ids);
    } else if (v.verdict !== 'SUPPORTED') {
      out.push({
        line: p.line,
        message: `${what} is ${v.verdict}: ${short(v.note ?? '', 160)}. Split the sentence so each part cites the source that says it, narrow it, cite a source that supports it, or remove it; then have the changed pairs judged`,
      });
    }
  }
  for (const [line, ids] of unjudged) {
    const these = ids.length === 1 ? `pair ${ids[0]} has no verdict: have it` : `pairs ${ids.join(', ')} have no verdict: have them`;
    out.push({ line, message: `${these} judged (audit_report, then record_audit)` });
  }
  return out;
}

function short(s: string, max = 80): string {
  const one = s.replace(/\s+/g, ' ').trim().replace(/"/g, "'");
  return one.length > max ? `${one.slice(0, max - 3)}...` : one;
}
