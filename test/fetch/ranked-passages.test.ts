// audit_report's passages (SPEC 4.1 claim audit): ranked for the statement, short, and verbatim enough that
// an auditor who copies one back as its verdict's passage is grounded by record_audit.
import { describe, expect, it } from 'vitest';
import { rankedPassages } from '../../src/fetch/passages.js';
import { quoteFound } from '../../src/engine/grounding.js';

const PAGE = [
  '# Report',
  '',
  'The city ran a trial. Nothing in this paragraph is about money at all, only about the weather in spring.',
  '',
  '## Costs',
  '',
  `- The [extra staff](https://example.org/staff "Staff") cost about **12 million kronor** over the two years. ${'A very long clause that goes on and on '.repeat(12)}end.`,
  '',
  '## Output',
  '',
  'Output per hour rose by 3% in the pilot group, according to the report.',
].join('\n');

describe('rankedPassages', () => {
  it('returns the best-matching passages first, links as text, each one found by the grounding rule', () => {
    const ps = rankedPassages(PAGE, 'the extra staff cost 12 million kronor', 2, 200);
    expect(ps[0]).toMatch(/^The extra staff cost about \*\*12 million kronor\*\* over the two years\./);
    for (const p of ps) {
      expect(p.length).toBeLessThanOrEqual(200);
      expect(p).not.toContain('https://');
      expect(quoteFound(p, PAGE), p).toBe(true);
    }
  });

  it('cuts an over-long sentence at a word without a marker, still verbatim', () => {
    const [p] = rankedPassages(PAGE, 'very long clause', 1, 120);
    expect(p!.length).toBeLessThanOrEqual(120);
    expect(p).not.toMatch(/…$/);
    expect(quoteFound(p!, PAGE)).toBe(true);
  });

  it('returns nothing when no word of the statement is on the page', () => {
    expect(rankedPassages(PAGE, 'zebra quantum', 2)).toEqual([]);
  });
});
