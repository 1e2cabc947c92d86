// fetch_source's duplicate check: one canonical key → stored source, with 100 and 10,000 stored sources.
// Sources are seeded through the store's own API (RunStore.addSourceLocked), as fetch_source leaves them.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { canonicalKey } from '../src/engine/canonical-url.js';
import { RunStore } from '../src/store/run-store.js';
import { page, sourceUrl } from './round-scenario.js';
import { ms, ratio, summarize, type Summary } from './stats.js';
import type { Row } from './report.js';

const SAMPLES = 2_000;
const PAGE = 1_500;
const RUN_ID = 'lookup-bench';

/** tmpfs when there is one: seeding 10,000 sources costs 30,000 fsyncs on a disk, and a lookup only reads. */
function scratchParent(): { dir: string; label: string } {
  try {
    fs.accessSync('/dev/shm', fs.constants.W_OK);
    return { dir: '/dev/shm', label: 'tmpfs (/dev/shm)' };
  } catch {
    return { dir: os.tmpdir(), label: `${os.tmpdir()} (disk)` };
  }
}

interface Measured {
  n: number;
  seedMs: number;
  hit: Summary;
  miss: Summary;
  warmHit: Summary;
}

function measure(parent: string, n: number): Measured {
  const root = fs.mkdtempSync(path.join(parent, 'dr-bench-lookup-'));
  try {
    const seeder = new RunStore(root);
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const url = sourceUrl(i);
      seeder.addSourceLocked(RUN_ID, { url, canonical_key: canonicalKey(url), title: `Report ${i}`, markdown: page(i, PAGE), fetched_at: '2026-01-01T00:00:00.000Z' });
    }
    const seedMs = performance.now() - t0;
    if (seeder.listSourceIds(RUN_ID).length !== n) throw new Error(`seeded ${n} sources but the store lists another count`);

    let x = 12345;
    const pick = () => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      return x % n;
    };
    const hit: number[] = [];
    const miss: number[] = [];
    const warm: number[] = [];
    const warmStore = new RunStore(root);
    for (let j = 0; j < SAMPLES + 50; j++) {
      // A fresh store per lookup: nothing cached, the key file and the source file are read.
      const cold = new RunStore(root);
      const key = canonicalKey(sourceUrl(pick()));
      let t = performance.now();
      const found = cold.lookupSource(RUN_ID, key);
      const dHit = performance.now() - t;
      if (!found) throw new Error(`lookup of a stored key missed: ${key}`);

      const absent = canonicalKey(`https://absent.example.org/page-${j}`);
      t = performance.now();
      const none = cold.lookupSource(RUN_ID, absent);
      const dMiss = performance.now() - t;
      if (none) throw new Error('lookup of an absent key hit');

      // The same process looking a source up again: key file read, source text from the store's cache.
      warmStore.lookupSource(RUN_ID, key);
      t = performance.now();
      warmStore.lookupSource(RUN_ID, key);
      const dWarm = performance.now() - t;
      if (j >= 50) {
        hit.push(dHit);
        miss.push(dMiss);
        warm.push(dWarm);
      }
    }
    return { n, seedMs, hit: summarize(hit), miss: summarize(miss), warmHit: summarize(warm) };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export function sourceLookup(): { rows: Row[]; notes: string[] } {
  const parent = scratchParent();
  const small = measure(parent.dir, 100);
  const large = measure(parent.dir, 10_000);
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
  ];
  const notes = [
    `Duplicate lookup (\`RunStore.lookupSource\`, what fetch_source asks before fetching): ${SAMPLES} lookups of random stored keys and ${SAMPLES} of absent keys, each on a fresh store so nothing is cached (key file and, on a hit, the source file are read and parsed); stores seeded with \`addSourceLocked\` on ${parent.label} with ${PAGE.toLocaleString('en-US')}-character pages.`,
    '',
    '| stored sources | seeding | hit p50 / p99 | miss p50 / p99 | hit again in the same process p50 / p99 |',
    '|---|---|---|---|---|',
    ...[small, large].map(
      (m) => `| ${m.n.toLocaleString('en-US')} | ${(m.seedMs / 1000).toFixed(1)} s | ${ms(m.hit.p50)} / ${ms(m.hit.p99)} | ${ms(m.miss.p50)} / ${ms(m.miss.p99)} | ${ms(m.warmHit.p50)} / ${ms(m.warmHit.p99)} |`,
    ),
  ];
  return { rows, notes };
}
