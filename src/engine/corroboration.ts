// Corroboration and confidence (SPEC 4.1): VERIFIED is computed, not claimed. A grounded fact is VERIFIED
// only with a grounded quote from a primary origin of its thread, or grounded quotes from ≥ 2 origins;
// otherwise it is at most PLAUSIBLE. The caller's proposal caps the result: the server lowers, never raises.
import { CONFIDENCES, type Confidence } from './types.js';

export interface Corroboration {
  confidence: Confidence;
  /** Distinct origins among the fact's grounded quotes (its own and its `also`), in first-seen order. */
  origins: string[];
  /** Whether one of those grounded quotes comes from a primary origin of the thread. */
  primary: boolean;
  warning?: string;
}

/** The weaker of two confidences (CONFIDENCES runs strongest first). */
export function weaker(a: Confidence, b: Confidence): Confidence {
  return CONFIDENCES.indexOf(a) >= CONFIDENCES.indexOf(b) ? a : b;
}

/**
 * `admitted` is the confidence after fact admission (UNVERIFIED when its own quote did not ground);
 * `grounded` the origins of the fact's own quote and of its grounded `also` entries (own first; mirrors
 * already mapped to the site they mirror). With grounding off the caller's word stands.
 */
export function corroborate(i: {
  admitted: Confidence;
  ownGrounded: boolean;
  groundedOrigins: readonly string[];
  primaryOrigins: readonly string[];
  grounding: boolean;
}): Corroboration {
  const origins = i.ownGrounded ? [...new Set(i.groundedOrigins)] : [];
  const primary = origins.some((o) => i.primaryOrigins.includes(o));
  if (!i.grounding || !i.ownGrounded) return { confidence: i.admitted, origins, primary };
  const ceiling: Confidence = primary || origins.length >= 2 ? 'VERIFIED' : 'PLAUSIBLE';
  const confidence = weaker(ceiling, i.admitted);
  if (i.admitted !== 'VERIFIED' || confidence === 'VERIFIED') return { confidence, origins, primary };
  const site = origins[0] ?? 'its site';
  const where = i.primaryOrigins.length > 0 ? ` (${i.primaryOrigins.join(', ')})` : '';
  return {
    confidence,
    origins,
    primary,
    warning:
      `recorded PLAUSIBLE, not VERIFIED: it rests on one site, ${site}, which is not a primary origin of this thread; ` +
      `to verify it, quote its primary source${where} read through fetch_source, or add also: [{url, quote}] from another site`,
  };
}
