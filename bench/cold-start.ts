// Cold start: what every agent CLI session pays for every MCP server it spawns. Spawn → initialize →
// tools/list → one cheap tool call, for our bundle and the official filesystem server, alternated.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { goalRow, type Row, type Section } from './report.js';
import { median, medianRatio, ms, ratio } from './stats.js';
import { childEnv, StdioClient } from './stdio-client.js';
import { ourServer, referenceServer } from './targets.js';

const RUNS = Math.max(20, Number(process.env.BENCH_COLD_RUNS ?? 25));
const WARMUP = 2;

export interface Timeline {
  /** spawn → initialize answered */
  initialize: number;
  /** spawn → tools/list answered */
  list: number;
  /** spawn → first tool result */
  call: number;
}

interface Subject {
  command: string;
  args: string[];
  env: Record<string, string>;
  tool: string;
  toolArgs: Record<string, unknown>;
}

/** One session, timed from just before spawn to each answer. The child is ended before returning. */
export async function coldRun(s: Subject): Promise<Timeline> {
  const t0 = performance.now();
  const client = new StdioClient(s.command, s.args, s.env);
  try {
    await client.initialize();
    const initialize = performance.now() - t0;
    client.notify('notifications/initialized');
    const list = await client.request('tools/list');
    if (!Array.isArray(list.tools) || list.tools.length === 0) throw new Error('tools/list returned no tools');
    const tList = performance.now() - t0;
    await client.callTool(s.tool, s.toolArgs);
    return { initialize, list: tList, call: performance.now() - t0 };
  } finally {
    await client.close({ kill: true });
  }
}

function nodeFloor(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', '0'], { env: childEnv(), stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => resolve());
  });
}

export async function coldStart(): Promise<Section> {
  const ours = ourServer();
  const ref = referenceServer();
  const section: Section = { name: 'cold-start', title: 'Cold start', rows: [], notes: [] };
  const missing = [ours, ref].filter((t) => !t.present);
  if (missing.length > 0) {
    const why = missing.map((t) => `${t.label} missing`).join('; ');
    section.rows.push(goalRow('cold start: spawn → first tool result, ratio to reference', Number.NaN, { max: 0.7, format: ratio }, { ours: 'not measured', goalText: 'goal ≤ 0.70' }));
    (section.rows[0] as Row).because = `${why}; dist/ is committed: restore it, or run npm run build; the reference comes with npm ci`;
    return section;
  }

  const artifacts = fs.mkdtempSync(path.join(os.tmpdir(), 'dr-bench-cold-'));
  const fsRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'dr-bench-fsref-'));
  try {
    const oursSubject: Subject = {
      command: process.execPath,
      args: [ours.entry],
      env: childEnv({ DEEP_RESEARCH_ARTIFACTS: artifacts, DEEP_RESEARCH_LOG: 'off' }),
      tool: 'thread_status',
      toolArgs: { run_id: 'no-such-run', thread: 'none' },
    };
    const refSubject: Subject = {
      command: process.execPath,
      args: [ref.entry, fsRoot],
      env: childEnv(),
      tool: 'list_allowed_directories',
      toolArgs: {},
    };

    // The three alternate, rotating who goes first, so drift in machine load falls on all alike.
    const a: Timeline[] = [];
    const b: Timeline[] = [];
    const floor: number[] = [];
    const steps: (() => Promise<void>)[] = [
      async () => void a.push(await coldRun(oursSubject)),
      async () => void b.push(await coldRun(refSubject)),
      async () => {
        const t0 = performance.now();
        await nodeFloor();
        floor.push(performance.now() - t0);
      },
    ];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      for (let j = 0; j < steps.length; j++) await (steps[(i + j) % steps.length] as () => Promise<void>)();
      if (i < WARMUP) {
        a.length = 0;
        b.length = 0;
        floor.length = 0;
      }
    }
    const col = (xs: Timeline[], k: keyof Timeline) => xs.map((x) => x[k]);
    const oursCall = col(a, 'call');
    const refCall = col(b, 'call');
    const r = medianRatio(oursCall, refCall);
    const floorMed = median(floor);

    section.rows.push(
      goalRow('cold start: spawn → first tool result (median; ratio = median of pairwise ratios)', r, { max: 0.7, format: ratio }, {
        ours: ms(median(oursCall)),
        reference: ms(median(refCall)),
        goalText: `${ratio(r)} (goal ≤ 0.70)`,
      }),
      {
        figure: 'cold start above the bare `node -e 0` floor (median)',
        ours: ms(median(oursCall) - floorMed),
        reference: ms(median(refCall) - floorMed),
        goal: ratio((median(oursCall) - floorMed) / (median(refCall) - floorMed)),
      },
      { figure: 'floor: bare `node -e 0`, spawn → exit (median)', ours: ms(floorMed), reference: ms(floorMed), goal: '—' },
    );
    const line = (label: string, xs: Timeline[]) =>
      `| ${label} | ${ms(median(col(xs, 'initialize')))} | ${ms(median(col(xs, 'list')))} | ${ms(median(col(xs, 'call')))} |`;
    section.notes.push(
      `Cold start: ${RUNS} runs each of ours, the reference and bare \`node -e 0\`, alternated in rotation (after ${WARMUP} warm-up rounds), timed from just before \`spawn\` to each answer over stdio; one JSON-RPC message per line, no SDK on the client side. ` +
        `Ours: \`node ${ours.label}\` calling \`thread_status\` on an unknown run (answers isError). Reference: \`node ${path.relative(process.cwd(), ref.entry)} <temp dir>\` (${ref.label}) calling \`list_allowed_directories\`.`,
      '',
      '| medians, from spawn | initialize | tools/list | first tool result |',
      '|---|---|---|---|',
      line('ours', a),
      line('reference', b),
      '',
      `Ratio of medians ${ratio(median(oursCall) / median(refCall))}; median of the ${RUNS} pairwise ratios ${ratio(r)}. Bare \`node -e 0\` (spawn → exit, median of ${RUNS}): ${ms(floorMed)}.`,
    );
    return section;
  } finally {
    fs.rmSync(artifacts, { recursive: true, force: true });
    fs.rmSync(fsRoot, { recursive: true, force: true });
  }
}
