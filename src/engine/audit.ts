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
  /** The audit pass it was given in (1 when absent: state written before passes were kept). */
  pass?: number;
  /** The statement's line in the report as it was judged. */
  line?: number;
  /** A copy of an uncited sentence's verdict, kept for the pair its citation makes. */
  carried?: boolean;
}

export interface AuditState {
  version: 1;
  /** By pair id; a pair's id changes with its statement, so an edited statement has no verdict. */
  verdicts: Record<string, VerdictRecord>;
  /** The current pass: a new one starts when verdicts come for a report that changed since the last. */
  pass?: number;
  /** sha256 of the report the last verdicts were given on. */
  report_sha256?: string;
  /** Verdicts that a later verdict on the same pair replaced, oldest first. */
  history?: VerdictRecord[];
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
 * `sourceText(id)` is the stored markdown of a source, or undefined when there is none; `sourceTitle(id)` its
 * title, which is not stored text: a passage taken from it is refused with a reason that says so.
 */
export function applyVerdicts(
  state: AuditState,
  inputs: readonly VerdictInput[],
  pairs: readonly AuditPair[],
  sourceText: (id: string) => string | undefined,
  reportSha256?: string,
  sourceTitle?: (id: string) => string | undefined,
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
  const history = [...(state.history ?? [])];
  // Verdicts on a report edited since the last ones (a fix, then a re-audit) open a new pass.
  let pass = state.pass ?? 1;
  if (Object.keys(state.verdicts).length > 0 && reportSha256 !== undefined && state.report_sha256 !== undefined && reportSha256 !== state.report_sha256) pass += 1;
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
        const title = sourceTitle?.(source);
        // Trial 57's auditor quoted a page's title, which fetch_source shows beside the text but is not in it.
        const why =
          title !== undefined && quoteFoundIn(passage, projectForMatching(title))
            ? `the passage is ${source}'s title, which is not part of its stored text; quote the page's own text, or mark the pair PARTIAL or UNSUPPORTED if only the title says it`
            : `the passage is not in the stored text of ${source}; copy it verbatim from audit_report or fetch_source`;
        refused.push({ pair_id: v.pair_id, why });
        continue;
      }
    }
    const record: VerdictRecord = { pair_id: pair.pair_id, source_id: source ?? null, statement: pair.statement, verdict: v.verdict };
    if (pair.source_id === null) record.uncited = true;
    if (passage !== '') record.passage = passage;
    if (note !== '') record.note = note;
    record.pass = pass;
    record.line = pair.line;
    const earlier = verdicts[v.pair_id];
    if (earlier) history.push(earlier);
    verdicts[v.pair_id] = record;
    recorded.push(v.pair_id);
    if (pair.source_id === null && source !== undefined && v.verdict === 'SUPPORTED') {
      // The pair the sentence becomes once the writer cites the source at its end is already judged.
      const carried = pairId(pair.statement, source);
      verdicts[carried] = { ...record, pair_id: carried, carried: true };
    }
  }
  const next: AuditState = { version: 1, verdicts, pass };
  const sha = reportSha256 ?? state.report_sha256;
  if (sha !== undefined) next.report_sha256 = sha;
  if (history.length > 0) next.history = history;
  return { state: next, recorded, refused };
}

/**
 * What audit.md keeps below its table (SPEC 6): for each pass, how many verdicts it gave of each kind,
 * and every verdict that is not the current one of a pair now in the report (replaced by a re-audit, or
 * given on a statement since changed), pass by pass, so a summary like "14 were SUPPORTED on the first
 * pass" can be checked from audit.md alone.
 */
export function auditHistory(state: AuditState, pairs: readonly AuditPair[]): { passes: { pass: number; counts: Record<Verdict, number>; total: number }[]; earlier: VerdictRecord[] } {
  const current = new Set(pairs.map((p) => p.pair_id));
  // A verdict carried to the pair an uncited sentence becomes once cited is the same judgement: counted once.
  const all = [...(state.history ?? []), ...Object.values(state.verdicts)].filter((v) => !v.carried);
  const earlier = [...(state.history ?? []), ...Object.values(state.verdicts).filter((v) => !current.has(v.pair_id))].filter((v) => !v.carried);
  const passes = new Map<number, { pass: number; counts: Record<Verdict, number>; total: number }>();
  for (const v of all) {
    const n = v.pass ?? 1;
    const e = passes.get(n) ?? { pass: n, counts: { SUPPORTED: 0, PARTIAL: 0, UNSUPPORTED: 0 }, total: 0 };
    e.counts[v.verdict] += 1;
    e.total += 1;
    passes.set(n, e);
  }
  const order = (v: VerdictRecord) => [v.pass ?? 1, v.line ?? 0] as const;
  earlier.sort((a, b) => order(a)[0] - order(b)[0] || order(a)[1] - order(b)[1] || (a.pair_id < b.pair_id ? -1 : a.pair_id > b.pair_id ? 1 : 0));
  return { passes: [...passes.values()].sort((a, b) => a.pass - b.pass), earlier };
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
/** How pairs get judged, said to whoever reads the problems: the agent (its tools) or a person (the command). */
export const JUDGE_BY_TOOLS = '(audit_report, then record_audit)';

/** Up to this many lines, the pairs without a verdict are named line by line. */
const UNJUDGED_LINES_LISTED = 5;

export function auditProblems(state: AuditState, pairs: readonly AuditPair[], judgeBy = JUDGE_BY_TOOLS): { line: number; message: string }[] {
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
  // Many lines without verdicts (every line, before the first audit): one problem with the count and the
  // lines, since audit_report lists the pairs anyway (trial 13: two such replies of 3.7k characters each).
  if (unjudged.size > UNJUDGED_LINES_LISTED) {
    const lines = [...unjudged.keys()];
    const n = [...unjudged.values()].reduce((a, ids) => a + ids.length, 0);
    out.push({ line: lines[0] as number, message: `${n} pairs on ${lines.length} lines have no verdict (lines ${lines.join(', ')}): have them judged ${judgeBy}` });
    return out;
  }
  // What to do is said on the first such line only: it is the same for all (a reply listed it on 15 lines).
  let first = true;
  for (const [line, ids] of unjudged) {
    const these = ids.length === 1 ? `pair ${ids[0]} has no verdict` : `pairs ${ids.join(', ')} have no verdict`;
    out.push({ line, message: first ? `${these}: have ${ids.length === 1 ? 'it' : 'them'} judged ${judgeBy}` : these });
    first = false;
  }
  return out;
}

function short(s: string, max = 80): string {
  const one = s.replace(/\s+/g, ' ').trim().replace(/"/g, "'");
  return one.length > max ? `${one.slice(0, max - 3)}...` : one;
}
