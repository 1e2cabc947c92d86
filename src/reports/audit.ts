// audit.md (SPEC 6): every claim–source pair of the report as it now stands, in report order, with its
// verdict and the passage it rests on. Rendered from state and the report alone.
import { auditCounts, type AuditState } from '../engine/audit.js';
import type { AuditPair } from '../engine/statements.js';
import { cell, inline, render } from './render.js';

export function renderAudit(i: { question: string; report: string; pairs: readonly AuditPair[]; audit: AuditState; urls: ReadonlyMap<string, string> }): string {
  const counts = auditCounts(i.audit, i.pairs);
  return render('audit', {
    question: inline(i.question),
    report: i.report,
    total: i.pairs.length,
    ...counts,
    has_pairs: i.pairs.length > 0,
    pairs: i.pairs.map((p) => {
      const v = i.audit.verdicts[p.pair_id];
      // An uncited sentence shows the source the auditor found for it, if any.
      const id = p.source_id ?? v?.source_id ?? undefined;
      const url = id !== undefined ? i.urls.get(id) : undefined;
      const link = id === undefined ? '' : url ? `[${id}](${url.replace(/[()\s|]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)})` : id;
      return {
        line: p.line,
        statement: cell(p.statement),
        source: p.source_id === null ? `uncited${link ? ` (found in ${link})` : ''}` : link,
        verdict: v?.verdict ?? 'UNAUDITED',
        passage: cell(v?.passage),
        note: cell(v?.note),
      };
    }),
  });
}
