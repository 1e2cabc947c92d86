import type { Saturation } from './types.js';

/** SPEC 4.1 saturation: few new facts means the source is exhausted (HIGH). */
export function saturationOf(newFacts: number): Saturation {
  if (!Number.isInteger(newFacts) || newFacts < 0) {
    throw new RangeError(`saturationOf expects a non-negative integer, got ${newFacts}`);
  }
  if (newFacts <= 1) return 'HIGH';
  if (newFacts <= 4) return 'MEDIUM';
  return 'LOW';
}
