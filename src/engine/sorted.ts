// Binary search over an ascending list of numbers (word places, cut points), shared by drift and passages.

/** The index of the first element greater than `v`: the count of elements at most `v`. */
export function upperBound(sorted: readonly number[], v: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
