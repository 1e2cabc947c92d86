/**
 * What is worked out from a stored page's whole text (its sections, its paragraphs projected for
 * matching), kept for the last few pages: every fact of a round asks about the same handful of pages, and
 * working a 20,000-character page out again per fact was most of a round's time. Keyed by the text itself
 * (the store hands out one string per page), oldest page dropped first, so memory stays bounded.
 */
export function pageMemo<T>(pages: number, make: (text: string) => T): (text: string) => T {
  const kept = new Map<string, T>();
  return (text) => {
    const hit = kept.get(text);
    if (hit !== undefined) return hit;
    const made = make(text);
    if (kept.size >= pages) kept.delete(kept.keys().next().value as string);
    kept.set(text, made);
    return made;
  };
}
