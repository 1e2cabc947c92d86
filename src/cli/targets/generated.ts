// Installs the files generated for one agent CLI (targets/<cli>/ in the clone) and registers the server in
// that CLI's config. Like the Claude Code target it owns entries, not files: its own marked files, and one
// server entry, which it edits in as text (jsonc-parser for JSON and JSONC, a marked block for TOML) so that
// every other byte of the user's config survives; uninstall takes out exactly that. Everything is planned
// before anything is written, so a refusal changes nothing.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { JsonEditError, hasObject, insertProperty, propertyCount, readValue, removeProperty } from './json-entry.js';
import type { Insertion } from './json-entry.js';
import {
  dirRecorder,
  exists,
  hasMarker,
  makeDirs,
  MARKER,
  portablePath,
  readText,
  removeDirIfEmpty,
  removeRecorded,
  removeUnrecorded,
  reporter,
  withMarker,
  writeAtomic,
  writeOwnedFiles,
} from './owned-files.js';
import { TomlEditError, appendBlock, parseToml, removeBlock, serverBlock, serverTable } from './toml-block.js';
import type { BlockInsertion } from './toml-block.js';
import type { TargetContext } from './types.js';

export const SERVER_NAME = 'deep-research';
export const SKILLS_PLACEHOLDER = '${DEEP_RESEARCH_SKILLS}';
const MANIFEST_NAME = '.deep-research-install.json';

/** Environment variables of the server that a CLI should pass through when the user sets them. */
export const SERVER_ENV_VARS = ['DEEP_RESEARCH_ARTIFACTS', 'DEEP_RESEARCH_LOG', 'DEEP_RESEARCH_TRACE_FILE'];

export type ConfigSpec =
  | { format: 'json'; file: string; container: string; value: unknown; removeHint: string }
  | { format: 'toml'; file: string; command: string; args: string[]; envVars: string[]; env?: Record<string, string>; removeHint: string };

export interface Layout {
  target: string;
  /** Paths in messages and in the manifest are relative to this directory. */
  base: string;
  /** The CLI's folder that receives the generated files (commands/, agents/, skills/). */
  configDir: string;
  config: ConfigSpec;
  /** Lines printed after a successful install: what to do next. */
  next: string[];
}

interface ConfigRecord {
  file: string;
  created_file: boolean;
  value: unknown;
  json?: { created_container: boolean; insertion: Insertion };
  toml?: BlockInsertion;
}

interface Manifest {
  version: 1;
  target: string;
  created_dirs: string[];
  files: Record<string, { sha256: string }>;
  config?: ConfigRecord;
}

function canon(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canon);
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return Object.fromEntries(Object.keys(o).sort().map((k) => [k, canon(o[k])]));
  }
  return v;
}
function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
}

async function walk(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  let entries;
  try {
    entries = await fs.readdir(path.join(dir, rel), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const r = rel === '' ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory()) out.push(...(await walk(dir, r)));
    else if (e.isFile()) out.push(r);
  }
  return out;
}

interface Wanted {
  rel: string;
  abs: string;
  content: string;
}

/** A marker every generated file carries once installed; TOML gets it as a comment. */
export function markFile(rel: string, content: string): string {
  return rel.endsWith('.toml') ? `# ${MARKER}\n${content}` : withMarker(content);
}

async function wantedFiles(ctx: TargetContext, lay: Layout): Promise<Wanted[]> {
  const src = path.join(ctx.packRoot, 'targets', lay.target);
  const rels = await walk(src);
  if (rels.length === 0) throw new Error(`${src} is missing: is ${ctx.packRoot} a deep-research clone?`);
  // Named without a path of this machine: `.gemini/skills` in a project, `~/.gemini/skills` for the user.
  const skills = portablePath(ctx, path.join(lay.configDir, 'skills'));
  const out: Wanted[] = [];
  for (const r of rels) {
    const raw = await fs.readFile(path.join(src, r), 'utf8');
    const abs = path.join(lay.configDir, ...r.split('/'));
    out.push({ rel: path.relative(lay.base, abs), abs, content: markFile(r, raw.split(SKILLS_PLACEHOLDER).join(skills)) });
  }
  return out;
}

function manifestFile(lay: Layout): string {
  return path.join(lay.configDir, MANIFEST_NAME);
}

async function readManifest(file: string): Promise<Manifest | undefined> {
  const text = await readText(file);
  if (text === undefined) return undefined;
  let m: Partial<Manifest> | null;
  try {
    m = JSON.parse(text) as Partial<Manifest> | null;
  } catch {
    throw new Error(`${file} is not valid JSON. It records what deep-research installed; restore or delete it.`);
  }
  if (m === null || typeof m !== 'object' || m.version !== 1 || typeof m.files !== 'object' || !Array.isArray(m.created_dirs)) {
    throw new Error(`${file} is not a deep-research install manifest this version understands.`);
  }
  return m as Manifest;
}

const manifestText = (m: Manifest) => `${JSON.stringify(m, null, 2)}\n`;

// ---------------------------------------------------------------------------------------------------------
// The server entry.

type ConfigPlan =
  | { kind: 'problem'; message: string }
  | { kind: 'keep' | 'foreign-same' }
  | { kind: 'write'; text: string; record: ConfigRecord };

function expectedValue(spec: ConfigSpec): unknown {
  return spec.format === 'json' ? spec.value : { command: spec.command, args: spec.args, env_vars: spec.envVars, ...(spec.env ? { env: spec.env } : {}) };
}

function planJson(spec: Extract<ConfigSpec, { format: 'json' }>, rel: string, text: string | undefined, old: ConfigRecord | undefined): ConfigPlan {
  const path0 = [spec.container, SERVER_NAME];
  if (text !== undefined && !hasObject(text, [], rel)) return { kind: 'problem', message: `${rel}: its top level is not a JSON object.` };
  const current = text === undefined ? undefined : readValue(text, path0, rel);
  const ours = old?.json !== undefined && current !== undefined && sameValue(current, old.value);
  if (current !== undefined && !ours) {
    if (sameValue(current, spec.value)) return { kind: 'foreign-same' };
    return {
      kind: 'problem',
      message: `${rel} already has a server named "${SERVER_NAME}" that deep-research install did not write; remove it (${spec.removeHint}), then run this again.`,
    };
  }
  if (ours && sameValue(current, spec.value)) return { kind: 'keep' };
  let t = text;
  let createdFile = old?.created_file ?? false;
  let createdContainer = old?.json?.created_container ?? false;
  if (ours && t !== undefined && old?.json !== undefined) t = removeJson(t, spec.container, old.json, rel);
  if (t === undefined) {
    t = '{}\n';
    createdFile = true;
  }
  let ins;
  if (hasObject(t, [spec.container], rel)) {
    createdContainer = createdContainer && propertyCount(t, [spec.container], rel) === 0;
    ins = insertProperty(t, [spec.container], SERVER_NAME, spec.value, rel);
  } else {
    ins = insertProperty(t, [], spec.container, { [SERVER_NAME]: spec.value }, rel);
    createdContainer = true;
  }
  return {
    kind: 'write',
    text: ins.text,
    record: { file: rel, created_file: createdFile, value: spec.value, json: { created_container: createdContainer, insertion: ins.insertion } },
  };
}

function removeJson(text: string, container: string, rec: NonNullable<ConfigRecord['json']>, rel: string): string {
  // A container we created goes as a whole when our entry is all it holds; otherwise just our entry.
  if (rec.created_container && propertyCount(text, [container], rel) === 1) {
    return removeProperty(text, [], container, rel, rec.insertion).text;
  }
  return removeProperty(text, [container], SERVER_NAME, rel, rec.created_container ? undefined : rec.insertion).text;
}

function planToml(spec: Extract<ConfigSpec, { format: 'toml' }>, rel: string, text: string | undefined, old: ConfigRecord | undefined): ConfigPlan {
  const want = expectedValue(spec);
  const block = serverBlock(SERVER_NAME, spec.command, spec.args, spec.envVars, spec.env);
  const current = text === undefined ? undefined : serverTable(parseToml(text, rel), SERVER_NAME);
  const ours = old?.toml !== undefined && text !== undefined && text.includes(old.toml.block);
  if (current !== undefined && !ours) {
    if (sameValue(current, want)) return { kind: 'foreign-same' };
    return {
      kind: 'problem',
      message: `${rel} already has [mcp_servers.${SERVER_NAME}], which deep-research install did not write; remove it (${spec.removeHint}), then run this again.`,
    };
  }
  if (ours && old?.toml?.block === block) return { kind: 'keep' };
  let t = text ?? '';
  const createdFile = old?.created_file ?? text === undefined;
  if (ours && old?.toml !== undefined) t = removeBlock(t, old.toml) ?? t;
  const ins = appendBlock(t, block);
  const after = serverTable(parseToml(ins.text, rel), SERVER_NAME);
  if (!sameValue(after, want)) {
    return {
      kind: 'problem',
      message: `${rel}: the [mcp_servers.${SERVER_NAME}] table appended at the end does not read back as written (is mcp_servers an inline table?); add the server by hand with: codex mcp add ${SERVER_NAME} -- ${spec.command} ${spec.args.join(' ')}`,
    };
  }
  return { kind: 'write', text: ins.text, record: { file: rel, created_file: createdFile, value: want, toml: ins.insertion } };
}

function planConfig(lay: Layout, text: string | undefined, old: ConfigRecord | undefined): ConfigPlan {
  const rel = path.relative(lay.base, lay.config.file);
  try {
    return lay.config.format === 'json' ? planJson(lay.config, rel, text, old) : planToml(lay.config, rel, text, old);
  } catch (err) {
    if (err instanceof JsonEditError || err instanceof TomlEditError) return { kind: 'problem', message: err.message };
    throw err;
  }
}

/** The config text without our entry, or a message saying why it stays. */
function unplanConfig(lay: Layout, text: string, rec: ConfigRecord): { text: string } | { gone: true } | { problem: string } {
  const rel = rec.file;
  try {
    if (rec.json !== undefined && lay.config.format === 'json') {
      const current = readValue(text, [lay.config.container, SERVER_NAME], rel);
      if (current === undefined) return { gone: true };
      if (!sameValue(current, rec.value)) return { problem: `left the "${SERVER_NAME}" entry in ${rel}: it was changed after install.` };
      return { text: removeJson(text, lay.config.container, rec.json, rel) };
    }
    if (rec.toml !== undefined) {
      const out = removeBlock(text, rec.toml);
      if (out === undefined) {
        if (serverTable(parseToml(text, rel), SERVER_NAME) === undefined) return { gone: true };
        return { problem: `left [mcp_servers.${SERVER_NAME}] in ${rel}: its block was changed after install; remove it yourself.` };
      }
      parseToml(out, rel);
      return { text: out };
    }
  } catch (err) {
    if (err instanceof JsonEditError || err instanceof TomlEditError) return { problem: err.message };
    throw err;
  }
  return { gone: true };
}

// ---------------------------------------------------------------------------------------------------------

export async function install(ctx: TargetContext, lay: Layout): Promise<number> {
  const mfile = manifestFile(lay);
  const old = await readManifest(mfile);
  const wanted = await wantedFiles(ctx, lay);
  const problems: string[] = [];
  const rep = reporter(ctx, lay.base);

  const writes: Wanted[] = [];
  for (const w of wanted) {
    const cur = await readText(w.abs);
    if (cur === undefined || (hasMarker(cur) && cur !== w.content)) writes.push(w);
    else if (!hasMarker(cur)) problems.push(`${rep.show(w.rel)} already exists and was not written by deep-research install; move it away, then run this again.`);
  }
  const wantedRels = new Set(wanted.map((w) => w.rel));
  const stale = Object.keys(old?.files ?? {}).filter((rel) => !wantedRels.has(rel));

  const cfgRel = path.relative(lay.base, lay.config.file);
  const cfgText = await readText(lay.config.file);
  const plan = planConfig(lay, cfgText, old?.config);
  if (plan.kind === 'problem') problems.push(plan.message);
  if (problems.length > 0) {
    for (const p of problems) ctx.err(`deep-research: ${p}`);
    ctx.err('deep-research: nothing was changed.');
    return 1;
  }

  const next: Manifest = old
    ? { ...old, files: { ...old.files }, created_dirs: [...old.created_dirs] }
    : { version: 1, target: lay.target, created_dirs: [], files: {} };
  delete (next as { pack_root?: string }).pack_root; // written by earlier versions, never read: the clone's absolute path
  const noteDirs = dirRecorder(lay.base, next);
  try {
    await writeOwnedFiles(rep, { base: lay.base, rootDir: lay.configDir, writes, wanted, stale, old, next, noteDirs });
    if (plan.kind === 'write') {
      noteDirs(await makeDirs(path.dirname(lay.config.file)));
      await writeAtomic(lay.config.file, plan.text);
      next.config = plan.record;
      ctx.out(`registered MCP server "${SERVER_NAME}" in ${rep.show(cfgRel)}`);
    } else if (plan.kind === 'foreign-same') {
      ctx.out(`${rep.show(cfgRel)} already registers "${SERVER_NAME}" the same way; left as it is (uninstall will not remove it)`);
    }
  } finally {
    const text = manifestText(next);
    if ((await readText(mfile)) !== text) await writeAtomic(mfile, text);
  }
  const server = path.join(ctx.packRoot, 'dist', 'server.js');
  if (!(await exists(server))) ctx.err(`deep-research: warning: ${server} does not exist yet; build it (npm run build) first.`);
  if (writes.length === 0 && plan.kind !== 'write') ctx.out('already installed; nothing to change');
  for (const l of lay.next) ctx.out(l);
  return 0;
}

export async function uninstall(ctx: TargetContext, lay: Layout): Promise<number> {
  const mfile = manifestFile(lay);
  const rep = reporter(ctx, lay.base);
  const m = await readManifest(mfile);
  if (m === undefined) {
    await removeUnrecorded(rep, await wantedFiles(ctx, lay), 'the config was left as it is');
    return 0;
  }
  const removed = await removeRecorded(rep, lay.base, m.files);
  const left: Manifest = { ...m, files: removed.left, created_dirs: [...m.created_dirs] };
  delete left.config;
  let incomplete = removed.incomplete;

  if (m.config !== undefined) {
    const file = path.resolve(lay.base, m.config.file);
    const text = await readText(file);
    if (text !== undefined) {
      const r = unplanConfig(lay, text, m.config);
      if ('problem' in r) {
        ctx.err(`deep-research: ${r.problem}`);
        left.config = m.config;
        incomplete = true;
      } else if ('gone' in r) {
        ctx.out(`${rep.show(m.config.file)} no longer registers "${SERVER_NAME}"`);
      } else if (m.config.created_file && (r.text.trim() === '{}' || r.text.trim() === '')) {
        await fs.rm(file);
        ctx.out(`removed ${rep.show(m.config.file)}`);
      } else {
        await writeAtomic(file, r.text);
        ctx.out(`unregistered MCP server "${SERVER_NAME}" from ${rep.show(m.config.file)}`);
      }
    }
  }

  if (incomplete) await writeAtomic(mfile, manifestText(left));
  else await fs.rm(mfile, { force: true });
  // Deepest first, and only directories that are empty now: anything the user put there keeps them.
  for (const rel of [...m.created_dirs].sort((a, b) => b.length - a.length)) await removeDirIfEmpty(path.resolve(lay.base, rel));
  ctx.out(incomplete ? 'uninstalled, except what is listed above' : 'uninstalled');
  return incomplete ? 1 : 0;
}

export function serverPath(ctx: TargetContext): string {
  return path.join(ctx.packRoot, 'dist', 'server.js');
}
