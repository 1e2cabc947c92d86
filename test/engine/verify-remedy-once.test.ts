import { describe, expect, it } from 'vitest';
import { verifyReport } from '../../src/reports/verify-report.js';

// A real replay's verify_report repeated the same remedy on every problem line (7,332 characters where
// the baseline showed 1,948): it is said once, on the first such problem.
describe('verify_report remedies', () => {
  it('says how to fix a quote that is not in its source once, and still names every quote', () => {
    const url = 'https://example.org/a';
    const sources = new Map([['S1', { id: 'S1', url, canonical_key: 'example.org/a', markdown: 'Output held steady in the trial.' }]]);
    const text = ['# Q', '', 'It said "revenue rose sharply" [S1].', '', 'It also said "costs fell a lot" [S1].', '', '## Sources', '', `- [S1] A — ${url}`, ''].join('\n');
    const quotes = verifyReport(text, sources, { degraded: false }).problems.filter((p) => p.message.startsWith('quote "'));
    expect(quotes.map((p) => p.line)).toEqual([3, 5]);
    expect(quotes[0]?.message).toMatch(/revenue rose sharply.*quote verbatim or paraphrase/);
    expect(quotes[1]?.message).toBe('quote "costs fell a lot" is not in the stored text of S1');
  });
});
