// audit.md (SPEC 6): every claim–source pair of the report as it now stands, in report order, with its
// verdict and the passage it rests on. Rendered from state and the report alone.
import { auditCounts, auditHistory, type AuditState, type VerdictRecord } from '../engine/audit.js';
import type { AuditPair } from '../engine/statements.js';
import { cell, inline, render, sourceLink } from './render.js';

// An uncited sentence shows the source the auditor found for it, if any.
function sourceCell(citedId: string | null, v: VerdictRecord | undefined, urls: ReadonlyMap<string, string>): string {
  const id = citedId ?? v?.source_id ?? undefined;
  const link = id === undefined ? '' : sourceLink(id, urls.get(id));
  return citedId === null ? `uncited${link ? ` (found in ${link})` : ''}` : link;
}

export function renderAudit(i: { question: string; report: string; pairs: readonly AuditPair[]; audit: AuditState; urls: ReadonlyMap<string, string> }): string {
  const counts = auditCounts(i.audit, i.pairs);
  const history = auditHistory(i.audit, i.pairs);
  const ordinal = (n: number) => (n === 1 ? 'first pass' : `re-audit ${n - 1}`);
  return render('audit', {
    has_history: history.passes.length > 1 || history.earlier.length > 0,
    passes: history.passes.map((p) => ({
      pass: p.pass,
      name: ordinal(p.pass),
      total: p.total,
      supported: p.counts.SUPPORTED,
      partial: p.counts.PARTIAL,
      unsupported: p.counts.UNSUPPORTED,
    })),
    has_earlier: history.earlier.length > 0,
    earlier: history.earlier.map((v) => ({
      pass: ordinal(v.pass ?? 1),
      line: v.line ?? '—',
      statement: cell(v.statement),
      source: sourceCell(v.uncited && !v.carried ? null : v.source_id, v, i.urls),
      verdict: v.verdict,
      passage: cell(v.passage),
      note: cell(v.note),
    })),
    question: inline(i.question),
    report: i.report,
    total: i.pairs.length,
    ...counts,
    has_pairs: i.pairs.length > 0,
    pairs: i.pairs.map((p) => {
      const v = i.audit.verdicts[p.pair_id];
      return {
        line: p.line,
        statement: cell(p.statement),
        source: sourceCell(p.source_id, v, i.urls),
        verdict: v?.verdict ?? 'UNAUDITED',
        passage: cell(v?.passage),
        note: cell(v?.note),
      };
    }),
  });
}
