import { describe, expect, it } from 'vitest';
import { auditProblems, emptyAudit } from '../../src/engine/audit.js';
import { parseReport } from '../../src/engine/statements.js';

describe('auditProblems', () => {
  // A real run's first verify_report, before any verdict, answered 15,899 characters: one problem per
  // pair, each quoting its statement. Unjudged pairs are now named per line, by id only.
  it('names the unjudged pairs of a line in one problem, by id and source, without their statements', () => {
    const { pairs } = parseReport('# T\n\nOutput held steady [S1], revenue rose [S2, S3].\n\nCosts fell [S4].\n');
    const problems = auditProblems(emptyAudit(), pairs);
    expect(problems).toHaveLength(2);
    expect(problems[0]?.line).toBe(3);
    expect(problems[0]?.message).toMatch(/^pairs P[0-9a-f]+ \(S1\), P[0-9a-f]+ \(S2\), P[0-9a-f]+ \(S3\) have no verdict: have them judged/);
    expect(problems[0]?.message).not.toContain('Output held steady');
    // What to do is said once, on the first line: the same hint on every line was most of a reply.
    expect(problems[1]?.message).toMatch(/^pair P[0-9a-f]+ \(S4\) has no verdict$/);
  });

  it('sums up many lines without verdicts in one problem: the count and the lines', () => {
    const body = Array.from({ length: 8 }, (_, i) => `Claim ${i} holds [S1], and fact ${i} follows [S2].`).join('\n\n');
    const { pairs } = parseReport(`# T\n\n${body}\n`);
    const problems = auditProblems(emptyAudit(), pairs);
    expect(problems).toEqual([{ line: 3, message: '16 pairs on 8 lines have no verdict (lines 3, 5, 7, 9, 11, 13, 15, 17): have them judged (audit_report, then record_audit)' }]);
  });

  it('still gives each judged pair that is not SUPPORTED its own problem with the note', () => {
    const { pairs } = parseReport('# T\n\nOutput held steady [S1].\n');
    const pair = pairs[0]!;
    const state = { ...emptyAudit(), verdicts: { [pair.pair_id]: { ...pair, verdict: 'PARTIAL' as const, passage: 'output held', note: 'only for one year' } } };
    const [p] = auditProblems(state, pairs);
    expect(p?.message).toMatch(/is PARTIAL: only for one year/);
  });
});
