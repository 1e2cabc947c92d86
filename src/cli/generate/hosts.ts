// What differs between the agent CLIs that get files generated from the Claude Code pack: how the server's
// tools are named, which built-in tools do the reading, searching and writing, how a user starts a
// command, and whether threads can run in sub-agents. Every name here was read off the pinned binaries
// (tool lists sent to a local model stub), not guessed; test/cli-targets checks them again.
import { TOOL_NAMES } from '../../tools/names.js';

export type HostId = 'gemini' | 'codex' | 'opencode';

export const SERVER = 'deep-research';

export const SERVER_TOOLS = TOOL_NAMES;

/**
 * Placeholders in the generated files that the installer fills in: the absolute path of the installed
 * skills folder (where the method notes and the thread procedure end up), so that nothing the model reads
 * points into the clone. Agent CLIs refuse or prompt for reads outside the workspace; an installed skill's
 * folder is readable once the skill is active.
 */
export const SKILLS_DIR = '${DEEP_RESEARCH_SKILLS}';

export interface Host {
  id: HostId;
  title: string;
  /** The full name the model sees for one server tool. */
  tool(name: string): string;
  /** How the tool names are formed, for the prose. */
  toolPattern: string;
  webSearch: string;
  /** Extra sentence on web search where the CLI may lack a search tool. */
  webSearchNote: string;
  read: string;
  /** The file-writing tool, as a phrase. */
  write: string;
  /** The tool that asks the user questions, when the CLI has one. */
  ask: string;
  /** Where a user sees why a server is not connected. */
  mcpHelp: string;
  /** What the user types to run a command with arguments. */
  invoke(command: string, args?: string): string;
  /** What replaces $ARGUMENTS in a command's body. */
  args: string;
  /** Paragraphs of step 5 (Investigate) of the orchestrator. */
  investigate: string;
  /** The refutation pass of step 8, first sentences. */
  /** Step 8's opening: how this CLI starts the fresh auditor. */
  audit: string;
  /** Worked example, step 5. */
  exampleInvestigate: string;
  /** Where the thread procedure lives once installed, for sub-agents and the sequential mode. */
  procedure: string;
}

const PROMPT_TAIL =
  'Run folder: <run folder>. Results per round: <results_per_round>. <For a critic thread: the definition.> Report back the completion report path, the convergence reason, and the key findings with their source ids.';

const AFTER_INVESTIGATORS =
  'Then call `thread_status` for each thread: a thread that is neither converged nor completed gets one more investigator; if it still does not finish, end it with `complete_thread` and say so in Methods.';

function sequential(tool: string, procedure: string): string {
  return (
    `**Sequential mode**, when \`${tool}\` is not among your tools: investigate the threads yourself, one after another. ` +
    `Read \`${procedure}\` and follow it for the first unfinished thread from Start to Finish, then for the next, and so on. ` +
    'The tools, the files written and the stopping decisions are the same as in parallel mode; only the order differs. Never start the critique before every thread is finished.'
  );
}

const geminiProcedure = `${SKILLS_DIR}/deep-research-method/investigate.md`;
const opencodeProcedure = `${SKILLS_DIR}/deep-research-method/investigate.md`;
const codexProcedure = `${SKILLS_DIR}/deep-research-investigate/SKILL.md`;

export const HOSTS: Record<HostId, Host> = {
  gemini: {
    id: 'gemini',
    title: 'Gemini CLI',
    // Gemini CLI prefixes MCP tools with mcp_<server>_ and keeps the hyphen of the server name.
    tool: (t) => `mcp_${SERVER}_${t}`,
    toolPattern: `\`mcp_${SERVER}_<tool>\``,
    webSearch: 'google_web_search',
    webSearchNote: '',
    read: 'read_file',
    write: '`write_file`',
    ask: '`ask_user`',
    mcpHelp: '`/mcp` lists the servers and their state',
    invoke: (c, a) => `/${c}${a === undefined ? '' : ` ${a}`}`,
    args: '{{args}}',
    procedure: geminiProcedure,
    investigate: [
      '**Parallel mode** (Gemini CLI has sub-agents). Start one investigator per unfinished thread: call `invoke_agent` with `agent_name: "deep-research-investigator"` once per thread, all in the same turn and without `wait_for_previous`, so that they run in parallel; each call returns when its thread is done. If that agent is not listed, use `generalist` and begin the prompt with "Read ' +
        `${geminiProcedure} and follow it.". Prompt:`,
      '',
      `> Investigate thread "<name>" of deep-research run <run_id>. ${PROMPT_TAIL}`,
      '',
      `Wait until every investigator has returned; never critique while one is running. ${AFTER_INVESTIGATORS}`,
      '',
      sequential('invoke_agent', geminiProcedure),
    ].join('\n'),
    audit: 'Start one fresh sub-agent (`invoke_agent` with `generalist`) with only this task:',
    exampleInvestigate: '5. Three `invoke_agent` calls go out in one turn; all three return.',
  },
  opencode: {
    id: 'opencode',
    title: 'OpenCode',
    // OpenCode names MCP tools <server>_<tool>.
    tool: (t) => `${SERVER}_${t}`,
    toolPattern: `\`${SERVER}_<tool>\``,
    webSearch: 'websearch',
    webSearchNote:
      ' OpenCode offers `websearch` only with its own provider or with `OPENCODE_ENABLE_EXA=1`; without it, search with `webfetch` on a search engine\'s results page (for example `https://html.duckduckgo.com/html/?q=<query>`) and take only the result links from it, then read each result through `fetch_source` as usual.',
    read: 'read',
    write: '`write`',
    ask: '`question`',
    mcpHelp: '`opencode mcp list` shows each server and why it failed',
    invoke: (c, a) => `/${c}${a === undefined ? '' : ` ${a}`}`,
    args: '$ARGUMENTS',
    procedure: opencodeProcedure,
    investigate: [
      '**Parallel mode** (OpenCode has sub-agents). Start one investigator per unfinished thread: call the `task` tool with `subagent_type: "deep-research-investigator"` once per thread, all in a single message, so that they run in parallel and all return before you continue. If that agent is not listed, use `general` and begin the prompt with "Read ' +
        `${opencodeProcedure} and follow it.". Prompt:`,
      '',
      `> Investigate thread "<name>" of deep-research run <run_id>. ${PROMPT_TAIL}`,
      '',
      `If a task runs in the background, wait for its result; never critique while one is running. ${AFTER_INVESTIGATORS}`,
      '',
      sequential('task', opencodeProcedure),
    ].join('\n'),
    audit: 'Start one fresh sub-agent (the `task` tool with `subagent_type: "general"`) with only this task:',
    exampleInvestigate: '5. Three `task` calls go out in one message; all three return.',
  },
  codex: {
    id: 'codex',
    title: 'Codex CLI',
    // Codex CLI groups a server's tools in the namespace mcp__<server>, with the hyphen turned into an
    // underscore; the model calls them as mcp__deep_research__<tool>.
    tool: (t) => `mcp__deep_research__${t}`,
    toolPattern: '`mcp__deep_research__<tool>` (the namespace `mcp__deep_research`)',
    webSearch: 'web_search',
    webSearchNote: '',
    read: 'the shell (`cat`, `sed -n`)',
    write: '`apply_patch` (or the shell)',
    ask: '`request_user_input` (Plan mode only)',
    mcpHelp: '`/mcp` in Codex, or `codex mcp list`, shows the configured servers',
    invoke: (c, a) => `$${c}${a === undefined ? '' : ` ${a}`}`,
    args: 'the text the user wrote with `$deep-research` (if there is none, ask for the question)',
    procedure: codexProcedure,
    investigate: [
      '**Parallel mode** (Codex CLI has sub-agents; this skill asks for them). Start one investigator per unfinished thread: call `spawn_agent` once per thread, all in the same turn, with the message below; the sub-agents inherit this session\'s tools and skills. Then call `wait_agent` with all their ids, again until every one has reached a final status, and `close_agent` each finished one. Message:',
      '',
      `> Investigate thread "<name>" of deep-research run <run_id>. Use the deep-research-investigate skill: read ${codexProcedure} and follow it. ${PROMPT_TAIL}`,
      '',
      `Never critique while an investigator is running. ${AFTER_INVESTIGATORS}`,
      '',
      sequential('spawn_agent', codexProcedure),
    ].join('\n'),
    audit: 'Start one fresh sub-agent (`spawn_agent`, then `wait_agent`) with only this task:',
    exampleInvestigate: '5. Three `spawn_agent` calls go out in one turn; `wait_agent` returns when all three are done.',
  },
};

export const HOST_IDS: HostId[] = ['gemini', 'codex', 'opencode'];
