// The claim audit (SPEC 4.1): verdicts kept per pair id, each SUPPORTED or PARTIAL verdict grounded in
// its source like a fact quote. Pure: the caller supplies the report's pairs and the sources' text.
import { projectForMatching, quoteFoundIn } from './grounding.js';
import type { Pair } from './statements.js';

export const VERDICTS = ['SUPPORTED', 'PARTIAL', 'UNSUPPORTED'] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface VerdictRecord {
  pair_id: string;
  source_id: string;
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
  pairs: readonly Pair[],
  sourceText: (id: string) => string | undefined,
): { state: AuditState; recorded: string[]; refused: { pair_id: string; why: string }[] } {
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
  for (const v of inputs) {
    const pair = byId.get(v.pair_id);
    if (!pair) {
      refused.push({ pair_id: v.pair_id, why: 'not a pair of the report as it now stands; take pair ids from audit_report' });
      continue;
    }
    const passage = v.passage?.trim() ?? '';
    const note = v.note?.trim() ?? '';
    if (v.verdict !== 'SUPPORTED' && note === '') {
      refused.push({ pair_id: v.pair_id, why: `${v.verdict} needs a note saying what ${pair.source_id} does not support` });
      continue;
    }
    if (v.verdict !== 'UNSUPPORTED') {
      if (passage === '') {
        refused.push({ pair_id: v.pair_id, why: `${v.verdict} needs the passage of ${pair.source_id} it rests on, quoted verbatim` });
        continue;
      }
      if (passage.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length < MIN_PASSAGE_WORDS) {
        refused.push({ pair_id: v.pair_id, why: `the passage is under ${MIN_PASSAGE_WORDS} words; quote the sentence of ${pair.source_id} the verdict rests on` });
        continue;
      }
      const text = project(pair.source_id);
      if (text === undefined) {
        refused.push({ pair_id: v.pair_id, why: `${pair.source_id} is not a stored source of this run; the claim must cite a source fetch_source stored` });
        continue;
      }
      if (!quoteFoundIn(passage, text)) {
        refused.push({ pair_id: v.pair_id, why: `the passage is not in the stored text of ${pair.source_id}; copy it verbatim from audit_report or fetch_source` });
        continue;
      }
    }
    const record: VerdictRecord = { pair_id: pair.pair_id, source_id: pair.source_id, statement: pair.statement, verdict: v.verdict };
    if (passage !== '') record.passage = passage;
    if (note !== '') record.note = note;
    verdicts[v.pair_id] = record;
    recorded.push(v.pair_id);
  }
  return { state: { version: 1, verdicts }, recorded, refused };
}

/** Counts over the report's current pairs; verdicts of statements no longer in it do not count. */
export function auditCounts(state: AuditState, pairs: readonly Pair[]): AuditCounts {
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
export function auditProblems(state: AuditState, pairs: readonly Pair[]): { line: number; message: string }[] {
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
