// Sub-question status (SPEC 4.1 "answered"): the caller proposes, grounded evidence decides.
import type { Confidence, SubQuestionStatus } from './types.js';

export interface Resolution {
  status: SubQuestionStatus;
  confidence?: Confidence;
  warning?: string;
}

/** The best confidence among grounded VERIFIED or PLAUSIBLE facts; UNVERIFIED never counts. */
export function bestGroundedConfidence(
  facts: readonly { confidence: Confidence; grounded: boolean }[],
): Confidence | undefined {
  const usable = facts.filter((f) => f.grounded);
  if (usable.some((f) => f.confidence === 'VERIFIED')) return 'VERIFIED';
  if (usable.some((f) => f.confidence === 'PLAUSIBLE')) return 'PLAUSIBLE';
  return undefined;
}

export function resolveSubQuestion(i: {
  id: string;
  proposed: SubQuestionStatus;
  linkedFacts: readonly { confidence: Confidence; grounded: boolean }[];
}): Resolution {
  const best = bestGroundedConfidence(i.linkedFacts);
  if (i.proposed !== 'ANSWERED') return best ? { status: i.proposed, confidence: best } : { status: i.proposed };
  if (best) return { status: 'ANSWERED', confidence: best };

  const n = i.linkedFacts.length;
  const why =
    n === 0
      ? 'no fact is linked to it (list its id in a fact\'s sub_questions)'
      : `none of its ${n} linked fact${n === 1 ? ' is' : 's is'} grounded at VERIFIED or PLAUSIBLE`;
  return {
    status: 'PARTIAL',
    warning: `${i.id} kept PARTIAL, not ANSWERED: ${why}; ANSWERED needs at least one grounded VERIFIED or PLAUSIBLE fact`,
  };
}
