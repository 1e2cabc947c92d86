import { describe, expect, it } from 'vitest';
import { applyVerdicts, auditHistory, emptyAudit } from '../../src/engine/audit.js';
import { parseReport } from '../../src/engine/statements.js';

const SOURCE = 'Output held steady across the trial firms for the whole year.';
const text = () => SOURCE;

describe('audit passes and earlier verdicts (SPEC 6)', () => {
  it('keeps a verdict a later one replaced, and opens a new pass only when the report changed', () => {
    const report = '# T\n\nOutput held steady [S1].\n';
    const { pairs } = parseReport(report);
    const id = pairs[0]!.pair_id;
    let s = applyVerdicts(emptyAudit(), [{ pair_id: id, verdict: 'PARTIAL', passage: 'Output held steady across', note: 'one year only' }], pairs, text, 'a').state;
    s = applyVerdicts(s, [{ pair_id: id, verdict: 'SUPPORTED', passage: 'Output held steady across' }], pairs, text, 'a').state;
    expect(s.pass).toBe(1);
    expect(s.history).toHaveLength(1);
    expect(s.history?.[0]).toMatchObject({ verdict: 'PARTIAL', pass: 1, line: 3 });
    // The same pair judged again after the report was edited elsewhere: a re-audit, pass 2.
    s = applyVerdicts(s, [{ pair_id: id, verdict: 'SUPPORTED', passage: 'Output held steady across' }], pairs, text, 'b').state;
    expect(s.pass).toBe(2);
    const h = auditHistory(s, pairs);
    expect(h.passes).toEqual([
      { pass: 1, counts: { SUPPORTED: 1, PARTIAL: 1, UNSUPPORTED: 0 }, total: 2 },
      { pass: 2, counts: { SUPPORTED: 1, PARTIAL: 0, UNSUPPORTED: 0 }, total: 1 },
    ]);
    expect(h.earlier.map((v) => [v.pass, v.verdict])).toEqual([[1, 'PARTIAL'], [1, 'SUPPORTED']]);
  });

  it('has nothing to show for a single pass with one verdict per pair', () => {
    const { pairs } = parseReport('# T\n\nOutput held steady [S1].\n');
    const s = applyVerdicts(emptyAudit(), [{ pair_id: pairs[0]!.pair_id, verdict: 'SUPPORTED', passage: 'Output held steady across' }], pairs, text, 'a').state;
    expect(auditHistory(s, pairs)).toEqual({ passes: [{ pass: 1, counts: { SUPPORTED: 1, PARTIAL: 0, UNSUPPORTED: 0 }, total: 1 }], earlier: [] });
  });
});
