// A quote taken from struck-through text (`~~…~~`, what a page marks obsolete) grounds, as the marks are
// ignored, but record_round now says where it came from; the reading reference says so too.
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decideRound, type RoundInput } from '../../src/engine/round.js';
import { oneThread, pageContext } from '../helpers/round-context.js';
import { quoteStruckThrough } from '../../src/engine/struck.js';

const PAGE = [
  '# Configuration',
  '',
  '~~The `legacy_mode` option turns the old parser back on.~~ Removed in 3.0.',
  '',
  'The `strict` option rejects unknown keys.',
].join('\n');

const warningsFor = (quote: string) => {
  const input: RoundInput = { query: 'q', urls_visited: ['https://x.org/c'], facts: [{ fact: 'An option exists.', url: 'https://x.org/c', quote, confidence: 'PLAUSIBLE' }], summary: 's' };
  const { state, decision } = decideRound(oneThread(), input, pageContext('Configuration', PAGE));
  return { grounded: state.facts[0]?.grounded, warnings: decision.warnings.filter((w) => w.includes('struck through')) };
};

describe('a quote from struck-through text', () => {
  it('is found inside the struck span, and not outside it', () => {
    expect(quoteStruckThrough('legacy_mode option turns the old parser back on', PAGE)).toBe(true);
    expect(quoteStruckThrough('The strict option rejects unknown keys.', PAGE)).toBe(false);
    expect(quoteStruckThrough('Removed in 3.0', PAGE)).toBe(false);
  });

  it('still grounds, with a warning that the page struck it', () => {
    expect(warningsFor('The legacy_mode option turns the old parser back on.')).toEqual({
      grounded: true,
      warnings: [expect.stringMatching(/^fact 1: its quote is struck through on the page \(~~…~~\), which usually marks it obsolete/)],
    });
    expect(warningsFor('The strict option rejects unknown keys.')).toEqual({ grounded: true, warnings: [] });
  });

  it('is named in the reading-sources reference', () => {
    expect(fs.readFileSync('skills/deep-research-method/references/reading-sources.md', 'utf8')).toMatch(/struck through \(`~~…~~`\)/);
  });
});
