/**
 * Share of this round's canonical URLs already visited in the previous round (SPEC 4.1).
 * Callers pass canonical keys; duplicates within a side count once. Round 1 has no previous round: 0.
 */
export function urlOverlap(current: readonly string[], previous: readonly string[] | undefined): number {
  if (previous === undefined) return 0;
  const now = new Set(current);
  const before = new Set(previous);
  let shared = 0;
  for (const key of now) if (before.has(key)) shared++;
  return shared / Math.max(now.size, 1);
}
