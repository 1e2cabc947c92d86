// The full-text index of the allowed roots (SPEC 11.1, search_sources). MiniSearch (BM25+) holds it; one
// gzipped JSON file per root in the cache folder keeps it between sessions, outside the artifacts. It is
// built on first use and brought up to date on every search: a file whose mtime or size changed is read
// again, a new one added, a removed one dropped.
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import MiniSearch, { type AsPlainObject, type SearchResult } from 'minisearch';
import { decodeSegment } from '../engine/local-key.js';
import { documentStem, editionRank, isNearCopy } from '../engine/near-copy.js';
import { localKey, readLocalFile, type LocalRef } from './open.js';
import { indexText } from './index-text.js';
import { walkRoot } from './walk.js';
import type { LocalRoot } from './roots.js';

export const CACHE_ENV = 'DEEP_RESEARCH_CACHE';
// 2: HTML text from a streaming parse (html-text.ts); a page with no <body> is indexed, not skipped.
const VERSION = 2;

/** `$DEEP_RESEARCH_CACHE`, else `$XDG_CACHE_HOME/deep-research`, else `~/.cache/deep-research`. */
export function cacheDir(env: NodeJS.ProcessEnv): string {
  if (env[CACHE_ENV]) return path.resolve(env[CACHE_ENV]);
  const xdg = env.XDG_CACHE_HOME;
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), '.cache'), 'deep-research');
}

export interface IndexedFile {
  mtimeMs: number;
  size: number;
  title: string;
  /** The file's words as the index holds them; absent when the file could not be read. */
  text?: string;
  /** Why the file is not searchable (too little text, damaged, …); tried again when it changes. */
  skipped?: string;
}

interface IndexFile {
  version: number;
  root: string;
  files: Record<string, IndexedFile>;
  index: AsPlainObject;
}

export const SEARCH_FIELDS = ['title', 'text'];
export const SEARCH_OPTIONS = { boost: { title: 2 }, prefix: (term: string) => term.length >= 4 };

export function newMiniSearch(): MiniSearch {
  return new MiniSearch({ fields: SEARCH_FIELDS, storeFields: ['title'], searchOptions: SEARCH_OPTIONS });
}

export class RootIndex {
  readonly root: LocalRoot;
  readonly file: string;
  private files: Record<string, IndexedFile> = {};
  private search: MiniSearch = newMiniSearch();
  truncated = false;

  constructor(root: LocalRoot, cache: string) {
    this.root = root;
    const id = createHash('sha256').update(root.dir).digest('hex').slice(0, 12);
    this.file = path.join(cache, 'local-index', `${root.name}-${id}.json.gz`);
    this.load();
  }

  private load(): void {
    try {
      const data = JSON.parse(gunzipSync(readFileSync(this.file)).toString('utf8')) as IndexFile;
      if (data.version !== VERSION || data.root !== this.root.name) return;
      this.search = MiniSearch.loadJS(data.index, { fields: SEARCH_FIELDS, storeFields: ['title'], searchOptions: SEARCH_OPTIONS });
      this.files = data.files;
    } catch {
      // No cache yet, or one this version cannot read: the index is built afresh.
      this.files = {};
      this.search = newMiniSearch();
    }
  }

  /** Brings the index up to date with the folder; returns how many files were read again. */
  async refresh(): Promise<{ read: number; removed: number }> {
    const { files: now, truncated } = walkRoot(this.root);
    this.truncated = truncated;
    let read = 0;
    let removed = 0;
    for (const rel of Object.keys(this.files)) {
      if (now.has(rel)) continue;
      if (this.files[rel]!.text !== undefined) this.search.discard(localKey(this.root.name, rel));
      delete this.files[rel];
      removed++;
    }
    // One file at a time, in path order: MiniSearch numbers documents as they come (the index file must be
    // the same for the same folder), and a PDF's worker limits (time, RSS growth) are watched from this
    // thread, which must be idle while it parses.
    for (const [rel, st] of now) {
      const had = this.files[rel];
      if (had && had.mtimeMs === st.mtimeMs && had.size === st.size) continue;
      const id = localKey(this.root.name, rel);
      if (had?.text !== undefined) this.search.discard(id);
      const entry = await indexedFile({ root: this.root, rel, key: id });
      this.files[rel] = { ...entry, mtimeMs: st.mtimeMs, size: st.size };
      if (entry.text !== undefined) this.search.add({ id, title: entry.title, text: entry.text });
      read++;
    }
    if (read > 0 || removed > 0) this.save();
    return { read, removed };
  }

  private save(): void {
    if (this.search.dirtCount > 0 && this.search.dirtFactor > 0.1) this.search.vacuum().catch(() => undefined);
    const data: IndexFile = { version: VERSION, root: this.root.name, files: this.files, index: this.search.toJSON() };
    mkdirSync(path.dirname(this.file), { recursive: true });
    // Atomic: another session reading the cache sees the old file or the new one.
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, gzipSync(JSON.stringify(data), { level: 6 }));
      renameSync(tmp, this.file);
    } catch {
      // A cache that cannot be written costs a rebuild next session, not this answer.
      rmSync(tmp, { force: true });
    }
  }

  query(q: string): SearchResult[] {
    return this.search.search(q);
  }

  /** The indexed file behind document `id` (a `local:` key), if the index holds it. */
  private fileOf(id: string): IndexedFile | undefined {
    return this.files[id.slice(localKey(this.root.name, '').length).split('/').map(decodeSegment).join('/')];
  }

  text(id: string): string | undefined {
    return this.fileOf(id)?.text;
  }

  /**
   * The id of this root's better edition of document `id` (its rendered page beside a `_sources/*.rst.txt`,
   * see `editionRank`): the same document name and near-copy text. Undefined when `id` is the best one held.
   */
  betterEdition(id: string): string | undefined {
    const stem = documentStem(id);
    const rank = editionRank(id);
    const text = this.text(id);
    if (stem === '' || rank === 0 || text === undefined) return undefined;
    let best: { id: string; rank: number } | undefined;
    for (const rel of Object.keys(this.files).sort()) {
      const other = localKey(this.root.name, rel);
      const otherText = this.files[rel]!.text;
      if (other === id || otherText === undefined || documentStem(other) !== stem) continue;
      const r = editionRank(other);
      if (r < rank && (best === undefined || r < best.rank) && isNearCopy(text, otherText)) best = { id: other, rank: r };
    }
    return best?.id;
  }

  /** The title the index holds for document `id`. */
  title(id: string): string | undefined {
    return this.fileOf(id)?.title;
  }

  /** Searchable documents, and files that could not be read. */
  counts(): { documents: number; skipped: number } {
    const all = Object.values(this.files);
    const documents = all.filter((f) => f.text !== undefined).length;
    return { documents, skipped: all.length - documents };
  }

  /** Every text held, in path order (the bench measures the index against them). */
  allTexts(): string[] {
    return Object.keys(this.files).sort().flatMap((k) => (this.files[k]!.text !== undefined ? [this.files[k]!.text!] : []));
  }

  /** Titles of the searchable documents, in path order. */
  titles(): string[] {
    return Object.keys(this.files).sort().flatMap((k) => (this.files[k]!.text !== undefined ? [this.files[k]!.title] : []));
  }

  /** Bytes on disk, and characters of text held. */
  sizes(): { bytes: number; textChars: number } {
    let bytes = 0;
    try {
      bytes = lstatSync(this.file).size;
    } catch {
      bytes = 0;
    }
    return { bytes, textChars: Object.values(this.files).reduce((n, f) => n + (f.text?.length ?? 0), 0) };
  }
}

/** What the index holds of one file (see index-text.ts). */
async function indexedFile(ref: LocalRef): Promise<Omit<IndexedFile, 'mtimeMs' | 'size'>> {
  const file = readLocalFile(ref);
  if (!file.ok) return { title: path.posix.basename(ref.rel), skipped: file.reason };
  return indexText(ref, file.bytes);
}

// One index per root and cache folder for the life of the server: loading it costs more than a query.
const open = new Map<string, RootIndex>();

export function rootIndex(root: LocalRoot, cache: string): RootIndex {
  const id = `${cache}\0${root.name}\0${root.dir}`;
  let idx = open.get(id);
  if (!idx) {
    idx = new RootIndex(root, cache);
    open.set(id, idx);
  }
  return idx;
}

/** Forgets the indexes held in memory (tests; the files in the cache stay). */
export function closeIndexes(): void {
  open.clear();
}
