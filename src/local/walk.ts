// The documents of an allowed root: what the index reads and what a dry run counts. Kept apart from the
// index so counting loads neither MiniSearch nor an extractor.
import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { formatOf } from './read.js';
import type { LocalRoot } from './roots.js';

/** A root with more files than this is indexed up to it, in path order, and the search says so. */
export const MAX_FILES = 20_000;
const MAX_DEPTH = 32;

/** The supported files of a root, `/`-separated relative paths in sorted order, with their mtime and size. */
export function walkRoot(root: LocalRoot, max = MAX_FILES): { files: Map<string, { mtimeMs: number; size: number }>; truncated: boolean } {
  const files = new Map<string, { mtimeMs: number; size: number }>();
  let truncated = false;
  const visit = (dir: string, rel: string, depth: number): void => {
    if (truncated || depth > MAX_DEPTH) return;
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (name.startsWith('.')) continue;
      const abs = path.join(dir, name);
      const r = rel === '' ? name : `${rel}/${name}`;
      let st;
      try {
        st = lstatSync(abs);
      } catch {
        continue;
      }
      // Symlinked folders are not walked (loops, and folders outside the root); a symlinked file is
      // listed and refused at read time if it points out.
      if (st.isDirectory()) visit(abs, r, depth + 1);
      else if ((st.isFile() || st.isSymbolicLink()) && formatOf(r) !== undefined) {
        if (files.size >= max) {
          truncated = true;
          return;
        }
        files.set(r, { mtimeMs: st.mtimeMs, size: st.size });
      }
    }
  };
  visit(root.dir, '', 0);
  return { files, truncated };
}

