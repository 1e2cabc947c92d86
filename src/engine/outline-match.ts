// Which outline entries of a long PDF, past the page cap, a focus points at (fetch_source's map of pages
// not read).
import { isStopWord, terms } from './text.js';

/** A stored outline line: indentation for depth, the title, and ` (p. N)` when the entry has a page. */
const ENTRY = /^( *)(.*?)(?: \(p\. (\d+)\))?$/;

export function entryPage(line: string): number | undefined {
  const p = ENTRY.exec(line)?.[3];
  return p === undefined ? undefined : Number(p);
}

/**
 * The outline entries a focus points at, best first: an entry scores one for each content word of the focus
 * that one of its words equals or begins (either way, three letters at least, so "env" meets "environment"
 * and "paths" meets "libPaths"); ties go to the entry whose words the focus covers most, then to the earlier
 * page. Without a focus, the top-level entries: the document's parts.
 */
export function matchEntries(entries: readonly string[], focus: string | undefined, limit: number): string[] {
  if (focus === undefined || focus.trim() === '') {
    const depths = entries.map((e) => ENTRY.exec(e)?.[1]?.length ?? 0);
    const top = Math.min(...depths);
    return entries.filter((_, i) => depths[i] === top).slice(0, limit);
  }
  const wanted = [...new Set(terms(focus).filter((t) => !isStopWord(t)))];
  const scored: Array<{ line: string; score: number; cover: number; at: number }> = [];
  entries.forEach((line, at) => {
    const words = titleWords(ENTRY.exec(line)?.[2] ?? line);
    if (words.length === 0) return;
    let score = 0;
    const hit = new Set<string>();
    for (const w of wanted) {
      const m = words.filter((e) => e === w || (Math.min(e.length, w.length) >= 3 && (e.startsWith(w) || w.startsWith(e))));
      if (m.length > 0) score++;
      for (const e of m) hit.add(e);
    }
    if (score > 0) scored.push({ line, score, cover: hit.size / new Set(words).size, at });
  });
  scored.sort((a, b) => b.score - a.score || b.cover - a.cover || a.at - b.at);
  return scored.slice(0, limit).map((s) => s.line);
}

/** Words of an entry's title, camel case split ("libPaths" → lib, paths; "EnvVar" → env, var). */
function titleWords(title: string): string[] {
  return terms(title.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2'));
}
