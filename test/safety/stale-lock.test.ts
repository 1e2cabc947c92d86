// SPEC 7: "A lock left by a killed process is taken over promptly", and safely: parallel processes never
// lose each other's updates. A child takes a run's lock and is SIGKILLed holding it; the lock folder's
// mtime is then set an hour ahead, so that no age-based rule can ever call it stale: the only way
// through is seeing that its holder is gone. Two processes then write to the run at once, both past the
// dead lock. And the other side: a live holder's lock is never taken, however long the wait.
// (How long the first write waits after a kill is a benchmark figure: npm run bench, stale-lock.)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Harness } from '../helpers/mcp.js';
import { sandbox } from '../helpers/safety-fs.js';
import { childBundle, removeChildBundle, spawnChild, type Child } from '../helpers/safety-spawn.js';

let h: Harness;

async function newRun(question: string): Promise<string> {
  const r = await h.ok('start_run', { question, depth: 'quick', brief: { threads: [{ name: 'Only', sub_questions: [{ id: 'SQ-1', question: 'What?' }], subjects: [] }] } });
  return r.run_id as string;
}

async function holder(runId: string): Promise<Child> {
  const c = await spawnChild({ mode: 'hold', root: h.root, runId });
  await c.waitFor((l) => l.held === true, 30_000);
  expect(fs.existsSync(path.join(h.root, runId, '.lock'))).toBe(true);
  return c;
}

const writes = (c: Child) => c.lines.filter((l) => typeof l.url === 'string') as { url: string; id?: string; t1: number }[];

beforeAll(async () => {
  await childBundle();
  h = await connect({ root: sandbox('dr-stale-').root });
}, 60_000);

afterAll(async () => {
  await h?.close();
  removeChildBundle();
});

describe('a lock left by a killed process', () => {
  it('is taken over by two waiting processes at once, one at a time, with no update lost', async () => {
    const runId = await newRun('Is a dead holder survivable?');
    const dead = await holder(runId);
    dead.proc.kill('SIGKILL');
    expect((await dead.exited).signal).toBe('SIGKILL');
    const lock = path.join(h.root, runId, '.lock');
    const ahead = new Date(Date.now() + 3_600_000);
    fs.utimesSync(lock, ahead, ahead);

    const urls = (p: string) => Array.from({ length: 15 }, (_, i) => `https://example.org/${p}/${i}`);
    const shared = Array.from({ length: 5 }, (_, i) => `https://example.org/shared/${i}`);
    const a = await spawnChild({ mode: 'sources', root: h.root, runId, via: 'store', urls: [...shared, ...urls('a')] });
    const b = await spawnChild({ mode: 'sources', root: h.root, runId, via: 'store', urls: [...urls('b'), ...shared.slice().reverse()] });
    await Promise.all([a, b].map((c) => c.waitFor((l) => l.ready === true, 30_000)));
    for (const c of [a, b]) c.proc.stdin.write('go\n');
    // Without the takeover both would wait out the 2-minute lock limit: the test's timeout fails first.
    await Promise.all([a, b].map((c) => c.waitFor((l) => l.done === true, 45_000)));
    await Promise.all([a.exited, b.exited]);

    const results = [...writes(a), ...writes(b)];
    expect(results).toHaveLength(40);
    expect(results.filter((r) => !r.id)).toEqual([]);
    const byUrl = new Map<string, Set<string>>();
    for (const r of results) byUrl.set(r.url, (byUrl.get(r.url) ?? new Set()).add(r.id as string));
    expect([...byUrl].filter(([, ids]) => ids.size > 1), 'one URL got two ids').toEqual([]);
    const ids = [...byUrl.values()].map((s) => [...s][0]);
    expect(new Set(ids).size, 'an id was handed out twice').toBe(35);
    const stored = fs.readdirSync(path.join(h.root, runId, 'sources')).filter((n) => /^S\d+\.md$/.test(n));
    expect(stored.sort()).toEqual(Array.from({ length: 35 }, (_, i) => `S${i + 1}.md`).sort());
    // Nothing of the takeover is left behind.
    expect(fs.readdirSync(path.join(h.root, runId)).filter((n) => n.startsWith('.lock'))).toEqual([]);
  }, 60_000);

  it('a live holder keeps its lock: a waiting process writes only after it releases', async () => {
    const runId = await newRun('Is a live holder respected?');
    const live = await holder(runId);
    const w = await spawnChild({ mode: 'sources', root: h.root, runId, via: 'store', urls: ['https://example.org/after/1'], workers: 1 });
    await w.waitFor((l) => l.ready === true, 30_000);
    w.proc.stdin.write('go\n');
    // Well past the time a dead holder's lock is taken over in: the waiter must still be waiting.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(writes(w)).toEqual([]);
    live.proc.stdin.write('release\n');
    const released = (await live.waitFor((l) => typeof l.releasing === 'number')).releasing as number;
    await w.waitFor((l) => l.done === true, 30_000);
    expect(writes(w)[0]?.t1).toBeGreaterThanOrEqual(released);
    await Promise.all([live.exited, w.exited]);
  }, 60_000);
});
