// `deep-research install|uninstall (--project <dir> | --user) [--target claude]`: puts the pack's commands
// where an agent CLI reads them un-namespaced and registers this clone's server with it. The work for each
// agent CLI lives in its own module under ./targets/.
import { existsSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCAL_ROOTS_ENV, ROOTS_SEPARATOR, parseRoots } from '../local/roots.js';
import { targets } from './targets/index.js';
import type { Scope } from './targets/types.js';

export interface InstallEnv {
  home?: string;
  cwd?: string;
  /** Claude Code's CLAUDE_CONFIG_DIR; taken from the process only when `home` is not given. */
  claudeConfigDir?: string;
  /** CODEX_HOME, XDG_CONFIG_HOME and the like; taken from the process only when `home` is not given. */
  vars?: Record<string, string | undefined>;
  /** The deep-research clone to install from; found from this module's location when absent. */
  packRoot?: string;
  out?: (line: string) => void;
  err?: (line: string) => void;
}

const USAGE = `usage:
  deep-research install   --project <dir> | --user   [--target claude|gemini|codex|opencode] [--local-root [name=]DIR]...
  deep-research uninstall --project <dir> | --user   [--target claude|gemini|codex|opencode]

install puts the deep-research commands where the agent CLI reads them and registers this clone's MCP
server in its config (default target: claude):
  claude    <dir>/.claude and <dir>/.mcp.json, or ~/.claude and ~/.claude.json
  gemini    <dir>/.gemini (commands, agents, skills, settings.json), or ~/.gemini
  codex     <dir>/.codex (skills, config.toml; read once the project is trusted), or $CODEX_HOME (~/.codex)
  opencode  <dir>/.opencode and <dir>/opencode.json, or ~/.config/opencode
--local-root allows the server to read DIR's PDF, HTML, Markdown, text and DOCX files as sources, named
local:<name>/… (name defaults to DIR's base name); give it once per folder. It is written into the server
entry as DEEP_RESEARCH_LOCAL_ROOTS; install again without it to take it out.
uninstall removes exactly what install added.`;

/**
 * The clone's root: the nearest directory above this module that holds the plugin manifest. Bundled, this
 * module is dist/cli.js and the root is the parent of dist/; from source it is two levels further up.
 */
export function findPackRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = path.resolve(from);
  for (;;) {
    if (existsSync(path.join(dir, '.claude-plugin', 'plugin.json')) && existsSync(path.join(dir, 'commands'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the deep-research clone above ${from}`);
    dir = parent;
  }
}

interface Parsed {
  action: 'install' | 'uninstall';
  scope: { kind: 'project'; dir: string } | { kind: 'user' };
  target: string;
  /** `name=DIR` or `DIR` as given, each DIR made absolute. */
  localRoots: string[];
}

function parseArgs(argv: string[], cwd: string): Parsed | string {
  const [verb, ...rest] = argv;
  if (verb !== 'install' && verb !== 'uninstall') return `unknown command "${verb ?? ''}"`;
  let project: string | undefined;
  let user = false;
  let target = 'claude';
  const localRoots: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? '';
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string | undefined => inline ?? rest[++i];
    if (flag === '--project') {
      const v = value();
      if (v === undefined || v === '') return '--project needs a directory';
      project = v;
    } else if (flag === '--user') {
      user = true;
    } else if (flag === '--target') {
      const v = value();
      if (v === undefined || v === '') return '--target needs a name';
      target = v;
    } else if (flag === '--local-root') {
      const v = value();
      if (v === undefined || v === '') return '--local-root needs a directory';
      if (verb === 'uninstall') return '--local-root is for install; uninstall removes the entry with whatever it was given';
      const eq = /^([^=\\/]{1,64})=(.+)$/.exec(v);
      localRoots.push(eq ? `${eq[1]}=${path.resolve(cwd, eq[2]!)}` : path.resolve(cwd, v));
    } else {
      return `unknown option "${arg}"`;
    }
  }
  if ((project === undefined) === !user) return 'give exactly one of --project <dir> or --user';
  const scope: Scope = project !== undefined ? { kind: 'project', dir: path.resolve(cwd, project) } : { kind: 'user' };
  return { action: verb, scope, target, localRoots };
}

export async function runInstall(argv: string[], env: InstallEnv = {}): Promise<number> {
  const out = env.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const err = env.err ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (argv.includes('--help') || argv.includes('-h')) {
    out(USAGE);
    return 0;
  }
  const parsed = parseArgs(argv, env.cwd ?? process.cwd());
  if (typeof parsed === 'string') {
    err(`deep-research: ${parsed}\n${USAGE}`);
    return 2;
  }
  const target = targets.get(parsed.target);
  if (target === undefined) {
    err(`deep-research: unknown target "${parsed.target}"; known targets: ${[...targets.keys()].join(', ')}`);
    return 2;
  }
  if (parsed.scope.kind === 'project') {
    const dir = parsed.scope.dir;
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      err(`deep-research: ${dir} is not a directory`);
      return 2;
    }
  }
  let serverEnv: Record<string, string> | undefined;
  if (parsed.localRoots.length > 0) {
    // Checked as the server will read it, so a mistake shows now rather than as a refusal mid-run.
    const value = parsed.localRoots.join(ROOTS_SEPARATOR);
    const roots = parseRoots(value);
    if (!roots.ok) {
      err(`deep-research: --local-root: ${roots.reason.replace(`${LOCAL_ROOTS_ENV}: `, '').replace(/; the user /, '; ')}`);
      return 2;
    }
    serverEnv = { [LOCAL_ROOTS_ENV]: value };
  }
  const home = env.home ?? os.homedir();
  const claudeConfigDir = env.claudeConfigDir ?? (env.home === undefined ? process.env.CLAUDE_CONFIG_DIR || undefined : undefined);
  const vars = env.vars ?? (env.home === undefined ? { CODEX_HOME: process.env.CODEX_HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME } : {});
  try {
    const packRoot = env.packRoot ?? findPackRoot();
    return await target.run({ action: parsed.action, scope: parsed.scope, home, claudeConfigDir, vars, packRoot, out, err, ...(serverEnv ? { serverEnv } : {}) });
  } catch (e) {
    err(`deep-research: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}
