/**
 * SPEC 4.1 subject coverage: past half the round budget, the next round goes to the first subject
 * (in brief order) that has had no round yet. `completedRounds` includes the round just recorded.
 */
export function forcedSubject(i: {
  subjects: readonly string[];
  roundsBySubject: Readonly<Record<string, number>>;
  completedRounds: number;
  roundBudget: number;
}): string | undefined {
  if (!(i.completedRounds > i.roundBudget / 2)) return undefined;
  // hasOwn, so a subject named like an Object.prototype member ("constructor") is not seen as covered.
  return i.subjects.find((s) => (Object.hasOwn(i.roundsBySubject, s) ? i.roundsBySubject[s] : 0) === 0);
}
