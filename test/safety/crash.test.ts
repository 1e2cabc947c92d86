// Crash safety (SPEC 7: "writes are atomic (temp file, fsync, rename), so a kill at any instant leaves
// the old or the new file, never a torn one"). A child process running a real server records rounds,
// stores sources, completes threads, opens critic threads and records critiques in a loop over one
// artifacts root; it is SIGKILLed at a random instant, ≥ 50 times. After every kill every file parses,
// stored sources match their sha256, no id was handed out twice, and the run resumes.
import * as fs from 'node:fs';
import * as path from 'node:path';
import matter from 'gray-matter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../helpers/mcp.js';
import { checkArtifacts, listFiles, sandbox, TEMP_FILE, type Sandbox } from '../helpers/safety-fs.js';
import { childBundle, removeChildBundle, spawnChild, type Child } from '../helpers/safety-spawn.js';
import { microReportName } from '../../src/reports/micro-report.js';

const SEED = Number(process.env.SAFETY_SEED ?? 20260101);
const TRIALS = Number(process.env.SAFETY_CRASH_TRIALS ?? 50);

function mulberry32(a: number) {
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Invariants that must hold between any two instants, beyond "every file parses". */
function checkRunInvariants(root: string): string[] {
  const problems: string[] = [];
  for (const runId of fs.readdirSync(root)) {
    const runDir = path.join(root, runId);
    if (!fs.statSync(runDir).isDirectory()) continue;
    const stateDir = path.join(runDir, 'state');
    if (!fs.existsSync(path.join(stateDir, 'run.json'))) continue;
    const run = JSON.parse(fs.readFileSync(path.join(stateDir, 'run.json'), 'utf8'));
    const slugs = run.threads.map((t: { slug: string }) => t.slug);
    if (new Set(slugs).size !== slugs.length) problems.push(`${runId}: two threads share a slug`);
    // Source ids: the counter is always past every stored id (an id is never handed out twice).
    const ids = fs.existsSync(path.join(runDir, 'sources'))
      ? fs.readdirSync(path.join(runDir, 'sources')).filter((n) => !TEMP_FILE.test(n)).map((n) => Number(/^S(\d+)\.md$/.exec(n)?.[1] ?? NaN))
      : [];
    if (ids.some((n) => !Number.isInteger(n))) problems.push(`${runId}: a non-source file in sources/`);
    const counterFile = path.join(stateDir, 'source-counter.json');
    const next = fs.existsSync(counterFile) ? JSON.parse(fs.readFileSync(counterFile, 'utf8')).next : 1;
    const max = ids.length ? Math.max(...ids) : 0;
    if (!(next > max)) problems.push(`${runId}: source counter ${next} is not past stored id S${max}: the id would be handed out twice`);
    // Every key file names a stored source with that canonical key.
    const keysDir = path.join(stateDir, 'source-keys');
    for (const k of fs.existsSync(keysDir) ? fs.readdirSync(keysDir).filter((n) => !TEMP_FILE.test(n)) : []) {
      const entry = JSON.parse(fs.readFileSync(path.join(keysDir, k), 'utf8'));
      const src = path.join(runDir, 'sources', `${entry.id}.md`);
      if (!fs.existsSync(src)) {
        problems.push(`${runId}: key ${entry.key} points at missing ${entry.id}`);
        continue;
      }
      const fm = matter(fs.readFileSync(src, 'utf8'), { delimiters: '---' } as never);
      if (fm.data.canonical_key !== entry.key) problems.push(`${runId}: key ${entry.key} points at ${entry.id} holding ${fm.data.canonical_key}`);
    }
    // A recorded round always has its micro-report (the report is written before the state).
    for (const t of run.threads as { slug: string; name: string }[]) {
      const tf = path.join(stateDir, `thread-${t.slug}.json`);
      if (!fs.existsSync(tf)) continue;
      const state = JSON.parse(fs.readFileSync(tf, 'utf8'));
      for (const r of state.rounds as { round: number }[]) {
        if (!fs.existsSync(path.join(runDir, microReportName(t.slug, r.round)))) problems.push(`${runId}: round ${r.round} of ${t.name} has no micro-report`);
      }
      if (state.completed && !fs.existsSync(path.join(runDir, `thread-completion-${t.slug}.md`))) {
        problems.push(`${runId}: ${t.name} is completed in state but has no completion report`);
      }
    }
  }
  return problems;
}

describe(`SIGKILL at random instants (seed ${SEED}, ${TRIALS} trials)`, () => {
  // Half the trials on the real disk (kills land mostly inside fsync, while a temp file exists), half
  // on tmpfs when there is one (fsync is free, so more operations, and more kinds of instant, per kill).
  const sandboxes: Sandbox[] = [];
  const log: { trial: number; root: number; delay: number; ops: number; temps: number; files: number }[] = [];
  const failures: string[] = [];
  const question = 'Does a four-day week keep output steady?';

  beforeAll(async () => {
    await childBundle();
    sandboxes.push(sandbox('dr-crash-'), sandbox('dr-crash-', { memory: true }));
    console.log(`[crash] seed ${SEED} (set SAFETY_SEED to replay), ${TRIALS} trials, roots ${sandboxes.map((s) => s.root).join(' ')}`);
  }, 60_000);

  afterAll(() => {
    const ops = log.reduce((n, l) => n + l.ops, 0);
    console.log(
      `[crash] ${log.length} kills after ${Math.min(...log.map((l) => l.delay))}–${Math.max(...log.map((l) => l.delay))} ms, ` +
        `${ops} operations completed in between, ${log.filter((l) => l.ops > 1).length} kills landed mid-loop`,
    );
    for (const sb of sandboxes) if (sb.dir.startsWith('/dev/shm/')) fs.rmSync(sb.dir, { recursive: true, force: true });
    removeChildBundle();
  });

  it('leaves every file whole after each kill', async () => {
    const rnd = mulberry32(SEED);
    const plan = Array.from({ length: TRIALS }, (_, trial) => ({
      trial,
      sb: sandboxes[trial % sandboxes.length] as Sandbox,
      childSeed: Math.floor(rnd() * 2 ** 31),
      delay: 20 + Math.floor(rnd() * 181),
      // One kill in four is timed from "go", so it can land in start-up (start_run, start_thread);
      // the rest from the first finished operation, so they land inside the write loop.
      from: rnd() < 0.25 ? ('go' as const) : ('first-op' as const),
    }));
    const spawnFor = (p: (typeof plan)[number]) => spawnChild({ mode: 'crash', root: p.sb.root, seed: p.childSeed, question });
    // The next child loads (≈ 0.3 s of start-up) while the current one works; it touches nothing
    // on disk until it is told to go.
    const seen = new Map<Sandbox, Map<string, string>>();
    const live = new Set<Promise<Child>>();
    const spawnTracked = (p: (typeof plan)[number]) => {
      const c = spawnFor(p);
      live.add(c);
      return c;
    };
    try {
      let next = spawnTracked(plan[0]!);
      for (const p of plan) {
        const current = next;
        const child = await current;
        await child.waitFor((l) => l.ready === true, 30_000);
        if (p.trial + 1 < plan.length) next = spawnTracked(plan[p.trial + 1]!);
        const where = `trial ${p.trial} (seed ${SEED}, child seed ${p.childSeed}, ${p.sb.dir.startsWith('/dev/shm/') ? 'tmpfs' : 'disk'}, killed ${p.delay} ms after ${p.from})`;
        child.proc.stdin.write('go\n');
        if (p.from === 'first-op') await child.waitFor((l) => l.op !== undefined || l.fatal !== undefined, 30_000);
        await new Promise((r) => setTimeout(r, p.delay));
        child.proc.kill('SIGKILL');
        const exit = await child.exited;
        live.delete(current);
        const fatal = child.lines.find((l) => l.fatal);
        expect(fatal, `${where}: the child failed before the kill: ${fatal?.fatal}`).toBeUndefined();
        expect(exit.signal, `${where}: child exited on its own: ${child.stderr().slice(-1000)}`).toBe('SIGKILL');
        for (const l of child.lines.filter((x) => x.op && x.ok === false)) failures.push(`${where}: ${l.op} refused: ${l.msg}`);
        // Files unchanged since they last passed are skipped: a kill cannot touch a file it never wrote.
        if (!seen.has(p.sb)) seen.set(p.sb, new Map());
        const { problems, files, temps } = checkArtifacts(p.sb.root, seen.get(p.sb));
        const inv = checkRunInvariants(p.sb.root);
        log.push({ trial: p.trial, root: p.trial % sandboxes.length, delay: p.delay, ops: child.lines.filter((l) => l.op).length, temps: temps.length, files });
        expect(problems, where).toEqual([]);
        expect(inv, where).toEqual([]);
        // A kill inside a locked section leaves the run's lock behind: the next child takes it over
        // (its holder is gone), so nothing is cleared here.
      }
    } finally {
      // A failed trial must not leave children behind.
      for (const c of live) void c.then((x) => x.proc.kill('SIGKILL'));
    }
    // And a full re-read at the end, cache off.
    for (const sb of sandboxes) expect(checkArtifacts(sb.root).problems).toEqual([]);
    // The kills landed while work was going on, not before it began.
    expect(log.filter((l) => l.ops > 1).length).toBeGreaterThan(TRIALS / 2);
  }, 240_000);

  it('never mistakes a leftover temp file for data: each run resumes, every thread answers, a new source gets a fresh id', async () => {
    const { seedSource } = await import('../helpers/fixtures.js');
    for (const sb of sandboxes) {
      const h = await connect({ root: sb.root });
      try {
        const runs = fs.readdirSync(sb.root);
        expect(runs).toHaveLength(1);
        const runId = runs[0] as string;
        const again = await h.ok('start_run', { question, depth: 'deep', brief: { threads: [{ name: 'x', sub_questions: [{ id: 'SQ-1', question: 'q' }], subjects: [] }] } });
        expect(again).toMatchObject({ run_id: runId, resumed: true });
        const run = JSON.parse(fs.readFileSync(path.join(sb.root, runId, 'state', 'run.json'), 'utf8'));
        for (const t of run.threads as { name: string }[]) {
          const r = await h.call('thread_status', { run_id: runId, thread: t.name });
          if (r.isError) expect((r.content[0] as { text: string }).text).toMatch(/has not been started/);
        }
        const v = await h.call('verify_report', { run_id: runId });
        expect(v.isError).toBeFalsy();
        const temps = listFiles(sb.root).filter((f) => TEMP_FILE.test(f));
        // Temp files never carry a data name: dot-files ending in .tmp, skipped by every reader.
        for (const t of temps) expect(path.basename(t)).toMatch(/^\..+\.\d+\.[0-9a-f]+\.tmp$/);
        const ids = fs.existsSync(path.join(sb.root, runId, 'sources')) ? fs.readdirSync(path.join(sb.root, runId, 'sources')).filter((n) => /^S\d+\.md$/.test(n)) : [];
        const s = await seedSource(sb.root, runId, `https://example.org/after-crash/${SEED}`);
        expect(ids).not.toContain(`${s.id}.md`);
        console.log(`[crash] ${sb.root}: ${ids.length} sources, ${run.threads.length} threads, ${temps.length} leftover temp files after the kills`);
      } finally {
        await h.close();
      }
    }
  });

  it('negative control: the checks do catch a torn file, a wrong hash and a reused id', async () => {
    const sb = sandbox('dr-crash-control-', { memory: true });
    try {
      const { seedSource, PAGE } = await import('../helpers/fixtures.js');
      const h = await connect({ root: sb.root });
      const brief = { threads: [{ name: 'T', sub_questions: [{ id: 'SQ-1', question: 'q?' }], subjects: [] }] };
      const runId = (await h.ok('start_run', { question, brief })).run_id as string;
      await seedSource(sb.root, runId, 'https://example.org/control', PAGE(1));
      await h.ok('start_thread', { run_id: runId, thread: 'T' });
      await h.ok('record_round', { run_id: runId, thread: 'T', query: 'q', urls_visited: [], facts: [], summary: 's' });
      await h.close();
      const runDir = path.join(sb.root, runId);
      expect(checkArtifacts(sb.root).problems).toEqual([]);
      expect(checkRunInvariants(sb.root)).toEqual([]);
      const runJson = path.join(runDir, 'state', 'run.json');
      fs.writeFileSync(runJson, fs.readFileSync(runJson, 'utf8').slice(0, 100));
      const src = path.join(runDir, 'sources', 'S1.md');
      fs.writeFileSync(src, fs.readFileSync(src, 'utf8').replace('Output', 'Outpu'));
      const report = fs.readdirSync(runDir).find((f) => f.startsWith('micro-report-')) as string;
      fs.writeFileSync(path.join(runDir, report), fs.readFileSync(path.join(runDir, report), 'utf8').slice(0, 40));
      const problems = checkArtifacts(sb.root).problems.map((p) => p.file).sort();
      expect(problems).toEqual([`${runId}/${report}`, `${runId}/sources/S1.md`, `${runId}/state/run.json`].sort());
      fs.writeFileSync(runJson, JSON.stringify({ threads: [] }));
      fs.writeFileSync(path.join(runDir, 'state', 'source-counter.json'), '{"next":1}');
      expect(checkRunInvariants(sb.root).join('\n')).toMatch(/handed out twice/);
    } finally {
      fs.rmSync(sb.dir, { recursive: true, force: true });
    }
  });

  it('every operation the child attempted between kills was accepted (no spurious refusals)', () => {
    expect(failures).toEqual([]);
  });
});
