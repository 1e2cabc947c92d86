// File-system helpers shared by the install targets: the marker that identifies a file the installer
// wrote, the manifest that remembers what it changed, and writes that never leave a torn file behind.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Insertion } from './json-entry.js';

/**
 * Every file the installer writes carries this line. A file without it belongs to someone else and is never
 * overwritten or removed.
 */
export const MARKER =
  '<!-- deep-research install: written by "deep-research install"; "deep-research uninstall" removes it. -->';

export function hasMarker(content: string): boolean {
  return content.includes(MARKER);
}

/** Puts the marker right after the frontmatter (or at the top), where it does not disturb the YAML. */
export function withMarker(content: string): string {
  const fm = /^---\r?\n[\s\S]*?\r?\n---\r?\n/.exec(content);
  if (fm === null) return `${MARKER}\n${content}`;
  return `${fm[0]}${MARKER}\n${content.slice(fm[0].length)}`;
}

export function sha256(content: string): string {
  return createHash('sha256').update(content, 'utf8').digest('hex');
}

/** What one installation changed, so that uninstall can undo exactly that and nothing else. */
export interface Manifest {
  version: 1;
  target: string;
  /** Directories the installer created, relative to the scope's base directory. */
  created_dirs: string[];
  /** Files the installer wrote, relative to the base directory, with the hash of what it wrote. */
  files: Record<string, { sha256: string }>;
  /** The MCP server entry, when this installation added it. */
  mcp?: {
    file: string;
    created_file: boolean;
    created_container: boolean;
    value: unknown;
    insertion: Insertion;
  };
}

export async function readText(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

export async function exists(p: string): Promise<boolean> {
  try {
    await fs.lstat(p);
    return true;
  } catch {
    return false;
  }
}

export async function readManifest(file: string): Promise<Manifest | undefined> {
  const text = await readText(file);
  if (text === undefined) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON. It records what deep-research installed; restore or delete it.`);
  }
  const m = data as Partial<Manifest> | null;
  if (m === null || typeof m !== 'object' || m.version !== 1 || typeof m.files !== 'object' || !Array.isArray(m.created_dirs)) {
    throw new Error(`${file} is not a deep-research install manifest this version understands.`);
  }
  return m as Manifest;
}

/**
 * Writes through a temporary file and a rename, so a crash leaves the old or the new content. A symlinked
 * target (dotfile managers link ~/.claude.json) is written where it points, and the file keeps its mode.
 */
export async function writeAtomic(file: string, content: string): Promise<void> {
  let real = file;
  try {
    real = await fs.realpath(file);
  } catch {
    // A new file: write it where it was asked for.
  }
  let mode: number | undefined;
  try {
    mode = (await fs.stat(real)).mode & 0o7777;
  } catch {
    mode = undefined;
  }
  const tmp = path.join(path.dirname(real), `.${path.basename(real)}.${process.pid}.${Date.now()}.tmp`);
  const handle = await fs.open(tmp, 'w', mode ?? 0o644);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  if (mode !== undefined) await fs.chmod(tmp, mode);
  try {
    await fs.rename(tmp, real);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

/** Creates `dir` and its missing parents; returns the ones it created, outermost first. */
export async function makeDirs(dir: string): Promise<string[]> {
  const missing: string[] = [];
  let cur = path.resolve(dir);
  while (!(await exists(cur))) {
    missing.unshift(cur);
    const parent = path.dirname(cur);
    if (parent === cur) break;
    cur = parent;
  }
  for (const d of missing) await fs.mkdir(d);
  return missing;
}

/** Removes `dir` only when it is an empty directory. */
export async function removeDirIfEmpty(dir: string): Promise<boolean> {
  try {
    const entries = await fs.readdir(dir);
    if (entries.length > 0) return false;
    await fs.rmdir(dir);
    return true;
  } catch {
    return false;
  }
}

/** Where uninstall reports what it did. */
export interface Reporter {
  out: (line: string) => void;
  err: (line: string) => void;
  /** How a path relative to the install's base is printed (see `reporter`). */
  show?: (rel: string) => string;
}

/**
 * The reporter an install prints through: a project install names files relative to the project; a user
 * install names the real path under the home folder, since the user may run it from anywhere.
 */
export function reporter(ctx: { out: Reporter['out']; err: Reporter['err']; scope: { kind: string } }, base: string): Reporter & { show: (rel: string) => string } {
  const show = ctx.scope.kind === 'project' ? (rel: string) => rel : (rel: string) => path.join(base, rel);
  return { out: ctx.out, err: ctx.err, show };
}

const shown = (r: Reporter, rel: string) => (r.show ? r.show(rel) : rel);

/**
 * How installed command, agent and skill files name a folder of the install, without a path of this
 * machine: relative to the project for a project install (the agent CLI runs there), `~/…` under the
 * home folder for a user install. Only a config folder moved outside the home folder is named in full.
 */
export function portablePath(ctx: { scope: { kind: 'project'; dir: string } | { kind: 'user' }; home: string }, dir: string): string {
  const posix = (p: string) => p.split(path.sep).join('/');
  const from = ctx.scope.kind === 'project' ? ctx.scope.dir : ctx.home;
  const rel = path.relative(from, dir);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return posix(dir);
  if (ctx.scope.kind === 'project') return posix(rel) || '.';
  return rel === '' ? '~' : `~/${posix(rel)}`;
}

/**
 * Uninstall without an install record: removes only files that are byte for byte what this clone
 * would write, so nothing a user made or changed is touched.
 */
export async function removeUnrecorded(r: Reporter, wanted: readonly { rel: string; abs: string; content: string }[], kept: string): Promise<number> {
  let removed = 0;
  for (const w of wanted) {
    if ((await readText(w.abs)) === w.content) {
      await fs.rm(w.abs);
      r.out(`removed ${shown(r, w.rel)}`);
      removed++;
    }
  }
  r.out(removed === 0 ? 'nothing to uninstall here (no install record found)' : `no install record found; ${kept}`);
  return removed;
}

/**
 * Removes the recorded files that are still exactly as installed. A file replaced by someone else's is
 * left; one edited after install is left and kept in the returned record, so a later uninstall retries.
 */
export async function removeRecorded(r: Reporter, base: string, files: Manifest['files']): Promise<{ left: Manifest['files']; incomplete: boolean }> {
  const left: Manifest['files'] = {};
  let incomplete = false;
  for (const [rel, rec] of Object.entries(files)) {
    const abs = path.resolve(base, rel);
    const cur = await readText(abs);
    if (cur === undefined) continue;
    if (!hasMarker(cur)) {
      r.out(`left ${shown(r, rel)}: it was replaced by a file deep-research did not write`);
    } else if (sha256(cur) === rec.sha256) {
      await fs.rm(abs);
      r.out(`removed ${shown(r, rel)}`);
    } else {
      r.err(`deep-research: left ${shown(r, rel)}: it was edited after install; delete it yourself if you no longer want it.`);
      left[rel] = rec;
      incomplete = true;
    }
  }
  return { left, incomplete };
}

/** Records, relative to base, each folder the install created, so uninstall can remove exactly those. */
export function dirRecorder(base: string, next: Manifest): (dirs: string[]) => void {
  return (dirs) => {
    for (const d of dirs) {
      const rel = path.relative(base, d);
      if (!next.created_dirs.includes(rel)) next.created_dirs.push(rel);
    }
  };
}

/**
 * Writes the pack's files that are missing or ours and outdated, records every wanted file's hash, and
 * removes files an earlier install wrote that the pack no longer has (only while still unedited).
 */
export async function writeOwnedFiles(
  r: Reporter,
  o: {
    base: string;
    rootDir: string;
    writes: readonly { rel: string; abs: string; content: string }[];
    wanted: readonly { rel: string; content: string }[];
    stale: readonly string[];
    old: Manifest | undefined;
    next: Manifest;
    noteDirs: (dirs: string[]) => void;
  },
): Promise<void> {
  o.noteDirs(await makeDirs(o.rootDir));
  for (const w of o.writes) {
    o.noteDirs(await makeDirs(path.dirname(w.abs)));
    await writeAtomic(w.abs, w.content);
    r.out(`wrote ${shown(r, w.rel)}`);
  }
  for (const w of o.wanted) o.next.files[w.rel] = { sha256: sha256(w.content) };
  for (const rel of o.stale) {
    const abs = path.resolve(o.base, rel);
    const cur = await readText(abs);
    if (cur !== undefined && hasMarker(cur) && sha256(cur) === o.old?.files[rel]?.sha256) {
      await fs.rm(abs);
      r.out(`removed ${shown(r, rel)} (no longer part of the pack)`);
    }
    delete o.next.files[rel];
  }
}
