// The folders a user allows as sources (SPEC 11.1, local sources). They come from the environment only
// (DEEP_RESEARCH_LOCAL_ROOTS, which the installer writes into the server entry): no tool argument, brief
// or page can add one.
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';

export const LOCAL_ROOTS_ENV = 'DEEP_RESEARCH_LOCAL_ROOTS';

/** The separator between entries: the platform's PATH separator, `:` on Linux and macOS, `;` on Windows. */
export const ROOTS_SEPARATOR = path.delimiter;

export interface LocalRoot {
  /** What keys and origins say: `local:<name>/<path in root>`. */
  name: string;
  /** The folder's real path (symlinks resolved). Never shown in a reply or an artifact. */
  dir: string;
}

export type Roots = { ok: true; roots: LocalRoot[] } | { ok: false; reason: string };

const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** A folder's default name: its base name, lower-cased, with anything outside [a-z0-9._-] as `-`. */
export function defaultRootName(dir: string): string {
  const base = path.basename(path.resolve(dir)).toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[-._]+|-+$/g, '');
  return base === '' ? 'local' : base.slice(0, 64);
}

/**
 * `name=DIR` or `DIR` entries, separated by ROOTS_SEPARATOR. A bare DIR is named after its base name.
 * Every entry must be an existing folder and every name distinct: a mistake refuses every local read,
 * with a message naming the entry, rather than silently serving fewer folders than the user meant.
 */
export function parseRoots(value: string | undefined): Roots {
  if (value === undefined || value.trim() === '') return { ok: true, roots: [] };
  const roots: LocalRoot[] = [];
  for (const raw of value.split(ROOTS_SEPARATOR).map((e) => e.trim()).filter((e) => e !== '')) {
    const eq = /^([^=\\/]{1,64})=(.+)$/.exec(raw);
    const name = eq ? eq[1]!.trim() : defaultRootName(raw);
    const given = eq ? eq[2]!.trim() : raw;
    if (!NAME.test(name)) {
      return { ok: false, reason: `${LOCAL_ROOTS_ENV}: the root name "${name.slice(0, 64)}" must be lower-case letters, digits, ".", "_" or "-" (e.g. docs=/path/to/folder); the user fixes it in the server's environment` };
    }
    if (!path.isAbsolute(given)) {
      return { ok: false, reason: `${LOCAL_ROOTS_ENV}: the folder of root "${name}" is not an absolute path; the user gives each folder as an absolute path` };
    }
    let dir: string;
    try {
      dir = realpathSync(given);
      if (!statSync(dir).isDirectory()) throw new Error('not a folder');
    } catch {
      return { ok: false, reason: `${LOCAL_ROOTS_ENV}: the folder of root "${name}" does not exist or is not a folder; the user fixes or removes that entry` };
    }
    if (roots.some((r) => r.name === name)) {
      return { ok: false, reason: `${LOCAL_ROOTS_ENV}: two folders are named "${name}"; the user names them apart (name=DIR)` };
    }
    roots.push({ name, dir });
  }
  return { ok: true, roots };
}
