import { describe, expect, it } from 'vitest';
import { resolveSubQuestion } from '../../src/engine/answered.js';

const f = (confidence: 'VERIFIED' | 'PLAUSIBLE' | 'UNVERIFIED', grounded = true) => ({ confidence, grounded });

describe('resolveSubQuestion', () => {
  it('accepts ANSWERED with one grounded PLAUSIBLE fact, at PLAUSIBLE', () => {
    expect(resolveSubQuestion({ id: 'SQ-1', proposed: 'ANSWERED', linkedFacts: [f('PLAUSIBLE')] })).toEqual({
      status: 'ANSWERED',
      confidence: 'PLAUSIBLE',
    });
  });

  it('takes the best grounded confidence', () => {
    expect(
      resolveSubQuestion({ id: 'SQ-1', proposed: 'ANSWERED', linkedFacts: [f('PLAUSIBLE'), f('VERIFIED'), f('UNVERIFIED')] }),
    ).toEqual({ status: 'ANSWERED', confidence: 'VERIFIED' });
    expect(
      resolveSubQuestion({ id: 'SQ-1', proposed: 'ANSWERED', linkedFacts: [f('VERIFIED', false), f('PLAUSIBLE')] }),
    ).toEqual({ status: 'ANSWERED', confidence: 'PLAUSIBLE' });
  });

  it('never answers with UNVERIFIED facts only, however many', () => {
    const r = resolveSubQuestion({
      id: 'SQ-2',
      proposed: 'ANSWERED',
      linkedFacts: [f('UNVERIFIED'), f('UNVERIFIED'), f('UNVERIFIED')],
    });
    expect(r.status).toBe('PARTIAL');
    expect(r.confidence).toBeUndefined();
    expect(r.warning).toContain('SQ-2');
    expect(r.warning).toContain('3 linked facts');
  });

  it('never answers with ungrounded facts', () => {
    const r = resolveSubQuestion({ id: 'SQ-3', proposed: 'ANSWERED', linkedFacts: [f('VERIFIED', false)] });
    expect(r.status).toBe('PARTIAL');
    expect(r.warning).toMatch(/SQ-3.*grounded/);
  });

  it('says when no fact is linked at all', () => {
    const r = resolveSubQuestion({ id: 'SQ-4', proposed: 'ANSWERED', linkedFacts: [] });
    expect(r.status).toBe('PARTIAL');
    expect(r.warning).toMatch(/SQ-4.*no fact is linked/);
  });

  it('passes PARTIAL and OPEN through, with the best grounded confidence when there is one', () => {
    expect(resolveSubQuestion({ id: 'SQ-1', proposed: 'PARTIAL', linkedFacts: [f('VERIFIED')] })).toEqual({
      status: 'PARTIAL',
      confidence: 'VERIFIED',
    });
    expect(resolveSubQuestion({ id: 'SQ-1', proposed: 'OPEN', linkedFacts: [f('UNVERIFIED')] })).toEqual({
      status: 'OPEN',
    });
  });

  describe('capped at the proposed confidence', () => {
    it('a proposed PARTIAL / PLAUSIBLE is never shown as VERIFIED', () => {
      expect(resolveSubQuestion({ id: 'SQ-1', proposed: 'PARTIAL', proposedConfidence: 'PLAUSIBLE', linkedFacts: [f('VERIFIED')] })).toEqual({
        status: 'PARTIAL',
        confidence: 'PLAUSIBLE',
      });
      expect(resolveSubQuestion({ id: 'SQ-1', proposed: 'ANSWERED', proposedConfidence: 'PLAUSIBLE', linkedFacts: [f('VERIFIED')] })).toEqual({
        status: 'ANSWERED',
        confidence: 'PLAUSIBLE',
      });
    });

    it('lowers a proposal the evidence does not reach, and says so', () => {
      const r = resolveSubQuestion({ id: 'SQ-2', proposed: 'ANSWERED', proposedConfidence: 'VERIFIED', linkedFacts: [f('PLAUSIBLE')] });
      expect(r).toMatchObject({ status: 'ANSWERED', confidence: 'PLAUSIBLE' });
      expect(r.warning).toMatch(/SQ-2 confidence PLAUSIBLE, not VERIFIED/);
    });

    it('a proposed UNVERIFIED answer stays PARTIAL', () => {
      const r = resolveSubQuestion({ id: 'SQ-3', proposed: 'ANSWERED', proposedConfidence: 'UNVERIFIED', linkedFacts: [f('VERIFIED')] });
      expect(r).toMatchObject({ status: 'PARTIAL', confidence: 'UNVERIFIED' });
      expect(r.warning).toMatch(/SQ-3 kept PARTIAL/);
    });
  });
});
