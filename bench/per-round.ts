// Per-round cost of record_round at the worst case the tiers allow: round 10 of a deep thread in a run
// of 6 threads and 300 stored sources, rounds of 5 URLs and 3 quote-checked facts. Compute (decideRound,
// micro-report rendering) and IO (lock, reads, atomic writes) are timed apart, then the whole tool call
// in process and over stdio against the bundle. Growth is shown by round 2 vs 10 and 30 vs 300 sources.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { canonicalKey } from '../src/engine/canonical-url.js';
import { decideRound, type RoundContext, type RoundInput, type StoredText } from '../src/engine/round.js';
import type { ThreadState } from '../src/engine/thread-state.js';
import { microReportName, renderMicroReport } from '../src/reports/micro-report.js';
import { RunStore } from '../src/store/run-store.js';
import { inProcess, type InProcess } from './in-process.js';
import { goalRow, type Section } from './report.js';
import { buildRun, page, PAGE_CHARS, roundInput, ROUNDS, threadName, type Built } from './round-scenario.js';
import { sourceLookup } from './source-lookup.js';
import { int, median, ms, ratio, sampleAlternating, sampleSyncCpuAlternating, summarize, type Summary } from './stats.js';
import { childEnv, StdioClient } from './stdio-client.js';
import { ourServer } from './targets.js';

const COMPUTE_RUNS = 300;
const CALL_RUNS = Number(process.env.BENCH_ROUND_RUNS ?? 200);
/** The IO breakdown is context for the call figures, not a goal: fewer runs keep the bench short. */
const IO_RUNS = Math.ceil(CALL_RUNS / 2);
const TIMESTAMP = '2026-01-01T00:00:00.000Z';

type Json = Record<string, unknown>;

interface Scenario {
  sources: number;
  root: string;
  server: InProcess;
  built: Built;
  client?: StdioClient;
  /** The stdio server's own duration of each record_round it logged, in call order. */
  serverMs: number[];
  /** Which case each stdio call belonged to, in call order. */
  stdioCalls: Case[];
}

interface Case {
  label: string;
  sc: Scenario;
  round: number;
}

const argsOf = (c: Case): Json => ({ run_id: c.sc.built.runId, thread: threadName(0), ...roundInput(0, c.round, c.sc.sources) });
const restore = (c: Case): void => fs.writeFileSync(c.sc.built.stateFile, c.sc.built.before[c.round - 1] as string);

function expectRound(reply: Json, round: number): void {
  const sc = reply.structuredContent as { round?: number } | undefined;
  if (reply.isError || sc?.round !== round) throw new Error(`record_round replay failed: ${JSON.stringify(reply).slice(0, 400)}`);
}

/** CPU time of this process is what the computation costs; wall time adds waiting on a busy machine. */
interface Timed {
  cpu: Summary;
  wall: Summary;
}

interface Compute {
  decide: Timed;
  render: Timed;
  all: Timed;
}

const timedOf = (x: { wall: number[]; cpu: number[] }): Timed => ({ cpu: summarize(x.cpu), wall: summarize(x.wall) });

/** The three computations of one case, with every input in memory, so no IO is inside the span. */
function computeSteps(prev: ThreadState, input: RoundInput, texts: Map<string, StoredText>, round: number): (() => unknown)[] {
  const ctx: RoundContext = { grounding: true, timestamp: TIMESTAMP, canonicalKey, storedText: (k) => texts.get(k) };
  const { state, decision } = decideRound(prev, input, ctx);
  const ungrounded = decision.warnings.filter((w) => /not grounded/.test(w));
  if (ungrounded.length > 0) throw new Error(`compute scenario is wrong, facts not grounded: ${ungrounded.join('; ')}`);
  return [
    () => decideRound(prev, input, ctx),
    () => renderMicroReport(state, round),
    () => renderMicroReport(decideRound(prev, input, ctx).state, round),
  ];
}

function caseSteps(c: Case): (() => unknown)[] {
  const store = new RunStore(c.sc.root);
  const prev = JSON.parse(c.sc.built.before[c.round - 1] as string) as ThreadState;
  const input = roundInput(0, c.round, c.sc.sources);
  const texts = new Map<string, StoredText>();
  for (const url of input.urls_visited) {
    const key = canonicalKey(url);
    const s = store.lookupSource(c.sc.built.runId, key);
    if (s) texts.set(key, { source_id: s.id, title: s.title, markdown: s.markdown });
  }
  return computeSteps(prev, input, texts, c.round);
}

/** The same round-10 computation with every fact's page `chars` long: how grounding scales with page size. */
function pageSteps(c: Case, chars: number): (() => unknown)[] {
  const prev = JSON.parse(c.sc.built.before[c.round - 1] as string) as ThreadState;
  const input = roundInput(0, c.round, c.sc.sources);
  const texts = new Map<string, StoredText>();
  input.urls_visited.forEach((url, k) => {
    const i = Number(/report-(\d+)/.exec(url)?.[1]);
    texts.set(canonicalKey(url), { source_id: `S${k + 1}`, title: 't', markdown: page(i, chars) });
  });
  return computeSteps(prev, input, texts, c.round);
}

/** Every case's computations sampled in one rotation, so a busy spell of the machine falls on all alike. */
function computeAll(stepSets: (() => unknown)[][]): Compute[] {
  const flat = stepSets.flat();
  const samples = sampleSyncCpuAlternating(flat, COMPUTE_RUNS, 50);
  return stepSets.map((_, i) => ({
    decide: timedOf(samples[i * 3] as { wall: number[]; cpu: number[] }),
    render: timedOf(samples[i * 3 + 1] as { wall: number[]; cpu: number[] }),
    all: timedOf(samples[i * 3 + 2] as { wall: number[]; cpu: number[] }),
  }));
}

/**
 * The IO record_round does, in its order, through the store: load run; under the run lock load run and
 * thread, look up the facts' sources, write the micro-report, write the state. `warm` reuses one store
 * (source texts cached, as in a long-lived server); otherwise each call gets a fresh store.
 */
function ioStep(c: Case, warm: boolean): { setup: () => void; run: () => Promise<void> } {
  const prev = JSON.parse(c.sc.built.before[c.round - 1] as string) as ThreadState;
  const input = roundInput(0, c.round, c.sc.sources);
  const { state } = decideRound(prev, input, { grounding: false, timestamp: TIMESTAMP, canonicalKey, storedText: () => undefined });
  const report = renderMicroReport(state, c.round);
  const factKeys = input.facts.map((f) => canonicalKey(f.url));
  const runId = c.sc.built.runId;
  const shared = new RunStore(c.sc.root);
  let store = shared;
  return {
    setup: () => {
      restore(c);
      store = warm ? shared : new RunStore(c.sc.root);
    },
    run: async () => {
      store.loadRun(runId);
      await store.lock(runId, () => {
        store.loadRun(runId);
        store.loadThread(runId, prev.slug);
        for (const k of factKeys) if (!store.lookupSource(runId, k)) throw new Error(`source for ${k} missing`);
        writeRound(store, runId, microReportName(prev.slug, c.round), report, state);
      });
    },
  };
}

/** The store's write API as record_round uses it: one batched commit where the store has one. */
interface Writes {
  commit?: (runId: string, w: { artifacts?: { name: string; content: string }[]; threads?: ThreadState[] }) => unknown;
  writeArtifact?: (runId: string, name: string, content: string) => unknown;
  saveThread: (runId: string, state: ThreadState) => void;
}

function writeRound(store: RunStore, runId: string, name: string, report: string, state: ThreadState): void {
  const w = store as unknown as Writes;
  if (typeof w.commit === 'function') {
    w.commit.call(store, runId, { artifacts: [{ name, content: report }], threads: [state] });
  } else if (typeof w.writeArtifact === 'function') {
    w.writeArtifact.call(store, runId, name, report);
    w.saveThread.call(store, runId, state);
  } else {
    throw new Error('RunStore has neither commit nor writeArtifact: update bench/per-round.ts to the store API');
  }
}

async function alternating(cases: Case[], step: (c: Case) => { setup: () => void; run: () => Promise<void> }, runs = CALL_RUNS): Promise<Summary[]> {
  const steps = new Map(cases.map((c) => [c, step(c)]));
  const samples = await sampleAlternating(
    cases,
    runs,
    20,
    (c) => steps.get(c)?.setup(),
    (c) => steps.get(c)?.run(),
  );
  for (const c of cases) restore(c);
  return samples.map(summarize);
}

const viaInProcess = (c: Case) => {
  const a = argsOf(c);
  return { setup: () => restore(c), run: async () => expectRound(await c.sc.server.callTool('record_round', a), c.round) };
};

const viaStdio = (c: Case) => {
  const a = argsOf(c);
  const client = c.sc.client as StdioClient;
  return {
    setup: () => restore(c),
    run: async () => {
      c.sc.stdioCalls.push(c);
      expectRound(await client.callTool('record_round', a), c.round);
    },
  };
};

/** The server's own durations for one case's stdio calls (warm-up included), from its log lines. */
function serverSide(c: Case): Summary | undefined {
  const { serverMs, stdioCalls } = c.sc;
  if (serverMs.length !== stdioCalls.length) return undefined;
  return summarize(serverMs.filter((_, i) => stdioCalls[i] === c));
}

async function openScenario(sources: number): Promise<Scenario> {
  // Disk, not tmpfs: the writes' fsyncs are part of what a user pays.
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `dr-bench-round-${sources}-`));
  const server = await inProcess({ root, now: () => TIMESTAMP });
  const built = await buildRun(server, root, sources, `How do four-day work week trials affect output and wellbeing? (bench, ${sources} sources)`);
  return { sources, root, server, built, serverMs: [], stdioCalls: [] };
}

async function openStdio(sc: Scenario): Promise<void> {
  const ours = ourServer();
  if (!ours.present) return;
  // Logs on, as users run it: each call's log line carries the server's own duration of the call.
  const env = childEnv({ DEEP_RESEARCH_ARTIFACTS: sc.root, DEEP_RESEARCH_FIXED_TIME: TIMESTAMP });
  delete env.DEEP_RESEARCH_LOG;
  const client = new StdioClient(process.execPath, [ours.entry], env);
  client.onStderrLine = (line) => {
    try {
      const entry = JSON.parse(line) as { tool?: string; ms?: number };
      if (entry.tool === 'record_round' && typeof entry.ms === 'number') sc.serverMs.push(entry.ms);
    } catch {
      // not a log line
    }
  };
  await client.initialize();
  client.notify('notifications/initialized');
  sc.client = client;
}

/**
 * The disk's floor for a round's writes: the same two atomic writes record_round makes (temp file,
 * write, fsync, rename), of the same sizes, with no server code around them. Alternated with the calls.
 */
function diskFloorStep(dir: string, reportBytes: number, stateBytes: number): () => void {
  const contents = [Buffer.alloc(reportBytes, 'r'), Buffer.alloc(stateBytes, 's')];
  return () => {
    contents.forEach((content, k) => {
      const file = path.join(dir, `floor-${k}.txt`);
      const tmp = `${file}.tmp`;
      const fd = fs.openSync(tmp, 'w');
      try {
        fs.writeSync(fd, content);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(tmp, file);
    });
  };
}

/** Flushes what seeding left dirty, so its writeback does not land on the first measured fsyncs. */
function flushDisk(): void {
  try {
    execFileSync('sync', { stdio: 'ignore', timeout: 60_000 });
  } catch {
    // no sync(1): the alternation still spreads any writeback over every case
  }
}

const p50p99 = (s: Summary | undefined) => (s ? `p50 ${ms(s.p50)} · p99 ${ms(s.p99)}` : 'not measured');
const pair = (s: Summary | undefined) => (s ? `${ms(s.p50)} / ${ms(s.p99)}` : 'n/a');

export async function perRound(): Promise<Section> {
  const section: Section = { name: 'per-round', title: 'Per-round cost', rows: [], notes: [] };
  const ours = ourServer();
  const scenarios: Scenario[] = [];
  try {
    const big = await openScenario(300);
    scenarios.push(big);
    const small = await openScenario(30);
    scenarios.push(small);
    for (const sc of scenarios) await openStdio(sc);
    flushDisk();

    const worst: Case = { label: '300 sources, round 10', sc: big, round: ROUNDS };
    const early: Case = { label: '300 sources, round 2', sc: big, round: 2 };
    const fewer: Case = { label: '30 sources, round 10', sc: small, round: ROUNDS };
    const cases = [worst, early, fewer];

    const comp = computeAll(cases.map(caseSteps));
    // Apart from the rotation: its large strings would put garbage collection on the other cases' runs.
    const bigPages = computeAll([pageSteps(worst, 100_000)])[0] as Compute;
    const ioCold = await alternating(cases, (c) => ioStep(c, false), IO_RUNS);
    const ioWarm = await alternating(cases, (c) => ioStep(c, true), IO_RUNS);
    const inProc = await alternating(cases, viaInProcess);
    // Stdio calls alternate with the disk floor, so both see the same moments of the disk.
    const floorDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dr-bench-fsync-'));
    const floorWrite = diskFloorStep(floorDir, median(big.built.microReportBytes), big.built.stateBytes.at(-1) as number);
    const items: { c?: Case }[] = [...(big.client ? cases.map((c) => ({ c })) : []), {}];
    const itemSteps = new Map(items.map((it) => [it, it.c ? viaStdio(it.c) : { setup: () => undefined, run: async () => floorWrite() }]));
    const stdioSamples = await sampleAlternating(items, CALL_RUNS, 20, (it) => itemSteps.get(it)?.setup(), (it) => itemSteps.get(it)?.run());
    for (const c of cases) restore(c);
    fs.rmSync(floorDir, { recursive: true, force: true });
    const floor = summarize(stdioSamples.at(-1) as number[]);
    const stdio = big.client ? stdioSamples.slice(0, cases.length).map((x) => summarize(x)) : undefined;
    // Log lines travel on stderr, apart from the replies: wait until each call's line has come in.
    for (let t = 0; t < 40 && scenarios.some((sc) => sc.client && sc.serverMs.length < sc.stdioCalls.length); t++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const [w, r2, s30] = [0, 1, 2].map((i) => ({
      compute: comp[i] as Compute,
      ioCold: ioCold[i] as Summary,
      ioWarm: ioWarm[i] as Summary,
      inProcess: inProc[i] as Summary,
      stdio: stdio?.[i],
      server: stdio ? serverSide(cases[i] as Case) : undefined,
    })) as [Measured, Measured, Measured];

    const msGoal = (max: number) => ({ max, format: ms });
    const cpuText = (t: Timed) => `CPU p50 ${ms(t.cpu.p50)} · p99 ${ms(t.cpu.p99)} (wall p50 ${ms(t.wall.p50)})`;
    section.rows.push(
      goalRow('record_round compute: decideRound alone (round 10, 300 sources)', w.compute.decide.cpu.p50, msGoal(5), {
        ours: cpuText(w.compute.decide),
        goalText: 'CPU p50 goal ≤ 5 ms',
      }),
      goalRow('record_round compute: decideRound + micro-report render', w.compute.all.cpu.p50, msGoal(5), {
        ours: cpuText(w.compute.all),
        goalText: 'CPU p50 goal ≤ 5 ms',
      }),
      {
        figure: 'record_round store IO: lock, 2 reads, 3 source lookups, 2 fsynced writes (long-lived store)',
        ours: p50p99(w.ioWarm),
        reference: '—',
        goal: '—',
      },
      { figure: 'record_round full call in process (in-memory, with writes)', ours: p50p99(w.inProcess), reference: '—', goal: '—' },
      goalRow('record_round over stdio against the bundle, with writes', w.stdio?.p50 ?? Number.NaN, msGoal(10), {
        ours: w.stdio ? `${p50p99(w.stdio)}${w.server ? ` (server's own time p50 ${ms(w.server.p50)})` : ''}` : `not measured: ${ours.label} missing`,
        goalText: 'p50 goal ≤ 10 ms',
      }),
      {
        figure: "floor: the round's two atomic fsynced writes alone, same sizes, on the artifacts disk",
        ours: p50p99(floor),
        reference: '—',
        goal: '—',
      },
      {
        figure: 'growth with history: round 10 vs round 2 (compute, CPU p50; ref = round 2)',
        ours: ms(w.compute.all.cpu.p50),
        reference: ms(r2.compute.all.cpu.p50),
        goal: `${ratio(w.compute.all.cpu.p50 / r2.compute.all.cpu.p50)} × (bounded by the 10-round budget)`,
      },
      {
        figure: 'growth with history: round 10 vs round 2 (full call in process p50; ref = round 2)',
        ours: ms(w.inProcess.p50),
        reference: ms(r2.inProcess.p50),
        goal: `${ratio(w.inProcess.p50 / r2.inProcess.p50)} × (bounded by the 10-round budget)`,
      },
      {
        figure: 'growth with run size: 300 vs 30 stored sources (full call in process p50; ref = 30)',
        ours: ms(w.inProcess.p50),
        reference: ms(s30.inProcess.p50),
        goal: `${ratio(w.inProcess.p50 / s30.inProcess.p50)} × (independent of run size ⇒ ≈ 1)`,
      },
    );

    const b = big.built;
    const growth = b.stateBytes.map((x, i) => x - (i === 0 ? Buffer.byteLength(b.before[0] as string) : (b.stateBytes[i - 1] as number)));
    section.rows.push(
      {
        figure: 'thread state JSON growth per round (median of rounds 1–10)',
        ours: `${int(median(growth))} B/round`,
        reference: '—',
        goal: `${int(b.stateBytes.at(-1) as number)} B after round 10`,
      },
      {
        figure: 'micro-report size (median of rounds 1–10)',
        ours: `${int(median(b.microReportBytes))} B`,
        reference: '—',
        goal: `max ${int(Math.max(...b.microReportBytes))} B`,
      },
      {
        figure: 'record_round reply text ≈ tokens (chars/4, median of rounds 1–10)',
        ours: `${int(median(b.replyChars) / 4)} tok`,
        reference: '—',
        goal: `max ${int(Math.max(...b.replyChars) / 4)} tok`,
      },
    );

    // What the agent reads back when it re-reads a stored page: fetch_source's reply, default size.
    const reread = await big.server.callTool('fetch_source', { run_id: b.runId, url: roundInput(0, 1, big.sources).urls_visited[0], focus: 'output per hour and reported stress' });
    const rereadText = (reread.content as { text?: string }[] | undefined)?.map((c) => c.text ?? '').join('') ?? '';
    if (reread.isError) throw new Error(`fetch_source on a stored URL refused: ${rereadText}`);
    section.rows.push({
      figure: `fetch_source reply on a stored ${PAGE_CHARS.toLocaleString('en-US')}-character page, with focus, default max_chars ≈ tokens`,
      ours: `${int(rereadText.length / 4)} tok`,
      reference: '—',
      goal: '—',
    });

    const lookup = await sourceLookup();
    section.rows.push(...lookup.rows);

    section.notes.push(
      `Scenario: a deep run (6 threads, 10 rounds, 5 results per round) built through the real tools in process. Every thread plays rounds 1–9 with 5 URLs and 3 facts per round; each fact's URL is a stored source (${PAGE_CHARS.toLocaleString('en-US')}-character markdown pages with links, emphasis, lists and tables) and its quote is found in the stored text, so grounding runs on every fact; each round also updates sub-questions, subjects, disambiguation and a contradiction. ` +
        `Measured: round 10 of thread 1, replayed with its state file put back before each call (outside the timed span); ${COMPUTE_RUNS} runs for compute, ${IO_RUNS} per case for the store IO and ${CALL_RUNS} per case for calls, after warm-up, with the three cases alternated call by call. ` +
        `Compute is judged on this process's CPU time (user + system), which other processes' load does not inflate; wall time is listed beside it. Store IO: the steps record_round takes through RunStore, on the long-lived store a server keeps, and on a fresh store as the first call of a new process pays it (a sweep of leftover temp files in the run's folders, source texts not yet cached). ` +
        `Stdio: one long-lived \`node ${ours.label}\` per run, raw JSON-RPC, logs on as users run it (the server logs its own duration of each call, listed apart: the rest of a round trip is pipes and waiting to be scheduled). Artifacts on ${os.tmpdir()}; every write is fsynced (atomic temp file + rename), which is most of the IO.`,
      '',
      'p50 / p99:',
      '',
      '| case | decideRound, CPU | decide + render, CPU | decide + render, wall | store IO, long-lived store | store IO, first call of a process | full call in process | full call over stdio | stdio server\'s own time (its log) |',
      '|---|---|---|---|---|---|---|---|---|',
      ...([
        [worst.label, w],
        [early.label, r2],
        [fewer.label, s30],
      ] as [string, Measured][]).map(
        ([label, m]) =>
          `| ${label} | ${pair(m.compute.decide.cpu)} | ${pair(m.compute.all.cpu)} | ${pair(m.compute.all.wall)} | ${pair(m.ioWarm)} | ${pair(m.ioCold)} | ${pair(m.inProcess)} | ${pair(m.stdio)} | ${pair(m.server)} |`,
      ),
      '',
      `Page size: with the same round's facts on ${(100_000).toLocaleString('en-US')}-character pages, decideRound takes ${pair(bigPages.decide.cpu)} of CPU (p50 / p99): grounding projects each fact's whole stored page, so compute grows with page length, not with the run's history.`,
      '',
      `Thread state bytes after rounds 1–10: ${b.stateBytes.map(int).join(', ')}. Micro-report bytes: ${b.microReportBytes.map(int).join(', ')}. record_round reply characters: ${b.replyChars.map(int).join(', ')}.`,
      '',
      ...lookup.notes,
    );
    return section;
  } finally {
    for (const sc of scenarios) {
      await sc.client?.close();
      await sc.server.close();
      fs.rmSync(sc.root, { recursive: true, force: true });
    }
  }
}

interface Measured {
  compute: Compute;
  ioCold: Summary;
  ioWarm: Summary;
  inProcess: Summary;
  stdio: Summary | undefined;
  /** The stdio server's own time for the call, from its log. */
  server: Summary | undefined;
}
