// Concurrency (SPEC 7: "Parallel threads never lose each other's updates, and neither do two server
// processes on the same run: source-id allocation and any shared index take a cross-process lock, and
// no source id is ever handed out twice").
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import matter from 'gray-matter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Harness } from '../helpers/mcp.js';
import { seedSource } from '../helpers/fixtures.js';
import { checkArtifacts, sandbox } from '../helpers/safety-fs.js';
import { childBundle, removeChildBundle, spawnChild, type Child } from '../helpers/safety-spawn.js';
import { slug } from '../../src/engine/slug.js';
import { microReportName } from '../../src/reports/micro-report.js';
import { canonicalKey } from '../../src/engine/canonical-url.js';

const fm = (file: string) => matter(fs.readFileSync(file, 'utf8'), { delimiters: '---' } as never).data;
const sq = (name: string) => [{ id: 'SQ-1', question: `What did ${name} find?` }];

async function newRun(h: Harness, question: string, names: string[]) {
  const r = await h.ok('start_run', {
    question,
    depth: 'deep',
    brief: { threads: names.map((name) => ({ name, sub_questions: sq(name), subjects: [] })) },
  });
  return r.run_id as string;
}

/** Every stored source of a run: id → frontmatter url. */
function storedSources(root: string, runId: string): Map<string, string> {
  const dir = path.join(root, runId, 'sources');
  const out = new Map<string, string>();
  for (const n of fs.readdirSync(dir)) {
    const m = /^(S\d+)\.md$/.exec(n);
    if (m) out.set(m[1] as string, String(fm(path.join(dir, n)).url));
  }
  return out;
}

/** Both children get "go" at the same instant, after both are ready. */
async function runTogether(children: Child[]) {
  await Promise.all(children.map((c) => c.waitFor((l) => l.ready === true, 30_000)));
  for (const c of children) c.proc.stdin.write('go\n');
  await Promise.all(children.map((c) => c.waitFor((l) => l.done === true, 60_000)));
  await Promise.all(children.map((c) => c.exited));
}

/**
 * The two processes really worked at the same time: their activity windows (first add started to last
 * add finished) overlap by a good part of the shorter one.
 */
function expectOverlap(a: Child, b: Child) {
  const win = (c: Child) => {
    const ls = c.lines.filter((l) => typeof l.t0 === 'number');
    return [Math.min(...ls.map((l) => l.t0)), Math.max(...ls.map((l) => l.t1))] as const;
  };
  const [a0, a1] = win(a);
  const [b0, b1] = win(b);
  const overlap = Math.min(a1, b1) - Math.max(a0, b0);
  expect(overlap, `windows A ${a0}–${a1}, B ${b0}–${b1}`).toBeGreaterThan(0.3 * Math.min(a1 - a0, b1 - b0));
}

/** Two processes' results: no id given to two URLs, each id's file holds its URL, repeats dedupe. */
function checkAllocations(root: string, runId: string, results: { url: string; id?: string; error?: string }[], distinctUrls: string[]) {
  const errors = results.filter((r) => r.error || !r.id);
  expect(errors, 'every add succeeded').toEqual([]);
  const byId = new Map<string, Set<string>>();
  const byUrl = new Map<string, Set<string>>();
  for (const r of results) {
    byId.set(r.id as string, (byId.get(r.id as string) ?? new Set()).add(r.url));
    byUrl.set(r.url, (byUrl.get(r.url) ?? new Set()).add(r.id as string));
  }
  const shared = [...byId].filter(([, urls]) => urls.size > 1).map(([id, urls]) => `${id} ← ${[...urls].join(', ')}`);
  expect(shared, 'a source id was handed out for two URLs').toEqual([]);
  const split = [...byUrl].filter(([, ids]) => ids.size > 1).map(([url, ids]) => `${url} → ${[...ids].join(', ')}`);
  expect(split, 'one URL got two ids (the canonical-key index lost an update)').toEqual([]);
  const stored = storedSources(root, runId);
  expect(stored.size).toBe(distinctUrls.length);
  for (const [id, urls] of byId) expect(stored.get(id), `file of ${id}`).toBe([...urls][0]);
  // Without a crash, ids are dense: S1 … Sn, and the counter sits just past them.
  const nums = [...stored.keys()].map((k) => Number(k.slice(1))).sort((a, b) => a - b);
  expect(nums).toEqual(distinctUrls.map((_, i) => i + 1));
  const counter = JSON.parse(fs.readFileSync(path.join(root, runId, 'state', 'source-counter.json'), 'utf8'));
  expect(counter.next).toBe(distinctUrls.length + 1);
}

describe('20 threads of one run recording concurrently through one client', () => {
  const ROUNDS = 3;
  let h: Harness;
  let runId: string;
  const brief = Array.from({ length: 6 }, (_, i) => `Brief thread ${i + 1}: A/B`);
  const critics = Array.from({ length: 14 }, (_, i) => `Critic thread ${i + 1}`);
  const all = [...brief, ...critics];
  const sourceUrls = Array.from({ length: 30 }, (_, i) => `https://example.org/parallel/${i}`);
  const critiques = 5;
  let sourceIds: string[] = [];
  const driftReplies: { thread: string; url: string; drift: boolean }[] = [];

  beforeAll(async () => {
    h = await connect({ root: sandbox().root });
    runId = await newRun(h, 'Do parallel threads lose updates?', brief);
    const errors: string[] = [];
    const check = (what: string, r: { isError?: boolean; content: unknown[] }) => {
      if (r.isError) errors.push(`${what}: ${JSON.stringify(r.content)}`);
    };
    const threadWork = async (thread: string, i: number) => {
      const critic = critics.includes(thread);
      check(`start_thread ${thread}`, await h.call('start_thread', { run_id: runId, thread, ...(critic ? { definition: { sub_questions: sq(thread), subjects: [] } } : {}) }));
      for (let r = 1; r <= ROUNDS; r++) {
        const [round, drift] = await Promise.all([
          h.call('record_round', {
            run_id: runId,
            thread,
            query: `${thread} query ${r} ${'z'.repeat(r)}`,
            urls_visited: [`https://example.org/t${i}/r${r}`],
            facts: [],
            summary: `${thread} round ${r}.`,
          }),
          h.call('check_drift', { run_id: runId, thread, url: `https://example.org/t${i}/d${r}`, text: `${thread} found something` }),
        ]);
        check(`record_round ${thread} ${r}`, round);
        check(`check_drift ${thread} ${r}`, drift);
        if (!drift.isError) driftReplies.push({ thread, url: `https://example.org/t${i}/d${r}`, drift: (drift.structuredContent as { drift: boolean }).drift });
      }
    };
    const [, ids] = await Promise.all([
      Promise.all(all.map((t, i) => threadWork(t, i))),
      Promise.all(sourceUrls.map((u) => seedSource(h.root, runId, u, `# ${u}\n\nBody.\n`, u).then((s) => s.id))),
      Promise.all(
        Array.from({ length: critiques }, (_, i) =>
          h.call('record_critique', { run_id: runId, gaps: [{ kind: 'modality', description: `d${i}`, query: `q${i}`, priority: i, material: false }], signoff: false }).then((r) => check(`record_critique ${i}`, r)),
        ),
      ),
    ]);
    sourceIds = ids;
    expect(errors).toEqual([]);
  }, 120_000);
  afterAll(async () => h?.close());

  it('run.json lists every thread (critic threads added concurrently are all kept)', () => {
    const run = JSON.parse(fs.readFileSync(path.join(h.root, runId, 'state', 'run.json'), 'utf8'));
    expect(run.threads.map((t: { name: string }) => t.name).sort()).toEqual([...all].sort());
    expect(run.critique_rounds).toHaveLength(critiques);
    expect(run.critic.rounds).toBe(critiques);
  });

  it('every thread state has all its rounds, in order, and every micro-report exists', () => {
    for (const thread of all) {
      const state = JSON.parse(fs.readFileSync(path.join(h.root, runId, 'state', `thread-${slug(thread)}.json`), 'utf8'));
      expect(state.rounds.map((r: { round: number }) => r.round), thread).toEqual([1, 2, 3]);
      expect(state.rounds.map((r: { summary: string }) => r.summary)).toEqual([1, 2, 3].map((r) => `${thread} round ${r}.`));
      for (let r = 1; r <= ROUNDS; r++) {
        const file = path.join(h.root, runId, microReportName(slug(thread), r));
        expect(fs.existsSync(file), `${thread} round ${r}`).toBe(true);
        expect(fm(file)).toMatchObject({ thread, round: r });
      }
    }
    const reports = fs.readdirSync(path.join(h.root, runId)).filter((f) => f.startsWith('micro-report-'));
    expect(reports).toHaveLength(all.length * ROUNDS);
  });

  it('drift checks interleaved with rounds on the same thread are not lost (every drifted key is kept)', () => {
    expect(driftReplies).toHaveLength(all.length * ROUNDS);
    for (const thread of all) {
      const state = JSON.parse(fs.readFileSync(path.join(h.root, runId, 'state', `thread-${slug(thread)}.json`), 'utf8'));
      for (const d of driftReplies.filter((x) => x.thread === thread)) {
        expect(state.drifted_keys.includes(canonicalKey(d.url)), `${thread}: drift=${d.drift} of ${d.url}`).toBe(d.drift);
      }
    }
  });

  it('the brief lists every critic thread, the critique log every round', () => {
    const briefText = fs.readFileSync(path.join(h.root, runId, 'brief.md'), 'utf8');
    for (const c of critics) expect(briefText).toContain(c);
    const critique = fs.readFileSync(path.join(h.root, runId, 'critique.md'), 'utf8');
    for (let i = 0; i < critiques; i++) expect(critique).toContain(`q${i}`);
  });

  it('sources added in parallel got distinct ids, each file holding its own URL', () => {
    expect(new Set(sourceIds).size).toBe(sourceUrls.length);
    const stored = storedSources(h.root, runId);
    sourceUrls.forEach((u, i) => expect(stored.get(sourceIds[i] as string)).toBe(u));
    expect(checkArtifacts(h.root).problems).toEqual([]);
  });
});

describe('start_run raced against itself', () => {
  it('ten concurrent start_run calls of one new question create one run; the others resume it', async () => {
    const h = await connect({ root: sandbox().root });
    try {
      const args = { question: 'Racing start_run?', depth: 'quick', brief: { threads: [{ name: 'Only', sub_questions: sq('Only'), subjects: [] }] } };
      const replies = await Promise.all(Array.from({ length: 10 }, () => h.ok('start_run', args)));
      expect(new Set(replies.map((r) => r.run_id)).size).toBe(1);
      expect(replies.filter((r) => r.resumed === false)).toHaveLength(1);
      expect(fs.readdirSync(h.root)).toEqual([replies[0]!.run_id]);
    } finally {
      await h.close();
    }
  });

  it('concurrent start_run calls with new: true each get a fresh run of their own', async () => {
    const h = await connect({ root: sandbox().root });
    try {
      const args = { question: 'Racing fresh runs?', depth: 'quick', brief: { threads: [{ name: 'Only', sub_questions: sq('Only'), subjects: [] }] } };
      await h.ok('start_run', args);
      const replies = await Promise.all(Array.from({ length: 4 }, () => h.ok('start_run', { ...args, new: true })));
      expect(replies.map((r) => r.resumed), JSON.stringify(replies.map((r) => r.run_id))).toEqual([false, false, false, false]);
      expect(new Set(replies.map((r) => r.run_id)).size).toBe(4);
    } finally {
      await h.close();
    }
  });
});

describe('two server processes on one run', () => {
  let h: Harness;
  // Started first and checked last, so its waiting overlaps the other tests of this block.
  let staleLock: Promise<{ round: number; waited: number }>;
  beforeAll(async () => {
    await childBundle();
    h = await connect({ root: sandbox().root });
    const runId = await newRun(h, 'Is a dead lock holder survivable?', ['Only']);
    await h.ok('start_thread', { run_id: runId, thread: 'Only' });
    // What a holder SIGKILLed between making the lock folder and writing its owner record leaves: a bare
    // folder with a fresh mtime (a dead holder with a record: stale-lock.test.ts).
    fs.mkdirSync(path.join(h.root, runId, '.lock'));
    const started = Date.now();
    staleLock = h
      .ok('record_round', { run_id: runId, thread: 'Only', query: 'q after a dead holder', urls_visited: [], facts: [], summary: 's' })
      .then((r) => ({ round: r.round as number, waited: Date.now() - started }));
    staleLock.catch(() => undefined);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    removeChildBundle();
  });

  it('store.addSource from two processes never hands out one id twice; a URL added by both gets one id', async () => {
    const runId = await newRun(h, 'Two processes adding sources?', ['Only']);
    const mine = (p: string) => Array.from({ length: 40 }, (_, i) => `https://example.org/${p}/${i}`);
    const shared = Array.from({ length: 10 }, (_, i) => `https://example.org/shared/${i}`);
    const a = await spawnChild({ mode: 'sources', root: h.root, runId, via: 'store', urls: [...shared, ...mine('a')] });
    const b = await spawnChild({ mode: 'sources', root: h.root, runId, via: 'store', urls: [...mine('b'), ...shared.slice().reverse()] });
    await runTogether([a, b]);
    const results = [...a.lines, ...b.lines].filter((l) => l.url) as { url: string; id?: string; duplicate?: boolean }[];
    expect(results).toHaveLength(100);
    checkAllocations(h.root, runId, results, [...shared, ...mine('a'), ...mine('b')]);
    for (const u of shared) expect(results.filter((r) => r.url === u && r.duplicate === false), u).toHaveLength(1);
    expectOverlap(a, b);
  }, 90_000);

  it('fetch_source from two processes against a local server (allow-listed) never hands out one id twice', async () => {
    const server = http.createServer((req, res) => {
      const p = req.url ?? '/';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html><head><title>Page ${p}</title></head><body><article><h1>Page ${p}</h1>` +
          `<p>The four-day week trial at ${p} kept output steady in most workplaces, the report says.</p>` +
          `<p>${'Further detail about the trial and its measured output. '.repeat(20)}</p></article></body></html>`,
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      const runId = await newRun(h, 'Two processes fetching sources?', ['Only']);
      const base = `http://127.0.0.1:${port}`;
      const mine = (p: string) => Array.from({ length: 12 }, (_, i) => `${base}/${p}/${i}`);
      const shared = Array.from({ length: 6 }, (_, i) => `${base}/shared/${i}`);
      const env = { DEEP_RESEARCH_ALLOW_HOSTS: `127.0.0.1:${port}` };
      const a = await spawnChild({ mode: 'sources', root: h.root, runId, via: 'fetch', env, urls: [...shared, ...mine('a')] });
      const b = await spawnChild({ mode: 'sources', root: h.root, runId, via: 'fetch', env, urls: [...mine('b'), ...shared.slice().reverse()] });
      await runTogether([a, b]);
      const results = [...a.lines, ...b.lines].filter((l) => l.url) as { url: string; id?: string; error?: string }[];
      expect(results).toHaveLength(36);
      checkAllocations(h.root, runId, results, [...shared, ...mine('a'), ...mine('b')]);
      expectOverlap(a, b);
    } finally {
      server.close();
    }
  }, 90_000);

  it('two processes opening and recording threads in one run lose none of each other\'s updates', async () => {
    const runId = await newRun(h, 'Two processes recording rounds?', ['Only']);
    const names = (p: string) => Array.from({ length: 5 }, (_, i) => `Process ${p} thread ${i}`);
    const a = await spawnChild({ mode: 'rounds', root: h.root, runId, threads: names('A'), rounds: 3 });
    const b = await spawnChild({ mode: 'rounds', root: h.root, runId, threads: names('B'), rounds: 3 });
    await runTogether([a, b]);
    const errors = [...a.lines, ...b.lines].filter((l) => l.error);
    expect(errors).toEqual([]);
    const run = JSON.parse(fs.readFileSync(path.join(h.root, runId, 'state', 'run.json'), 'utf8'));
    expect(run.threads.map((t: { name: string }) => t.name).sort()).toEqual(['Only', ...names('A'), ...names('B')].sort());
    for (const t of [...names('A'), ...names('B')]) {
      const st = await h.ok('thread_status', { run_id: runId, thread: t });
      expect(st.rounds_completed, t).toBe(3);
    }
    const briefText = fs.readFileSync(path.join(h.root, runId, 'brief.md'), 'utf8');
    for (const t of [...names('A'), ...names('B')]) expect(briefText).toContain(t);
  }, 90_000);

  it('a bare lock folder left behind by a killed process is taken over once stale, so the run is never wedged', async () => {
    const { round, waited } = await staleLock;
    expect(round).toBe(1);
    expect(waited).toBeLessThan(25_000);
    console.log(`[concurrency] stale lock of a dead holder taken over after ${waited} ms`);
  }, 40_000);

});
