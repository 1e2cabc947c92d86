// Installs the pack into Claude Code without the plugin system, so that a plain `/deep-research` runs ours:
// a project or user command of that name overrides the built-in workflow, while a plugin command is only
// reachable as `/deep-research:deep-research`. The installer owns entries, not files: it adds its own
// command, agent and skill files (each marked), and one `deep-research` server entry in the MCP config, and
// uninstall takes out exactly those, leaving every other byte of the user's files as it found them.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { JsonEditError, hasObject, insertProperty, propertyCount, readValue, removeProperty } from './json-entry.js';
import {
  dirRecorder,
  exists,
  hasMarker,
  makeDirs,
  MARKER,
  readManifest,
  readText,
  removeDirIfEmpty,
  removeRecorded,
  portablePath,
  removeUnrecorded,
  reporter,
  withMarker,
  writeAtomic,
  writeOwnedFiles,
} from './owned-files.js';
import type { Manifest } from './owned-files.js';
import type { Target, TargetContext } from './types.js';
import { serverEnvOf } from './server-env.js';

export const SERVER_NAME = 'deep-research';

/** JSON equality by value; jsonc-parser builds prototype-less objects, so deep-strict equality would fail. */
function sameJson(a: unknown, b: unknown): boolean {
  const canon = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canon)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon((v as Record<string, unknown>)[k])]))
        : v;
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
}
const MANIFEST_NAME = '.deep-research-install.json';

interface Layout {
  /** Paths in messages and in the manifest are relative to this directory. */
  base: string;
  /** The .claude directory (or CLAUDE_CONFIG_DIR) that holds commands/, agents/ and skills/. */
  claudeDir: string;
  /** Where the MCP server is registered: .mcp.json for a project, ~/.claude.json for the user. */
  mcpFile: string;
  manifestFile: string;
  scopeFlag: string;
}

function layout(ctx: TargetContext): Layout {
  if (ctx.scope.kind === 'project') {
    const base = ctx.scope.dir;
    const claudeDir = path.join(base, '.claude');
    return {
      base,
      claudeDir,
      mcpFile: path.join(base, '.mcp.json'),
      manifestFile: path.join(claudeDir, MANIFEST_NAME),
      scopeFlag: 'project',
    };
  }
  // Where `claude mcp add --scope user` writes: ~/.claude.json, or .claude.json inside CLAUDE_CONFIG_DIR.
  const claudeDir = ctx.claudeConfigDir ?? path.join(ctx.home, '.claude');
  const mcpFile = ctx.claudeConfigDir ? path.join(ctx.claudeConfigDir, '.claude.json') : path.join(ctx.home, '.claude.json');
  return { base: ctx.home, claudeDir, mcpFile, manifestFile: path.join(claudeDir, MANIFEST_NAME), scopeFlag: 'user' };
}

interface Wanted {
  rel: string;
  abs: string;
  content: string;
}

async function listMarkdown(dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir)).filter((f) => f.endsWith('.md')).sort();
  } catch {
    return [];
  }
}

async function markdownTree(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of (await fs.readdir(path.join(dir, prefix), { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const rel = path.join(prefix, e.name);
    if (e.isDirectory()) out.push(...(await markdownTree(dir, rel)));
    else if (e.isFile() && e.name.endsWith('.md')) out.push(rel);
  }
  return out;
}

/**
 * The files to install: commands, agents and skills. They keep the plugin's layout under the .claude
 * folder, so the plugin-root variable becomes that folder, named without a path of this machine
 * (`.claude` in a project, `~/.claude` for the user).
 */
async function wantedFiles(ctx: TargetContext, lay: Layout): Promise<Wanted[]> {
  const root = portablePath(ctx, lay.claudeDir);
  const render = (raw: string) => withMarker(raw.split('${CLAUDE_PLUGIN_ROOT}').join(root));
  const out: Wanted[] = [];
  const add = async (src: string, dest: string) => {
    const raw = await fs.readFile(src, 'utf8');
    out.push({ abs: dest, rel: path.relative(lay.base, dest), content: render(raw) });
  };
  for (const kind of ['commands', 'agents']) {
    for (const f of await listMarkdown(path.join(ctx.packRoot, kind))) {
      await add(path.join(ctx.packRoot, kind, f), path.join(lay.claudeDir, kind, f));
    }
  }
  let skills: string[] = [];
  try {
    skills = (await fs.readdir(path.join(ctx.packRoot, 'skills'))).sort();
  } catch {
    skills = [];
  }
  // A skill is copied whole, so the references its SKILL.md links relatively are there too.
  for (const s of skills) {
    const srcDir = path.join(ctx.packRoot, 'skills', s);
    if (!(await exists(path.join(srcDir, 'SKILL.md')))) continue;
    for (const rel of await markdownTree(srcDir)) await add(path.join(srcDir, rel), path.join(lay.claudeDir, 'skills', s, rel));
  }
  if (!out.some((w) => path.basename(w.abs) === 'deep-research.md')) {
    throw new Error(`${ctx.packRoot} has no commands/deep-research.md: is this a deep-research clone?`);
  }
  return out;
}

function serverEntry(ctx: TargetContext): { type: string; command: string; args: string[]; env?: Record<string, string> } {
  return { type: 'stdio', command: 'node', args: [path.join(ctx.packRoot, 'dist', 'server.js')], ...serverEnvOf(ctx, 'env') };
}

function emptyManifest(): Manifest {
  return { version: 1, target: 'claude', created_dirs: [], files: {} };
}

// The manifest lives under .claude/, which holds no path of this machine (it may be committed), yet its record of
// the MCP entry holds the server's absolute path. So that path is written as a placeholder and read back from
// the entry itself, which .mcp.json or ~/.claude.json keeps anyway.
const SERVER_PATH = '<path of dist/server.js>';

function swapInStrings(v: unknown, from: string, to: string): unknown {
  if (typeof v === 'string') return v.split(JSON.stringify(from).slice(1, -1)).join(JSON.stringify(to).slice(1, -1)).split(from).join(to);
  if (Array.isArray(v)) return v.map((x) => swapInStrings(x, from, to));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, swapInStrings(x, from, to)]));
  return v;
}

function manifestText(m: Manifest, serverPath: string): string {
  // pack_root was written by earlier versions and never read; it named the clone's absolute path.
  const { pack_root: _unused, ...rest } = m as Manifest & { pack_root?: string };
  const portable = rest.mcp ? { ...rest, mcp: swapInStrings(rest.mcp, serverPath, SERVER_PATH) } : rest;
  return `${JSON.stringify(portable, null, 2)}\n`;
}

/** The manifest with its MCP record's placeholder replaced by the server path the registered entry names. */
function withServerPath(m: Manifest | undefined, mcpText: string | undefined): Manifest | undefined {
  if (m?.mcp === undefined || mcpText === undefined) return m;
  let current: unknown;
  try {
    current = readValue(mcpText, ['mcpServers', SERVER_NAME], m.mcp.file);
  } catch {
    return m;
  }
  const named = (current as { args?: unknown } | undefined)?.args;
  const serverPath = Array.isArray(named) && typeof named[0] === 'string' ? named[0] : undefined;
  return serverPath === undefined ? m : { ...m, mcp: swapInStrings(m.mcp, SERVER_PATH, serverPath) as Manifest['mcp'] };
}

async function install(ctx: TargetContext, lay: Layout): Promise<number> {
  const old = withServerPath(await readManifest(lay.manifestFile), await readText(lay.mcpFile));
  const wanted = await wantedFiles(ctx, lay);
  const problems: string[] = [];
  const rep = reporter(ctx, lay.base);

  // Plan everything first: a refusal must leave every file untouched.
  const writes: Wanted[] = [];
  for (const w of wanted) {
    const cur = await readText(w.abs);
    if (cur === undefined || (hasMarker(cur) && cur !== w.content)) writes.push(w);
    else if (!hasMarker(cur)) {
      problems.push(`${rep.show(w.rel)} already exists and was not written by deep-research install; move it away, then run this again.`);
    }
  }
  const wantedRels = new Set(wanted.map((w) => w.rel));
  const stale = Object.keys(old?.files ?? {}).filter((rel) => !wantedRels.has(rel));

  const entry = serverEntry(ctx);
  const mcpRel = path.relative(lay.base, lay.mcpFile);
  const mcpText = await readText(lay.mcpFile);
  let mcpPlan: 'insert' | 'replace' | 'keep' | 'foreign-same' = 'insert';
  try {
    const current = mcpText === undefined ? undefined : readValue(mcpText, ['mcpServers', SERVER_NAME], mcpRel);
    if (mcpText !== undefined && !hasObject(mcpText, [], mcpRel)) {
      problems.push(`${mcpRel}: its top level is not a JSON object.`);
    } else if (current === undefined) {
      mcpPlan = 'insert';
    } else if (old?.mcp !== undefined && sameJson(current, old.mcp.value)) {
      mcpPlan = sameJson(current, entry) ? 'keep' : 'replace';
    } else if (sameJson(current, entry)) {
      mcpPlan = 'foreign-same';
    } else {
      problems.push(
        `${mcpRel} already has an MCP server named "${SERVER_NAME}" that deep-research install did not write; ` +
          `remove it (claude mcp remove ${SERVER_NAME} --scope ${lay.scopeFlag}), then run this again.`,
      );
    }
  } catch (err) {
    if (!(err instanceof JsonEditError)) throw err;
    problems.push(err.message);
  }
  if (problems.length > 0) {
    for (const p of problems) ctx.err(`deep-research: ${p}`);
    ctx.err('deep-research: nothing was changed.');
    return 1;
  }

  const next: Manifest = old ? { ...old, files: { ...old.files }, created_dirs: [...old.created_dirs] } : emptyManifest();
  const noteDirs = dirRecorder(lay.base, next);
  try {
    await writeOwnedFiles(rep, { base: lay.base, rootDir: lay.claudeDir, writes, wanted, stale, old, next, noteDirs });

    if (mcpPlan === 'replace' || mcpPlan === 'insert') {
      let text = mcpText;
      let createdFile = old?.mcp?.created_file ?? false;
      let createdContainer = old?.mcp?.created_container ?? false;
      if (mcpPlan === 'replace' && text !== undefined && old?.mcp !== undefined) {
        text = removeEntry(text, old.mcp, mcpRel).text;
      }
      if (text === undefined) {
        text = '{}\n';
        createdFile = true;
      }
      let inserted;
      if (hasObject(text, ['mcpServers'], mcpRel)) {
        inserted = insertProperty(text, ['mcpServers'], SERVER_NAME, entry, mcpRel);
        createdContainer = createdContainer && propertyCount(text, ['mcpServers'], mcpRel) === 0;
      } else {
        inserted = insertProperty(text, [], 'mcpServers', { [SERVER_NAME]: entry }, mcpRel);
        createdContainer = true;
      }
      if (mcpText === undefined) noteDirs(await makeDirs(path.dirname(lay.mcpFile)));
      await writeAtomic(lay.mcpFile, inserted.text);
      next.mcp = {
        file: mcpRel,
        created_file: createdFile,
        created_container: createdContainer,
        value: entry,
        insertion: inserted.insertion,
      };
      ctx.out(`registered MCP server "${SERVER_NAME}" in ${rep.show(mcpRel)}: node ${entry.args[0]}`);
    } else if (mcpPlan === 'foreign-same') {
      ctx.out(`${rep.show(mcpRel)} already registers "${SERVER_NAME}" the same way; left as it is (uninstall will not remove it)`);
    }
  } finally {
    const text = manifestText(next, entry.args[0]!);
    if ((await readText(lay.manifestFile)) !== text) await writeAtomic(lay.manifestFile, text);
  }

  if (!(await exists(entry.args[0] ?? ''))) {
    ctx.err(`deep-research: warning: ${entry.args[0]} does not exist yet; build it (npm run build) before starting Claude Code.`);
  }
  if (writes.length === 0 && (mcpPlan === 'keep' || mcpPlan === 'foreign-same')) ctx.out('already installed; nothing to change');
  const where = ctx.scope.kind === 'project' ? `in ${ctx.scope.dir}` : 'in every project';
  ctx.out(`done: /deep-research "question" now runs deep-research ${where}.`);
  if (ctx.scope.kind === 'project') ctx.out('Claude Code asks once to approve the project MCP server from .mcp.json.');
  return 0;
}

function removeEntry(text: string, mcp: NonNullable<Manifest['mcp']>, file: string): { text: string; exact: boolean } {
  // The container we created goes as a whole when our entry is all it holds; otherwise just our entry.
  if (mcp.created_container && propertyCount(text, ['mcpServers'], file) === 1) {
    return removeProperty(text, [], 'mcpServers', file, mcp.insertion);
  }
  return removeProperty(text, ['mcpServers'], SERVER_NAME, file, mcp.created_container ? undefined : mcp.insertion);
}

async function uninstall(ctx: TargetContext, lay: Layout): Promise<number> {
  const rep = reporter(ctx, lay.base);
  const recorded = await readManifest(lay.manifestFile);
  const m = recorded?.mcp ? withServerPath(recorded, await readText(path.resolve(lay.base, recorded.mcp.file))) : recorded;
  if (m === undefined) {
    await removeUnrecorded(rep, await wantedFiles(ctx, lay), 'MCP config left as it is');
    return 0;
  }
  const removed = await removeRecorded(rep, lay.base, m.files);
  const left: Manifest = { ...m, files: removed.left, created_dirs: [...m.created_dirs] };
  delete left.mcp;
  let incomplete = removed.incomplete;

  if (m.mcp !== undefined) {
    const file = path.resolve(lay.base, m.mcp.file);
    const text = await readText(file);
    if (text !== undefined) {
      try {
        const current = readValue(text, ['mcpServers', SERVER_NAME], m.mcp.file);
        if (current === undefined) {
          ctx.out(`${rep.show(m.mcp.file)} no longer registers "${SERVER_NAME}"`);
        } else if (!sameJson(current, m.mcp.value)) {
          ctx.err(`deep-research: left the "${SERVER_NAME}" entry in ${rep.show(m.mcp.file)}: it was changed after install.`);
          incomplete = true;
        } else {
          const out = removeEntry(text, m.mcp, m.mcp.file).text;
          if (m.mcp.created_file && out.trim() === '{}') {
            await fs.rm(file);
            ctx.out(`removed ${rep.show(m.mcp.file)}`);
          } else {
            await writeAtomic(file, out);
            ctx.out(`unregistered MCP server "${SERVER_NAME}" from ${rep.show(m.mcp.file)}`);
          }
        }
      } catch (err) {
        if (!(err instanceof JsonEditError)) throw err;
        ctx.err(`deep-research: ${err.message}`);
        left.mcp = m.mcp;
        incomplete = true;
      }
    }
  }

  if (incomplete) {
    await writeAtomic(lay.manifestFile, manifestText(left, serverEntry(ctx).args[0]!));
  } else {
    await fs.rm(lay.manifestFile, { force: true });
  }
  // Deepest first, and only directories that are empty now: anything the user put there keeps them.
  const dirs = [...m.created_dirs].sort((a, b) => b.length - a.length);
  for (const rel of dirs) await removeDirIfEmpty(path.resolve(lay.base, rel));
  ctx.out(incomplete ? 'uninstalled, except what is listed above' : 'uninstalled');
  return incomplete ? 1 : 0;
}

export const claudeTarget: Target = {
  name: 'claude',
  async run(ctx) {
    const lay = layout(ctx);
    return ctx.action === 'install' ? install(ctx, lay) : uninstall(ctx, lay);
  },
};

export { MARKER };
