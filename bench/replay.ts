// Replay footprint: the call sequences of real-model trials (bench/replays/<name>/calls.jsonl), replayed
// against this checkout's bundle and against the commit before issue 23, each over stdio with one server
// process per replay, serving the same pages from Debian's documentation packages. What is counted is what
// the trial bridge counts as shown to the model: JSON.stringify(structuredContent, null, 1) when present and
// not an error, else the text.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { type Row } from './report.js';
import { int } from './stats.js';
import { childEnv, StdioClient } from './stdio-client.js';
import { ourServer, REPO } from './targets.js';

/** The commit before issue 23 (reply economy): the baseline every recording is replayed against. */
export const BASELINE = '302575f';
/** Goal of issue 23: the replay shows at most this share of the baseline's characters. */
const GOAL = 0.55;
const REPLAYS = path.join(REPO, 'bench', 'replays');
/** Where the Debian documentation packages put their files; override for another layout. */
const DOCS = process.env.DEEP_RESEARCH_REPLAY_DOCS ?? '/usr/share/doc';
// The trial web's sites, each served from a Debian package's folder (see bench/README.md).
const SITES: Record<string, { root: string; prefix: string }> = {
  'docs.python.org': { root: 'python3.11/html', prefix: '/3.11/' },
  'git-scm.com': { root: 'git-doc', prefix: '/docs/' },
  'www.debian.org': { root: 'debian-policy', prefix: '/doc/debian-policy/' },
  'requests.readthedocs.io': { root: 'python-requests-doc/html', prefix: '/en/latest/' },
  'docs.aiohttp.org': { root: 'python-aiohttp-doc/html', prefix: '/en/stable/' },
  'gitpython.readthedocs.io': { root: 'python-git-doc/html', prefix: '/en/stable/' },
  // R's manuals as PDFs (r-doc-pdf), served as CRAN serves them: a recording made on PDFs.
  'cran.r-project.org': { root: 'r-doc-pdf/manual', prefix: '/doc/manuals/r-release/' },
};
// Tools that read the report the model wrote: the recording's run/ files are in place before the first.
const READS_REPORT = new Set(['audit_report', 'record_audit', 'verify_report', 'coverage_report']);

interface Call {
  tool: string;
  args: Record<string, unknown>;
  reply_chars: number;
  /** The recording's server refused this call: nothing it would have stored is in the recording's run. */
  isError?: boolean;
}

export interface Replay {
  name: string;
  calls: number;
  recorded: Record<string, number>;
  current: Record<string, number>;
  baseline: Record<string, number>;
  /** Calls whose answer was an error in one server and not in the other (the replay differs there). */
  diverged: string[];
}

const total = (m: Record<string, number>): number => Object.values(m).reduce((a, b) => a + b, 0);

function recordings(): { name: string; dir: string; calls: Call[] }[] {
  if (!fs.existsSync(REPLAYS)) return [];
  return fs
    .readdirSync(REPLAYS, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(REPLAYS, e.name, 'calls.jsonl')))
    .map((e) => e.name)
    .sort()
    .map((name) => {
      const dir = path.join(REPLAYS, name);
      const calls = fs
        .readFileSync(path.join(dir, 'calls.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as Call)
        // The tool listing is not a call's reply; tool definitions are measured above.
        .filter((c) => !c.tool.startsWith('--'));
      return { name, dir, calls };
    });
}

/** The pages of the trial web, by Host header, from the documentation packages. */
function serveCorpus(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const site = SITES[host];
    const u = new URL(req.url ?? '/', 'http://x');
    if (!site || !u.pathname.startsWith(site.prefix)) return void res.writeHead(404).end('not found');
    const root = path.join(DOCS, site.root);
    const file = path.join(root, decodeURIComponent(u.pathname.slice(site.prefix.length)) || 'index.html');
    if (!file.startsWith(root) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) return void res.writeHead(404).end('not found');
    const type = file.endsWith('.html') ? 'text/html; charset=utf-8' : file.endsWith('.pdf') ? 'application/pdf' : file.endsWith('.txt') ? 'text/plain' : 'application/octet-stream';
    res.writeHead(200, { 'content-type': type });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/**
 * The recorded URLs name the real hosts on port 80. Without /etc/hosts entries or port 80, each host is
 * given the corpus server's port (`http://git-scm.com:PORT/…`), DEEP_RESEARCH_RESOLVE maps the name to
 * 127.0.0.1 and DEEP_RESEARCH_ALLOW_HOSTS lets it through; replies have the port taken out again before
 * they are counted, so they compare with the recording.
 */
function withPort(value: unknown, port: number): unknown {
  const text = JSON.stringify(value);
  let out = text;
  for (const host of Object.keys(SITES)) out = out.split(`http://${host}/`).join(`http://${host}:${port}/`);
  return JSON.parse(out);
}

function shown(result: Record<string, unknown>): string {
  const isError = result.isError === true;
  if (result.structuredContent && !isError) return JSON.stringify(result.structuredContent, null, 1);
  return ((result.content as { text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('\n');
}

/**
 * What Claude Code passes the model: JSON.stringify(structuredContent) without indentation when a result
 * has it (observed on Claude Code 2.1.280, anthropics/claude-code#79944), else the text. The trial bridge's
 * one-space indentation above is the figure the goal was set in; this one is the host's own.
 */
function compact(result: Record<string, unknown>): string {
  if (result.structuredContent && result.isError !== true) return JSON.stringify(result.structuredContent);
  return ((result.content as { text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('\n');
}

/**
 * A model pages audit_report by its next_offset. The recorded offsets are the baseline's, so a call that
 * went on from the previous page's next_offset in the baseline goes on from this server's next_offset
 * (and is not made when this server's pass had already ended): `continues[i]` marks those calls.
 */
interface Replayed {
  chars: Record<string, number>;
  errors: boolean[];
  /** Characters shown per call index (0 for a call not made). */
  perCall: number[];
  /** audit_report's next_offset per call index. */
  next: (number | undefined)[];
  /** All calls' characters as Claude Code passes them (compact JSON). */
  compactChars: number;
}

/**
 * A recording made on a later server, replayed against the baseline: the same research steps as the baseline
 * could take them. Inputs it did not have are dropped (the outline reader, the passage count), and calls of
 * tools it did not have are not made (they count 0 for it; the current server pays for them).
 */
const BASELINE_LACKS: { tools: Set<string>; args: Record<string, string[]> } = {
  tools: new Set(['coverage_report', 'search_sources']),
  args: { fetch_source: ['thread'], audit_report: ['passages'] },
};
function forBaseline(call: Call): Call | undefined {
  if (BASELINE_LACKS.tools.has(call.tool) || call.args.path !== undefined) return undefined;
  const args = { ...call.args };
  for (const a of BASELINE_LACKS.args[call.tool] ?? []) delete args[a];
  return { ...call, args };
}

async function replayOne(entry: string, rec: { dir: string; calls: Call[] }, port: number, continues: readonly boolean[] = [], adapt: (c: Call) => Call | undefined = (c) => c): Promise<Replayed> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'dr-bench-replay-'));
  const hosts = Object.keys(SITES);
  const env = childEnv({
    DEEP_RESEARCH_ALLOW_HOSTS: hosts.map((h) => `${h}:${port}`).join(','),
    DEEP_RESEARCH_RESOLVE: hosts.map((h) => `${h}:${port}:127.0.0.1`).join(','),
    DEEP_RESEARCH_LOG: 'off',
  });
  delete env.DEEP_RESEARCH_ARTIFACTS;
  const client = new StdioClient(process.execPath, [entry], env, work);
  const chars: Record<string, number> = {};
  const errors: boolean[] = [];
  const perCall: number[] = [];
  const next: (number | undefined)[] = [];
  let placed = false;
  let lastAudit: number | undefined;
  let compactChars = 0;
  try {
    await client.initialize();
    client.notify('notifications/initialized');
    for (const [i, asRecorded] of rec.calls.entries()) {
      // A call the recording's server refused is made by neither replay: a later server that answers it
      // (a PDF over the old size cap) would store a source the model never saw and shift every later id.
      const recorded = asRecorded.isError === true ? undefined : adapt(asRecorded);
      if (!recorded) {
        errors.push(false);
        perCall.push(0);
        continue;
      }
      let call = recorded;
      if (continues[i] && lastAudit !== undefined) {
        const from = next[lastAudit];
        lastAudit = i;
        if (from === undefined) {
          errors.push(false);
          perCall.push(0);
          continue;
        }
        call = { ...recorded, args: { ...recorded.args, offset: from } };
      }
      const runId = call.args.run_id;
      if (!placed && READS_REPORT.has(call.tool) && typeof runId === 'string') {
        // What the model wrote with its file tools (report.md) goes where it wrote it.
        const files = path.join(rec.dir, 'run');
        if (fs.existsSync(files)) {
          const into = path.join(work, 'artifacts', runId);
          fs.cpSync(files, into, { recursive: true });
          // The replay serves the trial web on a port: the URLs the report lists are the stored ones there.
          for (const f of fs.readdirSync(into).filter((n) => n.endsWith('.md'))) {
            const file = path.join(into, f);
            let text = fs.readFileSync(file, 'utf8');
            for (const host of Object.keys(SITES)) text = text.split(`http://${host}/`).join(`http://${host}:${port}/`);
            fs.writeFileSync(file, text);
          }
        }
        placed = true;
      }
      const r = (await client.callTool(call.tool, withPort(call.args, port) as Record<string, unknown>)) as Record<string, unknown>;
      const text = shown(r).split(`:${port}/`).join('/');
      if (process.env.DEEP_RESEARCH_REPLAY_DUMP) fs.appendFileSync(process.env.DEEP_RESEARCH_REPLAY_DUMP, `=== ${path.basename(rec.dir)} ${entry === ourServer().entry ? "cur" : "old"} ${i + 1} ${call.tool}\n${text}\n`);
      chars[call.tool] = (chars[call.tool] ?? 0) + text.length;
      errors.push(r.isError === true);
      perCall.push(text.length);
      compactChars += compact(r).split(`:${port}/`).join('/').length;
      if (call.tool === 'audit_report') {
        next[i] = (r.structuredContent as { next_offset?: number } | undefined)?.next_offset;
        lastAudit = i;
      }
    }
  } finally {
    await client.close({ kill: true });
    fs.rmSync(work, { recursive: true, force: true });
  }
  return { chars, errors, perCall, next, compactChars };
}

/** Which audit_report calls went on from the previous audit_report's next_offset, in the baseline's replay. */
function continuations(calls: readonly Call[], baseline: Replayed): boolean[] {
  let prev: number | undefined;
  return calls.map((c, i) => {
    if (c.tool !== 'audit_report') return false;
    const goesOn = prev !== undefined && baseline.next[prev] !== undefined && c.args.offset === baseline.next[prev];
    prev = i;
    return goesOn;
  });
}

/** The baseline's bundle, from git, in a folder under the repo so that its imports find node_modules. */
function baselineEntry(): string | undefined {
  const dir = path.join(REPO, 'node_modules', '.cache', `dr-bench-${BASELINE}`);
  const entry = path.join(dir, 'dist', 'server.js');
  if (fs.existsSync(entry)) return entry;
  try {
    fs.mkdirSync(dir, { recursive: true });
    const tar = execFileSync('git', ['-C', REPO, 'archive', '--format=tar', BASELINE, 'dist'], { maxBuffer: 256 << 20 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    return fs.existsSync(entry) ? entry : undefined;
  } catch {
    return undefined;
  }
}

export async function replayFootprint(): Promise<{ rows: Row[]; notes: string[] }> {
  const figure = (name: string) => `replay footprint: ${name} (chars shown, all calls)`;
  const recs = recordings();
  const ours = ourServer();
  const base = baselineEntry();
  const why = recs.length === 0 ? `no recordings in bench/replays` : !fs.existsSync(path.join(DOCS, 'git-doc')) ? `no documentation corpus at ${DOCS} (DEEP_RESEARCH_REPLAY_DOCS; apt-get install python3-doc git-doc debian-policy)` : !ours.present ? 'no dist/server.js: npm run build' : !base ? `the ${BASELINE} bundle could not be read from git` : undefined;
  if (why) {
    return { rows: [{ figure: figure('recordings'), ours: 'NOT MEASURED', reference: '—', goal: `goal ≤ ${GOAL} × ${BASELINE}`, met: null, because: why }], notes: [] };
  }
  const server = await serveCorpus();
  const port = (server.address() as AddressInfo).port;
  const rows: Row[] = [];
  const notes: string[] = [
    `Replay footprint: each recording in bench/replays/ (tool and arguments of every call of a real-model trial, and the files the model wrote that later calls read) replayed over stdio, one server process per replay, against \`${ours.label}\` and against ${BASELINE} (the commit before issue 23, its dist/ from git), serving the pages from ${DOCS} (DEEP_RESEARCH_REPLAY_DOCS). Counted as the trial bridge counts what the model is shown: JSON.stringify(structuredContent, null, 1), or the text of an error.`,
  ];
  try {
    for (const rec of recs) {
      const old = await replayOne(base as string, rec, port, [], forBaseline);
      const cur = await replayOne(ours.entry, rec, port, continuations(rec.calls, old));
      const recorded: Record<string, number> = {};
      for (const c of rec.calls) recorded[c.tool] = (recorded[c.tool] ?? 0) + c.reply_chars;
      const diverged = rec.calls.flatMap((c, i) => (cur.errors[i] !== old.errors[i] ? [`#${i + 1} ${c.tool}`] : []));
      const ratio = total(cur.chars) / total(old.chars);
      // A call one server refused is not the same step in both: the ratio over calls both answered is given
      // beside the all-calls one (which stays the goal's figure).
      const both = rec.calls.flatMap((_, i) => (!cur.errors[i] && !old.errors[i] ? [i] : []));
      const sum = (r: Replayed) => both.reduce((a, i) => a + (r.perCall[i] ?? 0), 0);
      const bothRatio = sum(old) > 0 ? sum(cur) / sum(old) : NaN;
      rows.push({
        figure: figure(rec.name),
        ours: `${int(total(cur.chars))} chars (${int(total(cur.chars) / 4)} tok)`,
        reference: `${BASELINE}: ${int(total(old.chars))}; recorded: ${int(total(recorded))}`,
        goal: `${ratio.toFixed(2)} × ${BASELINE} (goal ≤ ${GOAL})${diverged.length ? `; ${bothRatio.toFixed(2)} over the ${both.length} calls both answered without error` : ''}`,
        met: ratio <= GOAL,
        ...(ratio > GOAL ? { because: `${ratio.toFixed(2)} > ${GOAL}` } : {}),
      });
      notes.push('', `${rec.name}: ${rec.calls.length} calls${diverged.length ? `; error in one server only: ${diverged.join(', ')}` : ''}`, '', '| tool | calls | current | ' + BASELINE + ' | recorded |', '|---|---|---|---|---|');
      for (const tool of [...new Set(rec.calls.map((c) => c.tool))].sort()) {
        const n = rec.calls.filter((c) => c.tool === tool).length;
        notes.push(`| ${tool} | ${n} | ${int(cur.chars[tool] ?? 0)} | ${int(old.chars[tool] ?? 0)} | ${int(recorded[tool] ?? 0)} |`);
      }
      notes.push(`| total | ${rec.calls.length} | ${int(total(cur.chars))} | ${int(total(old.chars))} | ${int(total(recorded))} |`);
      notes.push(`| total as Claude Code passes it (compact JSON) | ${rec.calls.length} | ${int(cur.compactChars)} (${int(cur.compactChars / 4)} tok) | ${int(old.compactChars)} | — |`);
      if (process.env.DEEP_RESEARCH_REPLAY_PERCALL) {
        // Per call, to find where the characters go (not in the published results).
        notes.push('', '| # | tool | current | ' + BASELINE + ' | arguments |', '|---|---|---|---|---|');
        for (const [i, c] of rec.calls.entries()) notes.push(`| ${i + 1} | ${c.tool} | ${int(cur.perCall[i] ?? 0)} | ${int(old.perCall[i] ?? 0)} | ${JSON.stringify(c.args).replace(/\|/g, '/').slice(0, 120)} |`);
      }
      if (diverged.length) notes.push(`| calls both answered without error | ${both.length} | ${int(sum(cur))} | ${int(sum(old))} | — |`, '', `${rec.name}: ratio ${ratio.toFixed(2)} over all calls, ${bothRatio.toFixed(2)} over the ${both.length} calls both servers answered without error.`);
    }
  } finally {
    server.close();
  }
  return { rows, notes };
}
