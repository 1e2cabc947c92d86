// Sub-question status (SPEC 4.1 "answered"): the caller proposes, grounded evidence decides.
import type { Confidence, SubQuestionStatus } from './types.js';
import { weaker } from './corroboration.js';

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

/**
 * The evidence sets the ceiling and the caller's proposal caps it: the server may lower a judgement,
 * never raise it, so a proposed PLAUSIBLE is never shown as VERIFIED.
 */
export function resolveSubQuestion(i: {
  id: string;
  proposed: SubQuestionStatus;
  proposedConfidence?: Confidence;
  linkedFacts: readonly { confidence: Confidence; grounded: boolean }[];
}): Resolution {
  const best = bestGroundedConfidence(i.linkedFacts);
  const capped = best !== undefined && i.proposedConfidence !== undefined ? weaker(best, i.proposedConfidence) : best;
  const lowered =
    best !== undefined && i.proposedConfidence !== undefined && capped !== i.proposedConfidence
      ? `${i.id} confidence ${capped}, not ${i.proposedConfidence}: its best grounded linked fact is ${best}`
      : undefined;
  const withWarning = (r: Resolution): Resolution => (lowered && !r.warning ? { ...r, warning: lowered } : r);

  if (i.proposed !== 'ANSWERED') return withWarning(capped ? { status: i.proposed, confidence: capped } : { status: i.proposed });
  if (capped && capped !== 'UNVERIFIED') return withWarning({ status: 'ANSWERED', confidence: capped });
  if (capped === 'UNVERIFIED') {
    return {
      status: 'PARTIAL',
      confidence: capped,
      warning: `${i.id} kept PARTIAL, not ANSWERED: you proposed confidence UNVERIFIED, and an UNVERIFIED answer does not answer a sub-question`,
    };
  }

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
