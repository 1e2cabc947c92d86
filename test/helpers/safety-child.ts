// A child process for the crash and cross-process tests, bundled by test/helpers/safety-spawn.ts.
// It runs a real server (createServer + in-memory SDK client) or the store directly over one
// artifacts root, and reports each finished step on stdout as one JSON line.
//
//   node child.mjs '<json config>'
//
// modes:
//   crash    wait for "go", then loop forever over a seeded mix of writes (record_round, sources,
//            complete_thread, critic threads, record_critique, check_drift) until killed
//   sources  wait for "go" on stdin, then add the given URLs (store.addSource or fetch_source)
//   rounds   wait for "go", then start the given threads and record rounds in them concurrently
//   hold     take the run's lock and hold it (emits {held}) until "release" on stdin, or until killed
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { RunStore } from '../../src/store/run-store.js';
import { canonicalKey } from '../../src/engine/canonical-url.js';

interface Config {
  mode: 'crash' | 'sources' | 'rounds' | 'hold';
  root: string;
  seed?: number;
  runId?: string;
  question?: string;
  urls?: string[];
  via?: 'store' | 'fetch';
  threads?: string[];
  rounds?: number;
  /** How many adds one process keeps in flight (default 3). */
  workers?: number;
  env?: Record<string, string>;
}

const cfg = JSON.parse(process.argv[2] ?? '{}') as Config;
const emit = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);

function mulberry32(a: number) {
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PAGE = (n: number) =>
  `# Trial report ${n}\n\nThe four-day week trial in Iceland kept productivity the same or improved it in most workplaces.\n\n` +
  `## Figures\n\nOutput per hour rose by ${n}% in the pilot group, according to the report.\n`;

async function connect() {
  // Loaded on demand: a store-only child (sources via store) does not need the SDK.
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
  const { createServer } = await import('../../src/create-server.js');
  let tick = 0;
  const server = createServer({
    artifactsRoot: cfg.root,
    cwd: cfg.root,
    env: { DEEP_RESEARCH_LOG: 'off', ...(cfg.env ?? {}) },
    now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++)).toISOString(),
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'safety-child', version: '1' });
  await Promise.all([server.connect(a), client.connect(b)]);
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })) as CallToolResult;
  return { call };
}

const text = (r: CallToolResult) => (r.content[0] && r.content[0].type === 'text' ? r.content[0].text : '');

function waitForGo(): Promise<void> {
  return new Promise((resolve) => {
    let buf = '';
    process.stdin.on('data', (d) => {
      buf += String(d);
      if (buf.includes('go')) resolve();
    });
    // The parent went away without a "go": leave quietly.
    process.stdin.on('end', () => process.exit(0));
  });
}

async function crash() {
  const rnd = mulberry32(cfg.seed ?? 1);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const { call } = await connect();
  const store = new RunStore(cfg.root);
  // Loaded and connected, nothing touched on disk yet: the parent pre-spawns the next child while
  // the current one runs, and says "go" when it is its turn.
  emit({ ready: true });
  await waitForGo();
  const run = await call('start_run', {
    question: cfg.question ?? 'Does a four-day week keep output steady?',
    depth: 'deep',
    brief: {
      threads: [
        { name: 'Trials', sub_questions: [{ id: 'SQ-1', question: 'What happened to output in trials?' }], subjects: ['Iceland', 'UK pilot'] },
        { name: 'Counter: A/B', sub_questions: [{ id: 'SQ-1', question: 'Where did trials fail?' }], subjects: ['Utah'] },
      ],
    },
  });
  if (run.isError) throw new Error(text(run));
  const runId = (run.structuredContent as { run_id: string }).run_id;
  const threads = ['Trials', 'Counter: A/B'];
  for (const t of threads) await call('start_thread', { run_id: runId, thread: t });
  let n = Math.floor(rnd() * 1e6);
  for (;;) {
    n++;
    const op = pick(['round', 'round', 'round', 'source', 'source', 'complete', 'critique', 'drift']);
    const thread = pick(threads);
    if (op === 'round') {
      const known = store.listSourceIds(runId).slice(-3);
      const urls: string[] = [];
      const facts: Record<string, unknown>[] = [];
      for (const id of known) {
        const s = store.readSource(runId, id);
        if (!s) continue;
        urls.push(s.url);
        facts.push({ fact: `Output per hour rose in ${s.title} (${n}).`, url: s.url, quote: 'Output per hour rose by', confidence: 'PLAUSIBLE', sub_questions: ['SQ-1'] });
      }
      const r = await call('record_round', {
        run_id: runId,
        thread,
        query: `four-day week output query ${n}`,
        urls_visited: urls,
        facts,
        summary: `Round summary ${n}.`,
        targeted_subjects: [],
      });
      if (r.isError && /complete_thread|converged|completed/i.test(text(r))) {
        await call('complete_thread', { run_id: runId, thread });
        const critic = `Critic ${n}: gap / ../${n}`;
        const s = await call('start_thread', {
          run_id: runId,
          thread: critic,
          definition: { sub_questions: [{ id: 'SQ-1', question: `Gap question ${n}?` }], subjects: [`Gap ${n}`] },
        });
        if (!s.isError) threads.push(critic);
        emit({ op: 'rollover', ok: !s.isError });
      } else emit({ op, ok: !r.isError, msg: r.isError ? text(r).slice(0, 200) : undefined });
    } else if (op === 'source') {
      const url = `https://example.org/crash/${rnd() < 0.2 ? 1 : n}`;
      await store.addSource(runId, { url, canonical_key: canonicalKey(url), title: `Report ${n}`, markdown: PAGE(n), fetched_at: '2026-01-01T00:00:00.000Z' });
      emit({ op, ok: true });
    } else if (op === 'complete') {
      const r = await call('complete_thread', { run_id: runId, thread, gaps: [{ gap: `Gap ${n}`, why_not_found: 'none found', rounds_attempted: 1, next_step: 'search more' }] });
      emit({ op, ok: !r.isError });
    } else if (op === 'critique') {
      const r = await call('record_critique', {
        run_id: runId,
        gaps: [{ kind: pick(['modality', 'unverified-claim', 'unread-source', 'missing-counterarg', 'unresolved-contradiction']), description: `gap ${n}`, query: `query ${n}`, priority: n % 10, material: rnd() < 0.5 }],
        signoff: rnd() < 0.3,
      });
      emit({ op, ok: !r.isError, msg: r.isError ? text(r).slice(0, 200) : undefined });
    } else {
      const r = await call('check_drift', { run_id: runId, thread, url: `https://example.org/d/${n}`, text: `Iceland four-day week output ${n}` });
      emit({ op, ok: !r.isError });
    }
  }
}

async function sources() {
  const runId = cfg.runId as string;
  const urls = cfg.urls ?? [];
  const store = new RunStore(cfg.root);
  const client = cfg.via === 'fetch' ? await connect() : undefined;
  emit({ ready: true });
  await waitForGo();
  // A few in flight at once inside this process too, so the in-process queue and the cross-process
  // lock are both exercised.
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++] as string;
      const t0 = Date.now();
      if (client) {
        const r = await client.call('fetch_source', { run_id: runId, url });
        const sc = r.structuredContent as { source_id?: string; duplicate?: boolean } | undefined;
        emit({ url, id: r.isError ? undefined : sc?.source_id, duplicate: sc?.duplicate, error: r.isError ? text(r) : undefined, t0, t1: Date.now() });
      } else {
        const { source, duplicate } = await store.addSource(runId, {
          url,
          canonical_key: canonicalKey(url),
          title: `Title of ${url}`,
          markdown: `# ${url}\n\nBody of ${url}.\n`,
          fetched_at: '2026-01-01T00:00:00.000Z',
        });
        emit({ url, id: source.id, duplicate, t0, t1: Date.now() });
      }
    }
  };
  await Promise.all(Array.from({ length: cfg.workers ?? 3 }, () => worker()));
  emit({ done: true });
}

async function rounds() {
  const runId = cfg.runId as string;
  const { call } = await connect();
  emit({ ready: true });
  await waitForGo();
  await Promise.all(
    (cfg.threads ?? []).map(async (thread) => {
      const s = await call('start_thread', {
        run_id: runId,
        thread,
        definition: { sub_questions: [{ id: 'SQ-1', question: `What about ${thread}?` }], subjects: [] },
      });
      if (s.isError) return emit({ thread, error: text(s) });
      for (let i = 1; i <= (cfg.rounds ?? 2); i++) {
        const r = await call('record_round', {
          run_id: runId,
          thread,
          query: `${thread} query ${i} ${'x'.repeat(i)}`,
          urls_visited: [`https://example.org/${encodeURIComponent(thread)}/${i}`],
          facts: [],
          summary: `${thread} round ${i}.`,
        });
        emit({ thread, round: i, error: r.isError ? text(r) : undefined, reply: r.isError ? undefined : (r.structuredContent as { round: number }).round });
      }
    }),
  );
  emit({ done: true });
}

async function hold() {
  const store = new RunStore(cfg.root);
  await store.lock(cfg.runId as string, async () => {
    emit({ held: true, pid: process.pid });
    await new Promise<void>((resolve) => {
      let buf = '';
      process.stdin.on('data', (d) => {
        buf += String(d);
        if (buf.includes('release')) {
          emit({ releasing: Date.now() });
          resolve();
        }
      });
    });
  });
  emit({ done: true });
}

const main = cfg.mode === 'crash' ? crash : cfg.mode === 'sources' ? sources : cfg.mode === 'hold' ? hold : rounds;
main().then(
  () => process.exit(0),
  (err) => {
    emit({ fatal: String(err?.stack ?? err) });
    process.exit(1);
  },
);
