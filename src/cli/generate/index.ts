// Generates the files for Gemini CLI, Codex CLI and OpenCode from the one source written for Claude Code:
// commands/*.md, agents/*.md and skills/**. Pure: it takes the source files' text and returns the files to
// write, so the drift test and scripts/generate-targets.ts run the same code.
//
// The rewrite is a list of exact replacements. Each names the source sentence it replaces and fails when
// that sentence is no longer there, so an edit of the source cannot silently leave a Claude-only phrase (or
// a stale instruction) in another CLI's files: the generator stops and names the rule to revisit.
import { parse as parseToml } from 'smol-toml';
import YAML from 'yaml';
import { HOSTS, HOST_IDS, SKILLS_DIR, SERVER_TOOLS } from './hosts.js';
import type { Host, HostId } from './hosts.js';

/** The source files, keyed by their path relative to the repository root (forward slashes). */
export type SourceFiles = ReadonlyMap<string, string>;

export class GenerateError extends Error {}

export const TARGETS_DIR = 'targets';

/** Source paths the generator reads: the pack's commands, agents and skills. */
export function isSourcePath(rel: string): boolean {
  return /^(commands|agents)\/[^/]+\.md$/.test(rel) || /^skills\/[^/]+\/.+\.md$/.test(rel);
}

interface Doc {
  data: Record<string, unknown>;
  body: string;
}

function splitFrontmatter(text: string, file: string): Doc {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (m === null) throw new GenerateError(`${file}: no frontmatter block at the top`);
  const data = YAML.parse(m[1] ?? '') as unknown;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new GenerateError(`${file}: frontmatter is not a mapping`);
  return { data: data as Record<string, unknown>, body: text.slice(m[0].length) };
}

function frontmatter(data: Record<string, unknown>): string {
  return `---\n${YAML.stringify(data, { lineWidth: 0 })}---\n`;
}

function count(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** Replaces `from` (which must occur, exactly once unless `all`) by `to`. */
function replace(text: string, from: string, to: string, where: string, all = false): string {
  const n = count(text, from);
  if (n === 0 || (n > 1 && !all)) {
    throw new GenerateError(
      `${where}: expected ${all ? 'at least one' : 'exactly one'} occurrence of ${JSON.stringify(from.slice(0, 80))}${from.length > 80 ? '…' : ''}, found ${n}. ` +
        'The source changed: update the matching rule in src/cli/generate/index.ts, then run scripts/generate-targets.ts.',
    );
  }
  return text.split(from).join(to);
}

/** Replaces the body of the section under `heading` (up to the next `## `). */
function replaceSection(text: string, heading: string, body: string, where: string): string {
  const start = text.indexOf(`\n${heading}\n`);
  if (start === -1) throw new GenerateError(`${where}: section "${heading}" not found`);
  const from = start + heading.length + 2;
  const next = text.indexOf('\n## ', from);
  const end = next === -1 ? text.length : next;
  return `${text.slice(0, from)}\n${body}\n${text.slice(end)}`;
}

/** Phrases that must not survive into another CLI's files. */
const CLAUDE_ONLY = [
  '${CLAUDE_PLUGIN_ROOT}',
  'mcp__plugin_',
  'mcp__deep-research__',
  'ToolSearch',
  'AskUserQuestion',
  'WebSearch',
  'general-purpose',
  'Agent tool',
  'deep-research:deep-research',
  'from the plugin',
];

function assertClean(text: string, where: string, host: Host): void {
  for (const p of CLAUDE_ONLY) {
    if (text.includes(p)) throw new GenerateError(`${where}: "${p}" is left in the ${host.title} output; add a rule for it`);
  }
  if (host.id !== 'opencode' && text.includes('$ARGUMENTS')) throw new GenerateError(`${where}: $ARGUMENTS is left in the ${host.title} output`);
  // Gemini CLI expands !{…} (shell) and @{…} (file) in command prompts; OpenCode expands $1… and !`…`.
  if (/!\{|@\{/.test(text) && host.id === 'gemini') throw new GenerateError(`${where}: the prompt contains !{ or @{, which Gemini CLI would expand`);
  if (/\$[0-9]|!`/.test(text) && host.id === 'opencode') throw new GenerateError(`${where}: the template contains $<digit> or !\`, which OpenCode would expand`);
}

/** The Claude tool names of a frontmatter allow-list, rewritten for `host` (deduplicated, order kept). */
export function mapTools(claude: string[], host: Host): string[] {
  const out: string[] = [];
  for (const t of claude) {
    const mcp = /^mcp__(?:plugin_deep-research_deep-research|deep-research)__([a-z_]+)$/.exec(t);
    let mapped: string | undefined;
    if (mcp?.[1] !== undefined) mapped = host.tool(mcp[1]);
    else if (t === 'Read') mapped = host.read;
    else if (t === 'WebSearch') mapped = host.webSearch;
    if (mapped !== undefined && !out.includes(mapped)) out.push(mapped);
  }
  return out;
}

function toolList(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter(Boolean);
  return [];
}

// ---------------------------------------------------------------------------------------------------------
// Body rewrites, one function per source file.

function common(text: string, host: Host, where: string): string {
  let t = text;
  if (t.includes('${CLAUDE_PLUGIN_ROOT}/skills/')) t = replace(t, '${CLAUDE_PLUGIN_ROOT}/skills/', `${SKILLS_DIR}/`, where, true);
  return t;
}

function toolsSentence(host: Host): string {
  const activate =
    host.id === 'gemini'
      ? ' Before you read a method note or the thread procedure, activate the `deep-research-method` skill with `activate_skill`: that makes its folder readable.'
      : '';
  return `In ${host.title} their full names are ${host.toolPattern}, for example \`${host.tool('start_run')}\`; web search is \`${host.webSearch}\`.${host.webSearchNote}${activate}`;
}

function orchestrator(body: string, host: Host, where: string): string {
  let t = body;
  t = replace(t, 'Request: $ARGUMENTS', `Request: ${host.args}`, where);
  t = replace(
    t,
    "Their full names are `mcp__plugin_deep-research_deep-research__<tool>` when this pack is a plugin and `mcp__deep-research__<tool>` after `deep-research install`; use the form that exists. They and `WebSearch` may be deferred: load them by exact name with ToolSearch (`select:<name>,<name>`) before the first call. If no deep-research tool exists, stop and tell the user the server is not connected (`/mcp` shows why).",
    `${toolsSentence(host)} If no deep-research tool exists, stop and tell the user the server is not connected (${host.mcpHelp}).`,
    where,
  );
  t = replace(
    t,
    'If some exists and AskUserQuestion is available, ask once, all questions in one call.',
    `If some exists and you can ask the user (${host.ask}, or one short message that waits for the answer), ask once, all questions together.`,
    where,
  );
  t = replaceSection(t, '## 5. Investigate', host.investigate, where);
  t = replace(t, 'Write `report.md` with your Write tool at `report_path`', `Write \`report.md\` with ${host.write} at \`report_path\``, where);
  t = replace(
    t,
    'Start one fresh subagent (general-purpose, `run_in_background: false`) with only this task:',
    host.audit,
    where,
  );
  t = replace(t, '`/deep-research "Does time-restricted', `\`${host.invoke('deep-research', '"Does time-restricted')}`, where);
  t = replace(t, '5. Three Agent calls go out in one message; all three return.', host.exampleInvestigate, where);
  return common(t, host, where);
}

const INVESTIGATE_ARGS =
  'Arguments: $ARGUMENTS (a run id, then a thread name). If you were handed this file to read, they are in your task, along with the run folder, the results per round, and a `definition` when the thread came from the critic.';

function investigateTools(host: Host): string {
  return `Tools: \`start_thread\`, \`fetch_source\`, \`check_drift\`, \`record_round\`, \`thread_status\`, \`complete_thread\`, \`search_sources\` of the deep-research server, named ${host.toolPattern} in ${host.title}, plus \`${host.webSearch}\` and ${host.id === 'codex' ? host.read : `\`${host.read}\``} for reading the brief.${host.webSearchNote}`;
}

/** The thread procedure. As a command it takes arguments; as a file a sub-agent reads, its task has them. */
function investigate(body: string, host: Host, where: string, asProcedure: boolean): string {
  let t = body;
  t = replace(
    t,
    INVESTIGATE_ARGS,
    asProcedure
      ? 'Your task names the run id and the thread, the run folder, the results per round, and a `definition` when the thread came from the critic.'
      : INVESTIGATE_ARGS.replace('$ARGUMENTS', host.args),
    where,
  );
  t = replace(
    t,
    'Tools: `start_thread`, `fetch_source`, `check_drift`, `record_round`, `thread_status`, `complete_thread`, `search_sources` of the deep-research server, named `mcp__plugin_deep-research_deep-research__<tool>` or `mcp__deep-research__<tool>`, whichever exists, plus `WebSearch` and `Read`. If a tool is deferred, load it by exact name with ToolSearch first.',
    investigateTools(host),
    where,
  );
  t = replace(t, 'Run one `WebSearch` query', `Run one \`${host.webSearch}\` query`, where);
  return common(t, host, where);
}

function status(body: string, host: Host, where: string): string {
  let t = body;
  t = replace(t, 'Run: $ARGUMENTS', `Run: ${host.args}`, where);
  t = replace(
    t,
    '(`mcp__plugin_deep-research_deep-research__thread_status` or `mcp__deep-research__thread_status`, whichever exists; load it with ToolSearch if it is deferred)',
    `(\`${host.tool('thread_status')}\`)`,
    where,
  );
  t = replace(
    t,
    'run `/deep-research` again with the same question, which resumes (threads unfinished, critique pending or report missing), or `/deep-research-verify <run_id>` (report written, not yet verified). From the plugin: `/deep-research:…`.',
    `run \`${host.invoke('deep-research')}\` again with the same question, which resumes (threads unfinished, critique pending or report missing), or \`${host.invoke('deep-research-verify', '<run_id>')}\` (report written, not yet verified).`,
    where,
  );
  t = replace(t, '`/deep-research-status tre-vs', `\`${host.invoke('deep-research-status', 'tre-vs')}`, where);
  t = replace(t, 'Next: `/deep-research` with the same question', `Next: \`${host.invoke('deep-research')}\` with the same question`, where);
  return common(t, host, where);
}

function verify(body: string, host: Host, where: string): string {
  let t = body;
  t = replace(t, 'Arguments: $ARGUMENTS', `Arguments: ${host.args}`, where);
  t = replace(
    t,
    'named `mcp__plugin_deep-research_deep-research__<tool>` or `mcp__deep-research__<tool>`, whichever exists (load them with ToolSearch if they are deferred).',
    `named ${host.toolPattern} in ${host.title}.`,
    where,
  );
  t = replace(t, '`/deep-research-verify tre-vs', `\`${host.invoke('deep-research-verify', 'tre-vs')}`, where);
  return common(t, host, where);
}

function method(body: string, host: Host, where: string): string {
  const start =
    host.id === 'codex'
      ? 'For a research request, use the `deep-research` skill with the question: read its SKILL.md and follow it, or ask the user to type `$deep-research "<question>"`.'
      : `For a research request, ask the user to type \`${host.invoke('deep-research', '"<question>"')}\`: that command runs the whole procedure.`;
  let t = replace(
    body,
    'For a research request, start the deep-research command with the question as its argument: through the Skill tool as `deep-research` (from the plugin, `deep-research:deep-research`), or by asking the user to type `/deep-research "<question>"`.',
    start,
    where,
  );
  if (host.id !== 'codex') {
    t = replace(t, '`deep-research-investigate` runs one thread.', '`deep-research-investigate` runs one thread; [investigate.md](investigate.md) is the same procedure for a sub-agent.', where);
  }
  return common(t, host, where);
}

// ---------------------------------------------------------------------------------------------------------
// Emitters.

function tomlCommand(description: string, prompt: string, where: string): string {
  if (prompt.includes("'''")) throw new GenerateError(`${where}: the prompt contains ''' and cannot be a TOML literal string`);
  const text = `description = ${JSON.stringify(description)}\nprompt = '''\n${prompt}'''\n`;
  const back = parseToml(text) as { description?: unknown; prompt?: unknown };
  if (back.description !== description || back.prompt !== prompt) throw new GenerateError(`${where}: the TOML does not read back as written`);
  return text;
}

const COMMAND_REWRITES: Record<string, (body: string, host: Host, where: string) => string> = {
  'deep-research': orchestrator,
  'deep-research-investigate': (b, h, w) => investigate(b, h, w, false),
  'deep-research-status': status,
  'deep-research-verify': verify,
};

function description(data: Record<string, unknown>, file: string): string {
  const d = data.description;
  if (typeof d !== 'string' || d.trim() === '') throw new GenerateError(`${file}: no description`);
  return d.trim();
}

/** `description` plus the source's `when_to_use`, which the other CLIs do not read, when both fit. */
function skillDescription(data: Record<string, unknown>, file: string): string {
  const d = description(data, file);
  const when = typeof data.when_to_use === 'string' ? data.when_to_use.trim() : '';
  const both = when === '' ? d : `${d} ${when}`;
  return both.length <= 1024 ? both : d;
}

/**
 * Every generated file, keyed by its path relative to the repository root. Throws GenerateError when a
 * rewrite rule no longer matches the source.
 */
export function generateTargets(src: SourceFiles): Map<string, string> {
  const out = new Map<string, string>();
  const get = (rel: string): string => {
    const t = src.get(rel);
    if (t === undefined) throw new GenerateError(`${rel} is missing from the source`);
    return t;
  };
  const commands = [...src.keys()].filter((k) => /^commands\/[^/]+\.md$/.test(k)).sort();
  const names = commands.map((c) => c.slice('commands/'.length, -'.md'.length));
  for (const n of names) {
    if (COMMAND_REWRITES[n] === undefined) {
      throw new GenerateError(`commands/${n}.md has no rewrite for the other CLIs: add one to COMMAND_REWRITES in src/cli/generate/index.ts`);
    }
  }
  const agentFile = 'agents/deep-research-investigator.md';
  const agent = splitFrontmatter(get(agentFile), agentFile);
  const investigateSrc = splitFrontmatter(get('commands/deep-research-investigate.md'), 'commands/deep-research-investigate.md');
  const skillFiles = [...src.keys()].filter((k) => /^skills\/[^/]+\/.+\.md$/.test(k)).sort();

  for (const id of HOST_IDS) {
    const host = HOSTS[id];
    const base = `${TARGETS_DIR}/${id}`;
    const emit = (rel: string, text: string) => {
      assertClean(text, rel, host);
      out.set(`${base}/${rel}`, text);
    };

    for (const n of names) {
      const file = `commands/${n}.md`;
      const doc = splitFrontmatter(get(file), file);
      const where = `${file} → ${id}`;
      const body = (COMMAND_REWRITES[n] as (b: string, h: Host, w: string) => string)(doc.body, host, where);
      const desc = description(doc.data, file);
      const hint = typeof doc.data['argument-hint'] === 'string' ? doc.data['argument-hint'] : undefined;
      const descText = replaceInvocations(desc, host);
      if (id === 'gemini') {
        const usage = `${descText} Usage: ${host.invoke(n, hint)}`;
        emit(`commands/${n}.toml`, tomlCommand(usage, body.replace(/^\n+/, ''), where));
      } else if (id === 'opencode') {
        emit(`commands/${n}.md`, `${frontmatter({ description: descText })}${body}`);
      } else {
        const usage = `${descText} Start it with ${host.invoke(n, hint)}.`;
        emit(`skills/${n}/SKILL.md`, `${frontmatter({ name: n, description: usage })}${body}`);
      }
    }

    // The thread procedure, for sub-agents and for the sequential mode, and the investigator agent.
    if (id !== 'codex') {
      const procedure = investigate(investigateSrc.body, host, `commands/deep-research-investigate.md → ${id} procedure`, true);
      emit('skills/deep-research-method/investigate.md', procedure);
      const where = `${agentFile} → ${id}`;
      const intro = replace(
        agent.body,
        'Read `${CLAUDE_PLUGIN_ROOT}/commands/deep-research-investigate.md` with the Read tool and follow it from Start to Finish.',
        'Follow the procedure below from Start to Finish.',
        where,
      );
      const desc = replaceInvocations(description(agent.data, agentFile), host);
      const tools = mapTools(toolList(agent.data.tools), host);
      const data: Record<string, unknown> =
        id === 'gemini'
          ? { name: agent.data.name, description: desc, tools }
          : { description: desc, mode: 'subagent', permission: { edit: 'deny', bash: 'deny' } };
      emit('agents/deep-research-investigator.md', `${frontmatter(data)}${intro.trimEnd()}\n\n${procedure.replace(/^\n+/, '')}`);
    }

    for (const rel of skillFiles) {
      const where = `${rel} → ${id}`;
      const text = get(rel);
      const inSkill = rel.slice('skills/'.length);
      if (rel.endsWith('/SKILL.md')) {
        const doc = splitFrontmatter(text, rel);
        const body = method(doc.body, host, where);
        emit(`skills/${inSkill}`, `${frontmatter({ name: doc.data.name, description: skillDescription(doc.data, rel) })}${body}`);
      } else {
        emit(`skills/${inSkill}`, common(text, host, where));
      }
    }
  }
  return out;
}

/** Descriptions mention `/deep-research`; in another CLI that is how its user starts the command. */
function replaceInvocations(text: string, host: Host): string {
  return text.replace(/\/(deep-research(?:-[a-z]+)?)\b/g, (_m, name: string) => host.invoke(name));
}

/** The server tools every host must name, for tests. */
export { SERVER_TOOLS };
export type { HostId };
