// Run, thread and source persistence under artifacts/<run_id>/. Thin: it reads and writes JSON and
// markdown; every decision is made by src/engine before anything is written here.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { InputError } from '../errors.js';
import type { Brief, Depth, TierBudgets } from '../engine/types.js';
import type { ThreadState } from '../engine/thread-state.js';
import type { CriticGap, CriticState } from '../engine/critic.js';
import { emptyTally, type FetchTally } from '../engine/degraded.js';
import { emptyAudit, type AuditState } from '../engine/audit.js';
import { fileLabel, safeJoin, readJson, readFileSafe, readdirSafe, ensureDir, writeBatch, sweepTemps } from './fs-safe.js';
import { withRunLock } from './lock.js';
import { splitFrontmatter, withFrontmatter } from '../format/frontmatter.js';
import { originOf } from '../engine/origin.js';
import { MirrorIndex, textPrint, type PrintEntry } from '../engine/mirrors.js';

const RUN_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export interface ThreadEntry {
  name: string;
  slug: string;
  critic: boolean;
}

export interface CritiqueRound {
  round: number;
  gaps: CriticGap[];
  signoff: boolean;
  clean: boolean;
  open_material_gaps: number;
  sources: number;
  new_sources: number;
  facts: number;
  next_target?: string;
}

export interface RunState {
  version: 1;
  run_id: string;
  question: string;
  depth: Depth;
  created_at: string;
  brief: Brief;
  budgets: TierBudgets;
  max_fetches: number;
  threads: ThreadEntry[];
  critic: CriticState;
  critique_rounds: CritiqueRound[];
  fetch: FetchTally;
  /** Slugs of the threads that recorded a contradiction: the only states a run-wide view must read. */
  contradiction_threads?: string[];
  /** Per source id and reader (a thread, '' for reads without one): start offsets of the passages shown (SPEC 11.1). */
  reads?: Record<string, Record<string, number[]>>;
  /** Per thread: its round when it last read, and the passages (per source id) it was shown in that round. */
  round_reads?: Record<string, { round: number; sources: Record<string, number[]> }>;
  /** Passages audit_report has shown in this run, by passage key: the pair that showed each first (SPEC 11.1). */
  audit_shown?: Record<string, string>;
  /** Passages coverage_report has listed in this run, by passage key: the sub-question each was listed for. */
  coverage_shown?: Record<string, string>;
}

export interface SourceMeta {
  id: string;
  url: string;
  canonical_key: string;
  title: string;
  fetched_at: string;
  sha256: string;
  /** Absent in sources stored before PDFs were read (all HTML or text). */
  content_type?: 'html' | 'text' | 'pdf';
  /** PDF only: pages stored, and pages past the cap not read. */
  pages?: number;
  pages_not_read?: number;
  /** PDF only, a span read as its own source (`pages`): the number of its first page. */
  page_from?: number;
  /** PDF only: the outline returned with the text (the PDF's bookmarks, or its pages). */
  outline?: string[];
  /** PDF only: the outline entries whose pages lie past the cap, the map of what was not read. */
  outline_past_cap?: string[];
  /** The registrable domain of the URL the text came from, after redirects (SPEC 4.1 origin). */
  origin: string;
  /** The earlier source of another site whose text this one repeats: the two count as one origin. */
  mirror_of?: string;
  /** HTML only, when the text holds noticeably less than the page shows: the share kept and the headings left out. */
  kept?: number;
  left_out?: string[];
  /** The text is the page's whole visible text (`fetch_source {full: true}`). */
  full?: boolean;
}

/** What addSource stores: the text and the metadata the fetch produced; `origin` defaults to the URL's. */
export type NewSource = Pick<SourceMeta, 'url' | 'canonical_key' | 'title' | 'fetched_at' | 'content_type' | 'pages' | 'pages_not_read' | 'page_from' | 'outline' | 'outline_past_cap' | 'kept' | 'left_out' | 'full'> & {
  markdown: string;
  origin?: string;
};


export interface StoredSource extends SourceMeta {
  markdown: string;
}

export class RunStore {
  readonly root: string;
  private readonly sourceCache = new Map<string, { source: StoredSource; mtimeMs: number }>();
  private readonly swept = new Set<string>();
  /** Per run, the mirror index of its stored sources, caught up from state/source-prints/ under the run lock. */
  private readonly mirrors = new Map<string, { index: MirrorIndex; upTo: number }>();

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  runDir(runId: string): string {
    if (!RUN_ID.test(runId) || runId.length > 120) {
      throw new InputError(`run_id "${runId.slice(0, 80)}" is not a run id; use the run_id that start_run returned`);
    }
    return safeJoin(this.root, runId);
  }

  exists(runId: string): boolean {
    const dir = this.runDir(runId);
    const file = path.join(dir, 'state', 'run.json');
    if (!fs.existsSync(file)) return false;
    readFileSafe(file, this.root);
    return true;
  }

  loadRun(runId: string): RunState {
    const dir = this.runDir(runId);
    const file = path.join(dir, 'state', 'run.json');
    const run = shaped(readJson<RunState>(file, this.root), file, this.root, (r) => typeof r.run_id === 'string' && Array.isArray(r.threads) && isObject(r.fetch) && isObject(r.brief) && isObject(r.budgets));
    if (!run) throw new InputError(`unknown run "${runId}": call start_run first and use the run_id it returns`);
    if (!this.swept.has(runId)) {
      // Once per process and run: temp files of writers killed mid-write would otherwise show up in git.
      this.swept.add(runId);
      for (const sub of ['', 'state', 'sources', path.join('state', 'source-keys'), path.join('state', 'source-prints')]) sweepTemps(path.join(dir, sub));
    }
    return run;
  }

  saveRun(run: RunState): void {
    this.commit(run.run_id, { run });
  }

  /**
   * Writes what one tool call changed, all or nothing as far as refusals go: artifacts (reports rendered
   * from the new state) first, then thread states, then the run, each file atomic.
   */
  commit(runId: string, w: { artifacts?: { name: string; content: string }[]; threads?: ThreadState[]; run?: RunState; audit?: AuditState }): string[] {
    const dir = this.runDir(runId);
    const entries: { file: string; content: string }[] = [];
    for (const a of w.artifacts ?? []) entries.push({ file: safeJoin(dir, a.name), content: a.content });
    if (w.audit) entries.push({ file: safeJoin(dir, 'state', 'audit.json'), content: json(w.audit) });
    for (const t of w.threads ?? []) entries.push({ file: safeJoin(dir, 'state', `thread-${t.slug}.json`), content: json(t) });
    if (w.run) entries.push({ file: safeJoin(dir, 'state', 'run.json'), content: json(w.run) });
    writeBatch(this.root, entries);
    return (w.artifacts ?? []).map((a) => `${runId}/${a.name}`);
  }

  threadEntry(run: RunState, thread: string): ThreadEntry | undefined {
    return run.threads.find((t) => t.name === thread);
  }

  loadThread(runId: string, slug: string): ThreadState | undefined {
    const file = safeJoin(this.runDir(runId), 'state', `thread-${slug}.json`);
    return shaped(readJson<ThreadState>(file, this.root), file, this.root, (t) => typeof t.name === 'string' && typeof t.slug === 'string' && isObject(t.definition) && Array.isArray(t.phase_order));
  }

  saveThread(runId: string, state: ThreadState): void {
    this.commit(runId, { threads: [state] });
  }

  /** The claim audit's verdicts (SPEC 4.1), empty before the first record_audit. */
  loadAudit(runId: string): AuditState {
    const file = safeJoin(this.runDir(runId), 'state', 'audit.json');
    const audit = shaped(readJson<AuditState>(file, this.root), file, this.root, (a) => isObject(a.verdicts) && Object.values(a.verdicts).every((v) => isObject(v) && typeof v.verdict === 'string'));
    return audit ?? emptyAudit();
  }

  readArtifact(runId: string, name: string): string | undefined {
    return readFileSafe(safeJoin(this.runDir(runId), name), this.root);
  }

  /** Ids of runs of this question: the base id and its -2, -3 … siblings, in creation order. */
  runsOf(baseId: string): string[] {
    const found: { id: string; n: number }[] = [];
    let entries: string[] = [];
    try {
      entries = fs.readdirSync(this.root);
    } catch {
      return [];
    }
    for (const e of entries) {
      if (e === baseId) found.push({ id: e, n: 1 });
      else if (e.startsWith(`${baseId}-`)) {
        const n = Number(e.slice(baseId.length + 1));
        if (Number.isInteger(n) && n >= 2 && String(n) === e.slice(baseId.length + 1)) found.push({ id: e, n });
      }
    }
    return found
      .filter((f) => fs.existsSync(path.join(this.root, f.id, 'state', 'run.json')))
      .sort((a, b) => a.n - b.n)
      .map((f) => f.id);
  }

  /** Serialises choosing and creating run folders, so two fresh runs of one question never get one id. */
  lockRoot<T>(fn: () => T | Promise<T>): Promise<T> {
    ensureDir(this.root, this.root);
    return withRunLock(this.root, fn);
  }

  lock<T>(runId: string, fn: () => T | Promise<T>): Promise<T> {
    const dir = this.runDir(runId);
    ensureDir(this.root, dir);
    return withRunLock(dir, fn);
  }

  // ---- sources -------------------------------------------------------------------------------------

  private keyFile(runId: string, key: string): string {
    const h = createHash('sha256').update(key).digest('hex').slice(0, 24);
    return safeJoin(this.runDir(runId), 'state', 'source-keys', `${h}.json`);
  }

  /** O(1): one small file per canonical key, so lookups never scan the run's sources. */
  lookupSource(runId: string, key: string): StoredSource | undefined {
    const file = this.keyFile(runId, key);
    const entry = shaped(readJson<{ key: string; id: string }>(file, this.root), file, this.root, (e) => typeof e.key === 'string' && typeof e.id === 'string');
    if (!entry || entry.key !== key) return undefined;
    return this.readSource(runId, entry.id);
  }

  /** `fresh` reads past the cache: verification must see an edit made after the source was cached. */
  readSource(runId: string, id: string, o: { fresh?: boolean } = {}): StoredSource | undefined {
    if (!/^S[1-9][0-9]{0,6}$/.test(id)) return undefined;
    const cacheKey = `${runId}/${id}`;
    const file = safeJoin(this.runDir(runId), 'sources', `${id}.md`);
    const mtimeMs = mtimeOf(file);
    const cached = o.fresh ? undefined : this.sourceCache.get(cacheKey);
    if (cached && cached.mtimeMs === mtimeMs) return cached.source;
    const text = readFileSafe(file, this.root);
    if (text === undefined) return undefined;
    let parsed: ReturnType<typeof splitFrontmatter>;
    try {
      parsed = splitFrontmatter(text);
    } catch (err) {
      const label = fileLabel(safeJoin(this.runDir(runId), 'sources', `${id}.md`), this.root);
      throw new InputError(`"${label}" has frontmatter that is not valid YAML (${String((err as Error).message).split('\n')[0]?.slice(0, 120)}); restore it from git`);
    }
    if (!parsed) return undefined;
    const d = parsed.data;
    const src: StoredSource = {
      id,
      url: String(d.url ?? ''),
      canonical_key: String(d.canonical_key ?? ''),
      title: String(d.title ?? ''),
      fetched_at: String(d.fetched_at ?? ''),
      sha256: String(d.sha256 ?? ''),
      markdown: parsed.body,
      origin: typeof d.origin === 'string' ? d.origin : safeOrigin(String(d.url ?? '')),
    };
    if (typeof d.mirror_of === 'string') src.mirror_of = d.mirror_of;
    if (d.content_type === 'html' || d.content_type === 'text' || d.content_type === 'pdf') src.content_type = d.content_type;
    if (typeof d.pages === 'number') src.pages = d.pages;
    if (typeof d.pages_not_read === 'number') src.pages_not_read = d.pages_not_read;
    if (typeof d.page_from === 'number') src.page_from = d.page_from;
    if (Array.isArray(d.outline)) src.outline = d.outline.map(String);
    if (Array.isArray(d.outline_past_cap)) src.outline_past_cap = d.outline_past_cap.map(String);
    if (typeof d.kept === 'number') src.kept = d.kept;
    if (Array.isArray(d.left_out)) src.left_out = d.left_out.map(String);
    if (d.full === true) src.full = true;
    // Ids are never reused; a source changes only when `full` replaces its text, which changes the
    // file's mtime, so another process's cached copy is read again.
    if (this.sourceCache.size > 2_000) this.sourceCache.clear();
    this.sourceCache.set(cacheKey, { source: src, mtimeMs });
    return src;
  }

  /**
   * Stores readable text once per canonical key. Allocation happens under the run lock: the counter is
   * advanced before the file is written, so a crash can skip an id but never hand one out twice.
   */
  async addSource(
    runId: string,
    s: NewSource,
  ): Promise<{ source: StoredSource; duplicate: boolean }> {
    return this.lock(runId, () => this.addSourceLocked(runId, s));
  }

  /** `run`, when given, is written in the same batch: a refused call then leaves the run as it was. */
  addSourceLocked(
    runId: string,
    s: NewSource,
    run?: RunState,
  ): { source: StoredSource; duplicate: boolean } {
    const existing = this.lookupSource(runId, s.canonical_key);
    if (existing) return { source: existing, duplicate: true };
    const dir = this.runDir(runId);
    const counterFile = safeJoin(dir, 'state', 'source-counter.json');
    const counter = shaped(readJson<{ next: number }>(counterFile, this.root), counterFile, this.root, (c) => Number.isSafeInteger(c.next) && c.next >= 1) ?? { next: 1 };
    const id = `S${counter.next}`;
    const origin = s.origin ?? safeOrigin(s.url);
    // The mirror check runs here, once per new source, on sentence hashes kept beside the sources.
    const print = textPrint(withNewline(s.markdown));
    const mirrorOf = this.mirrorIndex(runId, counter.next).find(print, origin);
    const { meta, body, file } = sourceFile(id, s, origin, mirrorOf);
    const printEntry: PrintEntry = { id, origin, print };
    if (mirrorOf !== undefined) printEntry.mirror_of = mirrorOf;
    // The counter goes first: a crash after it skips an id but can never hand one out twice.
    const path_ = safeJoin(dir, 'sources', `${id}.md`);
    writeBatch(this.root, [
      { file: counterFile, content: json({ next: counter.next + 1 }) },
      { file: path_, content: file },
      { file: this.keyFile(runId, s.canonical_key), content: json({ key: s.canonical_key, id }) },
      { file: this.printFile(runId, id), content: `${JSON.stringify(printEntry)}\n` },
      ...(run ? [{ file: safeJoin(dir, 'state', 'run.json'), content: json(run) }] : []),
    ]);
    const mirrors = this.mirrors.get(runId);
    if (mirrors) {
      mirrors.index.add(printEntry);
      mirrors.upTo = counter.next + 1;
    }
    const source: StoredSource = { ...meta, markdown: body };
    this.sourceCache.set(`${runId}/${id}`, { source, mtimeMs: mtimeOf(path_) });
    return { source, duplicate: false };
  }

  private printFile(runId: string, id: string): string {
    return safeJoin(this.runDir(runId), 'state', 'source-prints', `${id}.json`);
  }

  /**
   * The run's mirror index, holding every source below id `next`. Built once per process and run; sources
   * another process stored since are read in, and one stored before prints were kept is printed from its text.
   */
  private mirrorIndex(runId: string, next: number): MirrorIndex {
    let m = this.mirrors.get(runId);
    if (!m) {
      m = { index: new MirrorIndex(), upTo: 1 };
      this.mirrors.set(runId, m);
    }
    for (let n = m.upTo; n < next; n++) {
      const id = `S${n}`;
      const saved = readJson<PrintEntry>(this.printFile(runId, id), this.root);
      if (saved) m.index.add(saved);
      else {
        const s = this.readSource(runId, id);
        if (s) m.index.add({ id, origin: s.origin, print: textPrint(s.markdown), ...(s.mirror_of !== undefined ? { mirror_of: s.mirror_of } : {}) });
      }
    }
    m.upTo = Math.max(m.upTo, next);
    return m.index;
  }

  /** The site a source counts for: its own origin, or, for a mirror, the origin of the source it mirrors. */
  countingOrigin(runId: string, source: StoredSource): string {
    if (source.mirror_of === undefined) return source.origin;
    return this.readSource(runId, source.mirror_of)?.origin ?? source.origin;
  }

  /**
   * Replaces a stored source's text with the page's whole visible text (`fetch_source {full: true}`):
   * same id and canonical key, new sha256. Call under the run lock.
   */
  replaceSourceLocked(runId: string, id: string, s: NewSource): StoredSource {
    // The origin and mirror standing are the page's, not its text's: they stay as first stored.
    const before = this.readSource(runId, id, { fresh: true });
    const { meta, body, file } = sourceFile(id, s, before?.origin ?? s.origin ?? safeOrigin(s.url), before?.mirror_of);
    const path_ = safeJoin(this.runDir(runId), 'sources', `${id}.md`);
    writeBatch(this.root, [{ file: path_, content: file }]);
    const source: StoredSource = { ...meta, markdown: body };
    this.sourceCache.set(`${runId}/${id}`, { source, mtimeMs: mtimeOf(path_) });
    return source;
  }

  /** The highest source number handed out, 0 before the first: one small file read, not a listing. */
  highestSourceNumber(runId: string): number {
    const file = safeJoin(this.runDir(runId), 'state', 'source-counter.json');
    const counter = readJson<{ next: number }>(file, this.root);
    return counter && Number.isSafeInteger(counter.next) && counter.next >= 1 ? counter.next - 1 : 0;
  }

  /** Every stored source id of the run, in numeric order. */
  listSourceIds(runId: string): string[] {
    return readdirSafe(safeJoin(this.runDir(runId), 'sources'), this.root)
      .map((n) => /^S([1-9][0-9]*)\.md$/.exec(n))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b)
      .map((n) => `S${n}`);
  }

  newRunState(i: {
    runId: string;
    question: string;
    depth: Depth;
    createdAt: string;
    brief: Brief;
    budgets: TierBudgets;
    maxFetches: number;
    threads: ThreadEntry[];
  }): RunState {
    return {
      version: 1,
      run_id: i.runId,
      question: i.question,
      depth: i.depth,
      created_at: i.createdAt,
      brief: i.brief,
      budgets: i.budgets,
      max_fetches: i.maxFetches,
      threads: i.threads,
      critic: { rounds: 0, clean_signoffs: 0, open_questions: [] },
      critique_rounds: [],
      fetch: emptyTally(),
    };
  }
}

/** A stored URL always parses; should one not, its text is its own origin rather than a failed read. */
function safeOrigin(url: string): string {
  try {
    return originOf(url);
  } catch {
    return url;
  }
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function isObject(v: unknown): v is Record<string, any> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * A state file's value when it has the shape the server writes; otherwise a refusal naming the file, not a
 * TypeError from deep inside a rule (a hand-edited or hostile run folder).
 */
function shaped<T>(value: T | undefined, file: string, root: string, check: (v: Record<string, any>) => boolean): T | undefined {
  if (value === undefined) return undefined;
  if (isObject(value) && check(value)) return value;
  throw new InputError(`"${fileLabel(file, root)}" does not hold what deep-research writes there (wrong shape); restore it from git or remove it`);
}

/** A stored source's file: frontmatter (fields in a fixed order) and the body, ending in a newline. */
function sourceFile(id: string, s: NewSource, origin: string, mirrorOf: string | undefined): { meta: SourceMeta; body: string; file: string } {
  const body = withNewline(s.markdown);
  const sha256 = createHash('sha256').update(body).digest('hex');
  const meta: SourceMeta = { id, url: s.url, canonical_key: s.canonical_key, title: s.title, fetched_at: s.fetched_at, sha256, origin };
  if (mirrorOf !== undefined) meta.mirror_of = mirrorOf;
  if (s.content_type !== undefined) meta.content_type = s.content_type;
  if (s.pages !== undefined) meta.pages = s.pages;
  if (s.pages_not_read) meta.pages_not_read = s.pages_not_read;
  if (s.page_from !== undefined) meta.page_from = s.page_from;
  if (s.outline !== undefined) meta.outline = s.outline;
  if (s.outline_past_cap !== undefined && s.outline_past_cap.length > 0) meta.outline_past_cap = s.outline_past_cap;
  if (s.kept !== undefined) meta.kept = s.kept;
  if (s.left_out !== undefined) meta.left_out = s.left_out;
  if (s.full) meta.full = true;
  const file = withFrontmatter(
    {
      url: meta.url,
      canonical_key: meta.canonical_key,
      title: meta.title,
      fetched_at: meta.fetched_at,
      sha256,
      ...(meta.content_type !== undefined ? { content_type: meta.content_type } : {}),
      ...(meta.pages !== undefined ? { pages: meta.pages } : {}),
      ...(meta.pages_not_read !== undefined ? { pages_not_read: meta.pages_not_read } : {}),
      ...(meta.page_from !== undefined ? { page_from: meta.page_from } : {}),
      ...(meta.outline !== undefined ? { outline: meta.outline } : {}),
      ...(meta.outline_past_cap !== undefined ? { outline_past_cap: meta.outline_past_cap } : {}),
      origin,
      ...(mirrorOf !== undefined ? { mirror_of: mirrorOf } : {}),
      ...(meta.kept !== undefined ? { kept: meta.kept } : {}),
      ...(meta.left_out !== undefined ? { left_out: meta.left_out } : {}),
      ...(meta.full ? { full: true } : {}),
    },
    body,
  );
  return { meta, body, file };
}

function mtimeOf(file: string): number {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return -1;
  }
}

function withNewline(markdown: string): string {
  return markdown.endsWith('\n') ? markdown : `${markdown}\n`;
}
