// Shared by the real-CLI tests: where the pinned binaries are, a clean environment for them, a bounded
// runner, the installer, and temp folders that are removed afterwards.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVER = path.join(REPO, 'dist', 'server.js');
const TOOLS = path.join(REPO, '.ci', 'tools');

/** The versions .ci/cli-checks.sh installs; the tests refuse to run against anything else. */
export const PINNED = {
  gemini: { pkg: '@google/gemini-cli', version: '0.61.0', bin: path.join(TOOLS, 'gemini', 'node_modules', '.bin', 'gemini'), versionLine: /^0\.61\.0$/m },
  codex: { pkg: '@openai/codex', version: '0.169.0', bin: path.join(TOOLS, 'codex', 'node_modules', '.bin', 'codex'), versionLine: /^codex-cli 0\.169\.0$/m },
  opencode: { pkg: 'opencode-ai', version: '1.18.33', bin: path.join(TOOLS, 'opencode', 'node_modules', '.bin', 'opencode'), versionLine: /^1\.18\.33$/m },
} as const;

/** The pinned binary, or a thrown error that says how to install it. Never a skip. */
export function requireCli(name: keyof typeof PINNED): string {
  const p = PINNED[name];
  if (!existsSync(p.bin)) {
    throw new Error(`${p.bin} is missing: run \`bash .ci/cli-checks.sh\` to install ${p.pkg}@${p.version} into .ci/tools`);
  }
  // A HOME of its own: some CLIs create their config folder even for --version.
  const r = spawnSync(p.bin, ['--version'], { env: baseEnv(tmp(`dr-${name}-version-`)), encoding: 'utf8', timeout: 60_000 });
  if (!p.versionLine.test(`${r.stdout}`)) {
    throw new Error(`${p.bin} --version printed ${JSON.stringify(`${r.stdout}${r.stderr}`.trim())}, not ${p.version}: run \`bash .ci/cli-checks.sh\``);
  }
  if (!existsSync(path.join(REPO, 'dist', 'cli.js')) || !existsSync(SERVER)) throw new Error('dist/ is missing: run `npm run build`');
  return p.bin;
}

/** Nothing from the developer's environment but PATH (with this node first) and the locale. */
export function baseEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: home,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    CI: 'true',
    DEEP_RESEARCH_LOG: 'off',
    ...extra,
  };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  ms: number;
}

/** Runs a command with a hard time limit; the whole process group is killed when it is exceeded. */
export function run(cmd: string, args: string[], opts: { cwd: string; env: Record<string, string>; timeoutMs: number; input?: string }): Promise<RunResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(opts.input ?? '');
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, opts.timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut, ms: Date.now() - started });
    });
  });
}

/** `node dist/cli.js <args>`, the installer exactly as a user runs it. */
export async function deepResearch(args: string[], env: Record<string, string>, cwd: string): Promise<RunResult> {
  const r = await run(process.execPath, [path.join(REPO, 'dist', 'cli.js'), ...args], { cwd, env, timeoutMs: 60_000 });
  if (r.code !== 0) throw new Error(`deep-research ${args.join(' ')} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
  return r;
}

const made: string[] = [];
export function tmp(prefix: string): string {
  const d = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(d);
  return d;
}
export function cleanup(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** Strips ANSI colour codes, which some CLIs print even with NO_COLOR. */
export function plain(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\u001b\[[0-9;]*m/g, '');
}

/** Every string inside a request body, joined by newlines: the text the model is shown. */
export function texts(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(texts).join('\n');
  if (value !== null && typeof value === 'object') return Object.values(value).map(texts).join('\n');
  return '';
}
