// Runs the real, pinned Claude Code binary (.ci/tools, installed by .ci/install-claude.sh) against the fake
// Messages API, always under `timeout`, in its own process group so a test can kill the whole tree.
// Missing binary or bundle: the test fails loudly; it never skips.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const CLAUDE = path.join(REPO, '.ci', 'tools', 'node_modules', '.bin', 'claude');
export const SERVER_JS = path.join(REPO, 'dist', 'server.js');
export const CLI_JS = path.join(REPO, 'dist', 'cli.js');
export const PINNED = '2.1.328';

export function requireBinaries(): void {
  if (!fs.existsSync(CLAUDE)) {
    throw new Error(
      `${CLAUDE} is missing. Install the pinned Claude Code with \`bash .ci/install-claude.sh\` ` +
        `(or \`npm install --prefix .ci/tools @anthropic-ai/claude-code@${PINNED}\`); the end-to-end tests never skip.`,
    );
  }
  if (!fs.existsSync(SERVER_JS)) throw new Error(`${SERVER_JS} is missing: run \`npm run build\``);
  const version = execFileSync(CLAUDE, ['--version'], { encoding: 'utf8', timeout: 30_000 }).trim();
  if (!version.startsWith(PINNED)) throw new Error(`${CLAUDE} is ${version}; the end-to-end tests are written against the pinned ${PINNED}`);
}

const created: string[] = [];

/** Removes the temporary folders this test file made (kept with DEEP_RESEARCH_E2E_KEEP=1, for debugging). */
export function removeTempDirs(): void {
  if (process.env.DEEP_RESEARCH_E2E_KEEP === '1') return;
  for (const d of created.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}

/** A temporary folder; removeTempDirs() (each test file's afterAll) deletes it. */
export function tempDir(prefix: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  created.push(d);
  return d;
}

export interface StreamEvent {
  type: string;
  subtype?: string;
  [k: string]: unknown;
}

export interface ClaudeResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  events: StreamEvent[];
  ms: number;
  killed: boolean;
}

export interface ClaudeRun {
  pid: number;
  done: Promise<ClaudeResult>;
  /** SIGKILL to the whole process group: claude, its MCP server, everything it started. */
  kill(): void;
}

export interface ClaudeOptions {
  args: string[];
  cwd: string;
  home: string;
  apiUrl: string;
  env?: Record<string, string>;
  timeoutSeconds?: number;
}

export function startClaude(o: ClaudeOptions): ClaudeRun {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: o.home,
    ANTHROPIC_BASE_URL: o.apiUrl,
    ANTHROPIC_API_KEY: 'dummy',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DEEP_RESEARCH_LOG: 'off',
    ...o.env,
  };
  const started = performance.now();
  const child = spawn('timeout', ['-k', '10', String(o.timeoutSeconds ?? 240), CLAUDE, '-p', ...o.args, '--output-format', 'stream-json', '--verbose'], {
    cwd: o.cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let killed = false;
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<ClaudeResult>((resolve) => {
    child.on('close', (code, signal) => {
      const events: StreamEvent[] = [];
      for (const line of stdout.split('\n')) {
        if (!line.startsWith('{')) continue;
        try {
          events.push(JSON.parse(line) as StreamEvent);
        } catch {
          // a torn last line after a kill
        }
      }
      resolve({ code, signal, stdout, stderr, events, ms: performance.now() - started, killed });
    });
  });
  return {
    pid: child.pid!,
    done,
    kill: () => {
      killed = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    },
  };
}

/** What every scenario checks in the stream: the server connected, nothing denied, no tool missing. */
export interface StreamFacts {
  mcpServers: { name: string; status: string }[];
  permissionDenials: unknown[];
  results: StreamEvent[];
  toolErrors: string[];
  /** Text of every tool_result the stream shows, per tool_use name. */
  toolResults: { name: string; text: string; isError: boolean }[];
}

export function streamFacts(events: StreamEvent[]): StreamFacts {
  const init = events.find((e) => e.type === 'system' && e.subtype === 'init') as { mcp_servers?: { name: string; status: string }[] } | undefined;
  const results = events.filter((e) => e.type === 'result');
  const names = new Map<string, string>();
  const toolResults: StreamFacts['toolResults'] = [];
  for (const e of events) {
    const msg = e.message as { content?: unknown } | undefined;
    if (!msg || !Array.isArray(msg.content)) continue;
    for (const b of msg.content as Record<string, unknown>[]) {
      if (b.type === 'tool_use') names.set(String(b.id), String(b.name));
      if (b.type === 'tool_result') {
        const c = b.content;
        const text = typeof c === 'string' ? c : Array.isArray(c) ? (c as { type: string; text?: string }[]).map((x) => x.text ?? '').join('\n') : '';
        toolResults.push({ name: names.get(String(b.tool_use_id)) ?? '?', text, isError: b.is_error === true });
      }
    }
  }
  const toolErrors = toolResults
    .filter((r) => /haven't granted|No such tool available|InputValidationError|permission/i.test(r.text) && r.isError)
    .map((r) => `${r.name}: ${r.text.slice(0, 300)}`);
  return {
    mcpServers: init?.mcp_servers ?? [],
    permissionDenials: results.flatMap((r) => (r.permission_denials as unknown[] | undefined) ?? []),
    results,
    toolErrors,
    toolResults,
  };
}
