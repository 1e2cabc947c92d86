// Fuzzing every tool's input (SPEC 5: "bad input answered with isError: true and a message that says
// what to fix — never a crash, never a partial write"). Per tool ≥ 1,000 cases: arbitrary values as the
// whole argument object, structurally near-valid objects (one to three fields replaced by wrong types,
// NaN, negative or huge numbers, huge or hostile unicode strings, deleted or extra keys), and extra keys.
// Every answer is a result or an isError with a non-empty message; a refusal writes nothing; the server
// keeps answering and a valid call afterwards succeeds; no reply says "internal error" or carries an
// absolute path of the machine that the caller did not give (SPEC 7). fetch_source never reaches the network: the
// allow-list is empty, every URL is refused by the guard or already stored, and sockets are trapped.
import dns from 'node:dns';
import * as fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import * as path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Harness } from '../helpers/mcp.js';
import { PAGE, seedSource } from '../helpers/fixtures.js';
import { sandbox } from '../helpers/safety-fs.js';
import { captureRoot, nasty, nearValid, oracle, restoreRoot, withExtraKeys, type Oracle } from '../helpers/safety-fuzz.js';

const SEED = Number(process.env.SAFETY_SEED ?? 20260101);
const SCALE = Number(process.env.SAFETY_FUZZ_SCALE ?? 1);
const RUNS = { anything: Math.round(250 * SCALE), nearValid: Math.round(600 * SCALE), extra: Math.round(150 * SCALE) };

const Q = 'Does a four-day week keep output steady?';
const T = 'Trials: A/B';
const URL_A = 'https://example.org/a';

// Sockets and DNS are trapped for the whole file: any attempt is recorded and fails the suite.
const networkAttempts: string[] = [];
const realConnect = net.Socket.prototype.connect;
const realLookup = dns.lookup;
const realPromisesLookup = dns.promises.lookup;

let h: Harness;
let runId: string;
let base: Map<string, Buffer>;
const internal: Oracle['internalErrors'] = [];
const leaks: Oracle['pathLeaks'] = [];
const stats: Record<string, Oracle['stats']> = {};

function templates(): Record<string, Record<string, unknown>> {
  return {
    start_run: {
      question: Q,
      depth: 'deep',
      brief: {
        threads: [{ name: T, sub_questions: [{ id: 'SQ-1', question: 'What happened to output?' }], subjects: ['Iceland'], source_strategy: ['SURVEY', 'EXTRACT'] }],
        assumptions: ['Trials are comparable.'],
        disambiguation: { include: ['four-day week'], exclude: ['school week'] },
        known_facts: [{ fact: 'Iceland ran trials.', confidence: 'HIGH' }],
        scope: { regions: ['Europe'], period: { from: 2015, to: 2024 } },
      },
      dry_run: false,
      new: false,
    },
    start_thread: {
      run_id: runId,
      thread: T,
      definition: { sub_questions: [{ id: 'SQ-1', question: 'What is missing?' }], subjects: ['Utah'], source_strategy: ['VERIFY'] },
    },
    fetch_source: { run_id: runId, url: URL_A, focus: 'output per hour', start_index: 0, max_chars: 1000 },
    check_drift: { run_id: runId, thread: T, source_id: 'S1', url: URL_A, text: 'Iceland four-day week output', published: 2020 },
    record_round: {
      run_id: runId,
      thread: T,
      query: 'four-day week output Iceland',
      urls_visited: [URL_A],
      facts: [
        {
          fact: 'Output per hour rose 1%.',
          url: URL_A,
          source_title: 'Trial report',
          quote: 'Output per hour rose by 1% in the pilot group',
          confidence: 'VERIFIED',
          notes: 'n',
          sub_questions: ['SQ-1'],
          confirms_known: false,
        },
      ],
      summary: 'Read the trial report.',
      targeted_subjects: ['Iceland'],
      sub_question_updates: [{ id: 'SQ-1', status: 'PARTIAL', confidence: 'PLAUSIBLE', key_finding: 'k' }],
      subject_updates: [{ name: 'Iceland', status: 'PARTIAL', evidence: 'e' }],
      disambiguation_updates: ['not the school week'],
      contradictions: [{ claim: 'c', source_a: 'a', url_a: URL_A, source_b: 'b', url_b: 'https://example.org/b', status: 'OPEN', severity: 'LOW' }],
      next_focus: 'UK pilot',
    },
    thread_status: { run_id: runId, thread: T },
    complete_thread: { run_id: runId, thread: T, gaps: [{ gap: 'g', why_not_found: 'w', rounds_attempted: 1, next_step: 'n' }] },
    record_critique: {
      run_id: runId,
      gaps: [{ kind: 'modality', description: 'd', query: 'q', priority: 1, material: true, unanswerable: false }],
      signoff: false,
    },
    verify_report: { run_id: runId, path: 'report.md' },
  };
}

/** URLs the SSRF guard refuses without touching the network, in many spellings, or non-URLs. */
const refusedUrl: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(
        'http://127.0.0.1',
        'http://127.1',
        'http://0x7f000001',
        'http://2130706433',
        'http://0177.0.0.1',
        'http://0x7f.0.0.1',
        'http://[::1]',
        'http://[::ffff:127.0.0.1]',
        'http://[::ffff:7f00:1]',
        'http://0.0.0.0',
        'http://0',
        'http://10.0.0.1',
        'http://172.16.0.1',
        'http://192.168.1.1',
        'http://169.254.169.254',
        'http://[fe80::1]',
        'http://[fd00::1]',
        'http://100.64.0.1',
        'http://localhost',
        'http://a.localhost',
        'https://user:pass@example.org',
        'http://example.org@127.0.0.1',
        'file://',
        'ftp://example.org',
        'gopher://example.org',
        'javascript:alert(1)//',
        'data:text/html,',
        'ws://example.org',
      ),
      fc.constantFrom('', ':80', ':8080', ':65535'),
      fc.string({ maxLength: 20 }).map((s) => `/${encodeURIComponent(s)}`),
    )
    .map(([a, port, p]) => (a.endsWith('//') || a.endsWith(',') || a === 'file://' ? `${a}${p}` : `${a}${port}${p}`)),
  fc.string({ unit: 'grapheme', maxLength: 60 }).filter((s) => !s.includes(':')),
);

beforeAll(async () => {
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    networkAttempts.push(`connect ${JSON.stringify(args[0]).slice(0, 200)}`);
    throw new Error('network is trapped in the fuzz suite');
  } as never;
  (dns as { lookup: unknown }).lookup = (host: string) => {
    networkAttempts.push(`lookup ${host}`);
    throw new Error('DNS is trapped in the fuzz suite');
  };
  (dns.promises as { lookup: unknown }).lookup = async (host: string) => {
    networkAttempts.push(`lookup ${host}`);
    throw new Error('DNS is trapped in the fuzz suite');
  };
  syncBuiltinESMExports();

  const sb = sandbox('dr-fuzz-', { memory: true });
  h = await connect({ root: sb.root, env: { DEEP_RESEARCH_ALLOW_HOSTS: '' } });
  const r = await h.ok('start_run', templates().start_run as Record<string, unknown>);
  runId = r.run_id;
  await h.ok('start_thread', { run_id: runId, thread: T });
  await seedSource(h.root, runId, URL_A, PAGE(1), 'Trial report');
  fs.writeFileSync(
    path.join(h.root, runId, 'report.md'),
    `# Report\n\nOutput rose, "Output per hour rose by 1% in the pilot group" [S1].\n\n## Methods\n\nOne thread.\n\n## Sources\n\n- [S1] Trial report — ${URL_A}\n`,
  );
  base = captureRoot(h.root);
}, 60_000);

afterAll(async () => {
  await h?.close();
  fs.rmSync(path.dirname(h.root), { recursive: true, force: true });
  net.Socket.prototype.connect = realConnect;
  (dns as { lookup: unknown }).lookup = realLookup;
  (dns.promises as { lookup: unknown }).lookup = realPromisesLookup;
  syncBuiltinESMExports();
  console.log(`[fuzz] seed ${SEED} (set SAFETY_SEED to replay); per tool ok/refused/protocol: ${JSON.stringify(stats)}`);
});

const must = (cond: boolean, message: string) => {
  if (!cond) throw new Error(message);
};

async function fuzzTool(tool: string, extraArbs: { arb: fc.Arbitrary<unknown>; runs: number }[] = []) {
  const template = templates()[tool] as Record<string, unknown>;
  const o = oracle(h, tool, base, must);
  const keys = Object.keys(template);
  const arbs: { name: string; arb: fc.Arbitrary<unknown>; runs: number }[] = [
    {
      name: 'arbitrary values',
      arb: fc.oneof(
        fc.anything({ maxDepth: 3 }),
        fc.jsonValue({ maxDepth: 4 }),
        fc.dictionary(fc.constantFrom(...keys, 'x'), nasty, { maxKeys: keys.length + 1 }),
      ),
      runs: RUNS.anything,
    },
    { name: 'near-valid', arb: nearValid(template), runs: RUNS.nearValid },
    { name: 'extra keys', arb: withExtraKeys(template), runs: RUNS.extra },
    ...extraArbs.map((e, i) => ({ name: `extra ${i}`, ...e })),
  ];
  let total = 0;
  for (const [i, a] of arbs.entries()) {
    await fc.assert(
      fc.asyncProperty(a.arb, async (args) => {
        await o.check(args);
      }),
      { numRuns: a.runs, seed: SEED + i, endOnFailure: true },
    );
    total += a.runs;
    // Still answering: the valid template succeeds after the storm.
    const r = await h.call(tool, template);
    expect(r.isError, `${tool} after ${a.name}: ${JSON.stringify(r.content)}`).toBeFalsy();
    restoreRoot(h.root, base);
  }
  internal.push(...o.internalErrors);
  leaks.push(...o.pathLeaks);
  stats[tool] = o.stats;
  expect(total).toBeGreaterThanOrEqual(1000 * Math.min(SCALE, 1));
  expect(networkAttempts).toEqual([]);
  // And the thread still reads back.
  await h.ok('thread_status', { run_id: runId, thread: T });
}

describe('fuzzing every tool through the in-memory client', () => {
  for (const tool of ['start_run', 'start_thread', 'check_drift', 'record_round', 'thread_status', 'complete_thread', 'record_critique', 'verify_report']) {
    it(`${tool}: never crashes, always answers with a result or a message, writes nothing when refusing`, async () => {
      await fuzzTool(tool);
    }, 120_000);
  }

  it('fetch_source: the same, with URLs the SSRF guard refuses in every spelling, and no network', async () => {
    const template = templates().fetch_source as Record<string, unknown>;
    await fuzzTool('fetch_source', [
      { arb: refusedUrl.map((url) => ({ ...template, url })), runs: Math.round(200 * SCALE) },
      { arb: fc.tuple(refusedUrl, nearValid({ ...template, url: 'http://127.0.0.1/' })).map(([url, a]) => ({ ...a, url })), runs: Math.round(200 * SCALE) },
    ]);
  }, 120_000);

  it('no reply carries an absolute path of the machine that the caller did not give', () => {
    const byPath = new Map<string, (typeof leaks)[number]>();
    for (const e of leaks) if (!byPath.has(`${e.tool} ${e.path}`)) byPath.set(`${e.tool} ${e.path}`, e);
    expect([...byPath.values()].map((e) => `${e.tool}: ${e.path} in ${e.message}\n    args: ${e.args}`)).toEqual([]);
  });

  it('no reply says "internal error": every refusal says what to fix', () => {
    const byMessage = new Map<string, (typeof internal)[number]>();
    for (const e of internal) {
      const k = `${e.tool}: ${e.message.replace(/"[^"]*"/g, '"…"').slice(0, 120)}`;
      if (!byMessage.has(k)) byMessage.set(k, e);
    }
    expect([...byMessage.values()].map((e) => `${e.tool}: ${e.message}\n    args: ${e.args}`)).toEqual([]);
  });
});
