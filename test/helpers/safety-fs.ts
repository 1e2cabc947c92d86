// File-system helpers for the safety suite: a sandbox folder holding the artifacts root beside an
// "outside" folder, an exact tree snapshot (files by hash, symlinks by target, folders), and checks
// that every artifact file parses.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import matter from 'gray-matter';
import { RUN_SHM } from './temp-run.js';

export interface Sandbox {
  /** The parent folder: holds `artifacts/` (the root) and `outside/` (must never change). */
  dir: string;
  root: string;
  outside: string;
  /** A file outside the root with known bytes. */
  secret: string;
  secretBytes: string;
}

/**
 * A fresh sandbox. `memory: true` puts it on tmpfs (/dev/shm) when there is one: for tests of input
 * handling, where the server's fsyncs would only cost time; durability tests stay on the real disk.
 */
export function sandbox(prefix = 'dr-safety-', o: { memory?: boolean } = {}): Sandbox {
  // Inside `npm test`, the test file's own folder on tmpfs (removed when the file ends).
  const shm = process.env[RUN_SHM] ?? '/dev/shm';
  const base = o.memory && fs.existsSync(shm) && isWritable(shm) ? shm : os.tmpdir();
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(base, prefix)));
  const root = path.join(dir, 'artifacts');
  const outside = path.join(dir, 'outside');
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
  const secret = path.join(outside, 'secret.txt');
  const secretBytes = 'SECRET-OUTSIDE-THE-ROOT [S424242] "never read me"\n';
  fs.writeFileSync(secret, secretBytes);
  fs.mkdirSync(path.join(outside, 'state'));
  fs.writeFileSync(path.join(outside, 'state', 'keep.json'), '{"keep":true}\n');
  return { dir, root, outside, secret, secretBytes };
}

function isWritable(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex').slice(0, 16);

/**
 * Every entry under dir (folders, files by content hash, symlinks by target, never followed), sorted.
 * `skip` drops sub-trees by relative path (e.g. the artifacts root when snapshotting its parent).
 */
export function exactTree(dir: string, skip: (rel: string) => boolean = () => false): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(d, e.name);
      const rel = path.relative(dir, p).split(path.sep).join('/');
      if (skip(rel)) continue;
      if (e.isSymbolicLink()) out[rel] = `link:${fs.readlinkSync(p)}`;
      else if (e.isDirectory()) {
        out[rel] = 'dir';
        walk(p);
      } else if (e.isFile()) out[rel] = `file:${sha(fs.readFileSync(p))}`;
      else out[rel] = 'other';
    }
  };
  walk(dir);
  return out;
}

/** The sandbox minus the artifacts root: what the server must never touch. */
export function outsideTree(sb: Sandbox): Record<string, string> {
  const rootRel = path.relative(sb.dir, sb.root);
  return exactTree(sb.dir, (rel) => rel === rootRel || rel.startsWith(`${rootRel}/`));
}

/** The root without proper-lockfile's transient `.lock` folders. */
export function rootTree(root: string): Record<string, string> {
  return exactTree(root, (rel) => rel === '.lock' || rel.endsWith('/.lock'));
}

export function listFiles(dir: string): string[] {
  return Object.entries(exactTree(dir))
    .filter(([, v]) => v.startsWith('file:'))
    .map(([k]) => k);
}

/** A leftover temp file of writeFileAtomic: `.<name>.<pid>.<hex>.tmp`. */
export const TEMP_FILE = /(^|\/)\.[^/]+\.tmp$/;

export interface ArtifactProblem {
  file: string;
  problem: string;
}

/** Every regular file under dir with a cheap change signature (inode, size, mtime), never following links. */
function statFiles(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        const st = fs.lstatSync(p, { bigint: true });
        out.set(path.relative(dir, p).split(path.sep).join('/'), `${st.ino}:${st.size}:${st.mtimeNs}`);
      }
    }
  };
  walk(dir);
  return out;
}

/**
 * Every file under root is whole: JSON parses, markdown with frontmatter parses with gray-matter, a
 * stored source's sha256 matches its body. Temp files and the lock folder are ignored (never data).
 * With `seen` (a cache kept across calls), files unchanged since they last passed are not re-read.
 */
export function checkArtifacts(root: string, seen?: Map<string, string>): { problems: ArtifactProblem[]; files: number; temps: string[] } {
  const problems: ArtifactProblem[] = [];
  const temps: string[] = [];
  let files = 0;
  for (const [rel, sig] of statFiles(root)) {
    if (rel.split('/').includes('.lock')) continue;
    if (TEMP_FILE.test(rel)) {
      temps.push(rel);
      continue;
    }
    files++;
    if (seen?.get(rel) === sig) continue;
    const before = problems.length;
    checkOne(root, rel, problems);
    if (seen && problems.length === before) seen.set(rel, sig);
  }
  return { problems, files, temps };
}

function checkOne(root: string, rel: string, problems: ArtifactProblem[]): void {
  const text = fs.readFileSync(path.join(root, rel), 'utf8');
  if (rel.endsWith('.json')) {
    try {
      const v = JSON.parse(text);
      if (v === null || typeof v !== 'object') problems.push({ file: rel, problem: 'JSON is not an object' });
    } catch (err) {
      problems.push({ file: rel, problem: `JSON does not parse: ${(err as Error).message} (${text.length} bytes)` });
    }
  } else if (rel.endsWith('.md')) {
    if (!text.endsWith('\n')) problems.push({ file: rel, problem: 'markdown does not end with a newline (torn?)' });
    if (text.startsWith('---\n')) {
      try {
        // gray-matter caches by content; passing options bypasses the cache.
        const fm = matter(text, { delimiters: '---' } as never);
        if (Object.keys(fm.data).length === 0) problems.push({ file: rel, problem: 'empty frontmatter' });
        if (/^[^/]+\/sources\/S\d+\.md$/.test(rel)) {
          const body = text.slice(text.indexOf('\n---\n', 3) + 5);
          const want = createHash('sha256').update(body).digest('hex');
          if (fm.data.sha256 !== want) problems.push({ file: rel, problem: 'sha256 does not match the stored body' });
        }
      } catch (err) {
        problems.push({ file: rel, problem: `frontmatter does not parse: ${(err as Error).message}` });
      }
    } else if (/micro-report|thread-completion|sources\//.test(rel)) {
      problems.push({ file: rel, problem: 'frontmatter missing' });
    }
  } else {
    problems.push({ file: rel, problem: 'unexpected file kind' });
  }
}
