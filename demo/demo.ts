// The demo run, as a function (demo/run.ts is the command-line entry; tests call runDemo directly).
//
// A SCRIPTED REPLAY, not a model: the policy in demo/policy/ follows commands/deep-research.md and
// commands/deep-research-investigate.md, reads every tool reply as text and does what it says. The bundled
// MCP server (node dist/server.js, over stdio, as an agent CLI spawns it) decides every step and writes
// every file; the pages come from a local fixture web (demo/web/pages, written for this replay).
//
// Options: --port <n> (fixture web port, default 4599 or $DEEP_RESEARCH_DEMO_PORT; the committed example's
// URLs use 4599), --live-clock (real timestamps instead of the fixed replay clock), --out <dir> (the
// artifacts root; default demo/output/, replaced on each run).
import { parseReply } from './policy/reply.js';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expandCommand, REPO_ROOT } from './command.js';
import { runConversation, type ConversationOutcome, type TraceEntry } from './host.js';
import { fourDayWeek } from './scenario.js';
import { startFixtureWeb } from './web/server.js';

export const DEFAULT_PORT = 4599;
export const REPLAY_CLOCK = '2026-01-15T09:00:00.000Z';
export const DEADLINE_MS = 60_000;

export interface Options {
  port: number;
  liveClock: boolean;
  cwd: string;
  /** The artifacts root the run is written under; <cwd>/artifacts when absent. */
  out?: string;
  /** Empty `out` first, so a rerun replaces the previous replay instead of adding a run beside it. */
  replace?: boolean;
  /** The bundled server to spawn; dist/server.js of this clone by default. */
  serverJs?: string;
}

/** Where `npm run demo` writes: ignored by git, and replaced on every run, so reruns leave the tree clean. */
export const DEMO_OUT = path.join(REPO_ROOT, 'demo', 'output');

export function parseArgs(argv: string[]): Options {
  const o: Options = { port: Number(process.env.DEEP_RESEARCH_DEMO_PORT ?? DEFAULT_PORT), liveClock: false, cwd: process.cwd(), out: DEMO_OUT, replace: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--port') o.port = Number(argv[++i]);
    else if (a.startsWith('--port=')) o.port = Number(a.slice(7));
    else if (a === '--out' || a.startsWith('--out=')) {
      const dir = a === '--out' ? argv[++i] : a.slice(6);
      if (!dir) throw new Error('--out needs a folder, e.g. --out artifacts');
      // A folder the user names is never emptied: the run is added beside what is there.
      o.out = path.resolve(o.cwd, dir);
      o.replace = false;
    } else if (a === '--live-clock') o.liveClock = true;
    else if (a === '--help' || a === '-h') {
      process.stdout.write('usage: npm run demo [-- --port <n>] [-- --live-clock] [-- --out <artifacts-root>]\n');
      process.exit(0);
    } else throw new Error(`unknown option ${a}`);
  }
  if (!Number.isInteger(o.port) || o.port < 1 || o.port > 65535) throw new Error('--port needs a port number');
  return o;
}

export interface DemoResult {
  runId: string;
  runDir: string;
  files: string[];
  verify: { ok: boolean; problems: string; citations: number; pairs: number; supported: number };
  toolCalls: number;
  outcomes: ConversationOutcome[];
  fetches: Map<string, number>;
  final: string;
  ms: number;
}

export async function runDemo(o: Options): Promise<DemoResult> {
  const started = performance.now();
  const serverJs = o.serverJs ?? path.join(REPO_ROOT, 'dist', 'server.js');
  if (!fs.existsSync(serverJs)) throw new Error(`${path.relative(o.cwd, serverJs)} is missing: run "npm run build" first`);

  const web = await startFixtureWeb({ port: o.port }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'EADDRINUSE') throw new Error(`port ${o.port} is in use; pass --port <n> (the committed example uses ${DEFAULT_PORT})`);
    throw err;
  });
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  env.DEEP_RESEARCH_ALLOW_HOSTS = web.allowHost;
  env.DEEP_RESEARCH_LOG = 'off';
  if (o.out !== undefined) {
    if (o.replace) fs.rmSync(o.out, { recursive: true, force: true });
    env.DEEP_RESEARCH_ARTIFACTS = o.out;
  }
  if (!o.liveClock) env.DEEP_RESEARCH_FIXED_TIME = REPLAY_CLOCK;
  const transport = new StdioClientTransport({ command: process.execPath, args: [serverJs], cwd: o.cwd, env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const client = new Client({ name: 'deep-research-demo', version: '1' });
  try {
    await client.connect(transport);
    const callTool = async (name: string, args: Record<string, unknown>) => {
      const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
      return { text, isError: r.isError === true };
    };
    const trace: TraceEntry[] = [];
    const outcomes: ConversationOutcome[] = [];
    const command = expandCommand(`"${fourDayWeek.question}"`);
    const main = await runConversation(command, { callTool, cwd: o.cwd, env: { scenario: fourDayWeek, baseUrl: web.baseUrl, newRun: true }, trace }, outcomes);

    const start = trace.find((t) => t.call.tool === 'mcp' && t.call.name === 'start_run' && t.call.args.dry_run !== true);
    const opened = parseReply(start?.result.text ?? '');
    const runId = opened.str('run_id');
    const reportPath = opened.str('report_path');
    if (!runId || !reportPath) throw new Error(`the run did not start:\n${main.final}`);
    const runDir = path.dirname(path.resolve(o.cwd, reportPath));
    const v = await callTool('verify_report', { run_id: runId });
    const verified = parseReply(v.text, v.isError);
    const files = listFiles(runDir);
    return {
      runId,
      runDir,
      files,
      verify: {
        ok: verified.bool('ok') === true,
        problems: (verified.json<{ line: number; message: string }[]>('problems') ?? []).map((p) => `line ${p.line}: ${p.message}`).join('; '),
        citations: verified.num('citations') ?? 0,
        pairs: verified.num('pairs') ?? 0,
        supported: verified.num('audit.supported') ?? 0,
      },
      toolCalls: trace.length,
      outcomes,
      fetches: new Map(web.hits),
      final: main.final,
      ms: performance.now() - started,
    };
  } catch (err) {
    if (stderr) process.stderr.write(stderr);
    throw err;
  } finally {
    await client.close().catch(() => undefined);
    await web.close();
  }
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(path.relative(dir, p).split(path.sep).join('/'));
    }
  };
  walk(dir);
  return out;
}
