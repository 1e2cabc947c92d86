// audit.md (SPEC 6): every claim–source pair of the report as it now stands, in report order, with its
// verdict and the passage it rests on. Rendered from state and the report alone.
import { auditCounts, type AuditState } from '../engine/audit.js';
import type { Pair } from '../engine/statements.js';
import { cell, inline, render } from './render.js';

export function renderAudit(i: { question: string; report: string; pairs: readonly Pair[]; audit: AuditState; urls: ReadonlyMap<string, string> }): string {
  const counts = auditCounts(i.audit, i.pairs);
  return render('audit', {
    question: inline(i.question),
    report: i.report,
    total: i.pairs.length,
    ...counts,
    has_pairs: i.pairs.length > 0,
    pairs: i.pairs.map((p) => {
      const v = i.audit.verdicts[p.pair_id];
      const url = i.urls.get(p.source_id);
      return {
        line: p.line,
        statement: cell(p.statement),
        source: url ? `[${p.source_id}](${url.replace(/[()\s|]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)})` : p.source_id,
        verdict: v?.verdict ?? 'UNAUDITED',
        passage: cell(v?.passage),
        note: cell(v?.note),
      };
    }),
  });
}
