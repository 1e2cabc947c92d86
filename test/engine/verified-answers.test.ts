import { describe, expect, it } from 'vitest';
import { heldHint, heldWarning, subQuestionOrigins, unverifiedAnswers } from '../../src/engine/verified-answers.js';

const fact = (confidence: 'VERIFIED' | 'PLAUSIBLE', sq: string, origins: string[], grounded = true) => ({ confidence, grounded, sub_questions: [sq], origins });

describe('verified answers (SPEC 4.1 convergence)', () => {
  it('lists ANSWERED sub-questions without a grounded VERIFIED linked fact, with the sites they rest on', () => {
    const sqs = [
      { id: 'SQ-1', status: 'ANSWERED' as const },
      { id: 'SQ-2', status: 'ANSWERED' as const },
      { id: 'SQ-3', status: 'PARTIAL' as const },
    ];
    const facts = [fact('VERIFIED', 'SQ-1', ['python.org']), fact('PLAUSIBLE', 'SQ-2', ['example.com']), fact('VERIFIED', 'SQ-2', ['other.org'], false)];
    expect(unverifiedAnswers(sqs, facts)).toEqual([{ id: 'SQ-2', origins: ['example.com'] }]);
    expect(subQuestionOrigins('SQ-2', facts)).toEqual(['example.com']);
  });

  it('the warning names the site; the hint asks for the primary source or a second site', () => {
    expect(heldWarning({ id: 'SQ-2', origins: ['example.com'] })).toBe('SQ-2 rests on one secondary site, example.com: read the primary source or a second site');
    expect(heldHint({ id: 'SQ-2', origins: ['example.com'] }, ['sqlite.org'])).toBe('verify SQ-2: find its primary source on sqlite.org or a site other than example.com that states the answer');
  });
});
