/**
 * The outline a reader is shown: the whole document to a fixed depth, not its first entries. A head cut
 * (the first 40 of 110 entries) shows a manual's first chapters in detail and none of its later ones, which
 * is where a reader looking for "Managing libraries" in chapter 6 needs to go (trial 4, R-admin.pdf).
 *
 * Entries are lines indented by two spaces a level, as the extractors write them. A trailer a store kept
 * from an older cut (`… N more entries`) is passed through at the end.
 */
const TRAILER = /^… \d+ more (entries|headings)$/;

function depthOf(line: string): number {
  return Math.floor((line.length - line.trimStart().length) / 2);
}

/**
 * At most `max` lines: every entry down to the deepest level whose entries, with all shallower ones, fit
 * (in document order); when those fill less than half of `max`, entries of the next level up to half,
 * spread evenly over the document; then a line saying how many deeper entries were left and where they show. When even
 * the top level does not fit, its first `max - 1` entries and a count of the rest.
 */
export function outlineDigest(lines: readonly string[], max: number): string[] {
  if (lines.length <= max) return [...lines];
  const kept = lines.filter((l) => !TRAILER.test(l.trim()));
  const trailer = lines.find((l) => TRAILER.test(l.trim()));
  const depths = kept.map(depthOf);
  const levels = [...new Set(depths)].sort((a, b) => a - b);
  let deepest: number | undefined;
  for (const level of levels) {
    if (depths.filter((d) => d <= level).length > max - 1) break;
    deepest = level;
  }
  if (deepest === undefined) {
    const top = kept.filter((_, i) => depths[i] === levels[0]);
    return [...top.slice(0, max - 1), `… ${kept.length - (max - 1)} more entries`];
  }
  const limit = deepest;
  // An outline of whole levels that uses less than half of `max` is filled to half from the next level,
  // spread over the document rather than its head (trial 62: the Logging Cookbook, one title over 49
  // sections, showed the title alone). Only to half: each entry is paid for on every first read.
  const next = levels.find((l) => l > limit);
  const within = depths.filter((d) => d <= limit).length;
  const candidates = next === undefined ? [] : kept.flatMap((_, i) => (depths[i] === next ? [i] : []));
  const room = Math.max(0, Math.min(candidates.length, Math.ceil(max / 2) - 1 - within));
  const extra = new Set<number>();
  for (let k = 0; k < room; k++) extra.add(candidates[Math.floor((k * candidates.length) / room)] as number);
  const shown = kept.filter((_, i) => (depths[i] as number) <= limit || extra.has(i));
  const left = kept.length - shown.length;
  return [...shown, ...(left > 0 ? [`… ${left} deeper entries not shown`] : []), ...(trailer ? [trailer.trim()] : [])];
}
