// fetch_source's duplicate check: one canonical key → stored source, with 100 and 10,000 stored sources.
// Sources are seeded through the store's own API (RunStore.addSourceLocked), as fetch_source leaves them.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { canonicalKey } from '../src/engine/canonical-url.js';
import { RunStore } from '../src/store/run-store.js';
import { inProcess, type InProcess } from './in-process.js';
import type { Row } from './report.js';
import { page, sourceUrl } from './round-scenario.js';
import { ms, ratio, sampleAlternating, summarize, type Summary } from './stats.js';

const SAMPLES = 2_000;
const TOOL_SAMPLES = 80;
const PAGE = 1_500;

/** tmpfs when there is one: seeding 10,000 sources costs 30,000 fsyncs on a disk, and a lookup only reads. */
function scratchParent(): { dir: string; label: string } {
  try {
    fs.accessSync('/dev/shm', fs.constants.W_OK);
    return { dir: '/dev/shm', label: 'tmpfs (/dev/shm)' };
  } catch {
    return { dir: os.tmpdir(), label: `${os.tmpdir()} (disk)` };
  }
}

interface Seeded {
  n: number;
  root: string;
  runId: string;
  server: InProcess;
  seedMs: number;
  /** Deterministic pseudo-random source index. */
  pick: () => number;
  /** Source indexes in a shuffled order, each asked of the tool once. */
  order: number[];
}

async function seed(parent: string, n: number): Promise<Seeded> {
  const root = fs.mkdtempSync(path.join(parent, 'dr-bench-lookup-'));
  const server = await inProcess({ root });
  const started = await server.callTool('start_run', {
    question: `Source lookup bench with ${n} stored sources`,
    brief: { threads: [{ name: 'Only', sub_questions: [{ id: 'SQ-1', question: 'Is lookup constant time?' }], subjects: [] }] },
  });
  const runId = (started.structuredContent as { run_id?: string } | undefined)?.run_id;
  if (started.isError || !runId) throw new Error(`start_run refused: ${JSON.stringify(started.content)}`);
  const seeder = new RunStore(root);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const url = sourceUrl(i);
    seeder.addSourceLocked(runId, { url, canonical_key: canonicalKey(url), title: `Report ${i}`, markdown: page(i, PAGE), fetched_at: '2026-01-01T00:00:00.000Z' });
  }
  const seedMs = performance.now() - t0;
  if (seeder.listSourceIds(runId).length !== n) throw new Error(`seeded ${n} sources but the store lists another count`);
  let x = 12345 + n;
  const pick = () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x % n;
  };
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = pick() % (i + 1);
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return { n, root, runId, server, seedMs, pick, order };
}

interface Measured {
  hit: Summary;
  miss: Summary;
  warmHit: Summary;
  /** fetch_source itself answering a stored URL, in process; each URL asked once, so never cached. */
  tool: Summary;
  /** A new process's first loadRun of the run (what its first tool call on the run pays). */
  firstLoad: Summary;
}

async function measureAll(cases: Seeded[]): Promise<Measured[]> {
  // Each lookup on a fresh store, so nothing is cached: the key file and, on a hit, the source file are read.
  const hit = await sampleAlternating(cases, SAMPLES, 50, () => undefined, (c) => {
    if (!new RunStore(c.root).lookupSource(c.runId, canonicalKey(sourceUrl(c.pick())))) throw new Error('lookup of a stored key missed');
  });
  let absent = 0;
  const miss = await sampleAlternating(cases, SAMPLES, 50, () => undefined, (c) => {
    if (new RunStore(c.root).lookupSource(c.runId, canonicalKey(`https://absent.example.org/page-${absent++}`))) throw new Error('lookup of an absent key hit');
  });
  // The same process asking again: key file read, text from the store's cache.
  const warmStores = new Map(cases.map((c) => [c, new RunStore(c.root)]));
  const warmKey = new Map<Seeded, string>();
  const warm = await sampleAlternating(
    cases,
    SAMPLES,
    50,
    (c) => {
      const key = canonicalKey(sourceUrl(c.pick()));
      warmKey.set(c, key);
      warmStores.get(c)?.lookupSource(c.runId, key);
    },
    (c) => warmStores.get(c)?.lookupSource(c.runId, warmKey.get(c) as string),
  );
  // A new process's first look at the run: whatever the store does once per process and run.
  const firstLoad = await sampleAlternating(cases, 200, 10, () => undefined, (c) => {
    new RunStore(c.root).loadRun(c.runId);
  });
  // The tool, each URL once: lookup, passages, outline and the untrusted block; nothing fetched.
  const next = new Map(cases.map((c) => [c, 0]));
  const tool = await sampleAlternating(cases, TOOL_SAMPLES, 10, () => undefined, async (c) => {
    const i = next.get(c) ?? 0;
    next.set(c, i + 1);
    const r = await c.server.callTool('fetch_source', { run_id: c.runId, url: sourceUrl(c.order[i] as number) });
    const sc = r.structuredContent as { duplicate?: boolean } | undefined;
    if (r.isError || sc?.duplicate !== true) throw new Error(`fetch_source did not answer a stored URL from the store: ${JSON.stringify(r).slice(0, 300)}`);
  });
  return cases.map((_, k) => ({
    hit: summarize(hit[k] as number[]),
    miss: summarize(miss[k] as number[]),
    warmHit: summarize(warm[k] as number[]),
    tool: summarize(tool[k] as number[]),
    firstLoad: summarize(firstLoad[k] as number[]),
  }));
}

export async function sourceLookup(): Promise<{ rows: Row[]; notes: string[] }> {
  const parent = scratchParent();
  const cases: Seeded[] = [];
  try {
    cases.push(await seed(parent.dir, 100));
    cases.push(await seed(parent.dir, 10_000));
    const [small, large] = (await measureAll(cases)) as [Measured, Measured];
    const p = (s: Summary) => `p50 ${ms(s.p50)} · p99 ${ms(s.p99)}`;
    const rows: Row[] = [
      {
        figure: 'fetch_source duplicate lookup, hit, 10,000 sources (ref: 100)',
        ours: p(large.hit),
        reference: p(small.hit),
        goal: `${ratio(large.hit.p50 / small.hit.p50)} × (O(1) ⇒ ≈ 1)`,
      },
      {
        figure: 'fetch_source duplicate lookup, miss, 10,000 sources (ref: 100)',
        ours: p(large.miss),
        reference: p(small.miss),
        goal: `${ratio(large.miss.p50 / small.miss.p50)} × (O(1) ⇒ ≈ 1)`,
      },
      {
        figure: 'fetch_source answering a stored URL (whole tool, in process), 10,000 sources (ref: 100)',
        ours: p(large.tool),
        reference: p(small.tool),
        goal: `${ratio(large.tool.p50 / small.tool.p50)} × (≈ 1 expected)`,
      },
      {
        figure: "a new process's first loadRun of a run (once per process), 10,000 sources (ref: 100)",
        ours: p(large.firstLoad),
        reference: p(small.firstLoad),
        goal: `${ratio(large.firstLoad.p50 / small.firstLoad.p50)} ×`,
      },
    ];
    const notes = [
      `Duplicate lookup (\`RunStore.lookupSource\`, what fetch_source asks before fetching): ${SAMPLES} lookups of random stored keys and ${SAMPLES} of absent keys per store, each on a fresh store so nothing is cached (the key file and, on a hit, the source file are read and parsed). ` +
        `Stores seeded with \`addSourceLocked\` on ${parent.label} with ${PAGE.toLocaleString('en-US')}-character pages; the two stores are measured in alternation. ` +
        `The whole tool: fetch_source on stored URLs through an in-memory client (lookup, then passages and outline of the stored text; nothing fetched), ${TOOL_SAMPLES} calls per store, each URL asked once.`,
      '',
      '| stored sources | seeding | hit p50 / p99 | miss p50 / p99 | hit again in the same process p50 / p99 | fetch_source on a stored URL p50 / p99 | first loadRun in a process p50 / p99 |',
      '|---|---|---|---|---|---|---|',
      ...([
        [cases[0], small],
        [cases[1], large],
      ] as [Seeded, Measured][]).map(
        ([c, m]) =>
          `| ${c.n.toLocaleString('en-US')} | ${(c.seedMs / 1000).toFixed(1)} s | ${ms(m.hit.p50)} / ${ms(m.hit.p99)} | ${ms(m.miss.p50)} / ${ms(m.miss.p99)} | ${ms(m.warmHit.p50)} / ${ms(m.warmHit.p99)} | ${ms(m.tool.p50)} / ${ms(m.tool.p99)} | ${ms(m.firstLoad.p50)} / ${ms(m.firstLoad.p99)} |`,
      ),
    ];
    return { rows, notes };
  } finally {
    for (const c of cases) {
      await c.server.close();
      fs.rmSync(c.root, { recursive: true, force: true });
    }
  }
}
