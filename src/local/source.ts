// fetch_source's `path`: which file of an allowed root is meant, and its text, shaped as the web pipeline's
// answer so the tool stores and renders it the same way.
import { readLocalFile, resolveLocal } from './open.js';
import { readLocalSource, type LocalReadOk } from './read.js';
import { parseRoots } from './roots.js';
import type { PageRange } from '../engine/page-range.js';

export type LocalPage = (LocalReadOk & { finalUrl: string }) | { ok: false; message: string; reachedNetwork: false };

export interface LocalTarget {
  ok: true;
  /** `local:<root>/<path>`: the stored source's url and canonical key. */
  key: string;
  read(o: { full?: boolean; pages?: PageRange }): Promise<LocalPage>;
}

/** Resolves `given` against the roots the user allowed in `env`; a refusal says why, by name. */
export function localTarget(given: string, env: NodeJS.ProcessEnv): LocalTarget | { ok: false; reason: string } {
  const roots = parseRoots(env.DEEP_RESEARCH_LOCAL_ROOTS);
  if (!roots.ok) return roots;
  const r = resolveLocal(roots.roots, given);
  if (!r.ok) return r;
  const { ref } = r;
  return {
    ok: true,
    key: ref.key,
    async read(o) {
      const file = readLocalFile(ref);
      if (!file.ok) return { ok: false, message: file.reason, reachedNetwork: false };
      const page = await readLocalSource(ref, file.bytes, o);
      return page.ok ? { ...page, finalUrl: ref.key } : { ok: false, message: page.message, reachedNetwork: false };
    },
  };
}
