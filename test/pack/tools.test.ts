// The commands name the server's tools, and Claude Code only lets a command call the ones its allowed-tools
// lists, in the exact form of how the server was added (plugin or direct). A tool renamed on the server,
// or a name misspelt in prose, is caught here against the live tools/list of the bundled server.
import { beforeAll, describe, expect, it } from 'vitest';
import { packFiles, toolList } from './pack-files.js';
import { listSchemaFieldNames, listServerToolNames, qualifiedNames } from './tool-names.js';

const QUALIFIED = /mcp__(?:plugin_deep-research_deep-research|deep-research)__([A-Za-z0-9_]+)/g;
/** Claude Code's own tools that a command may name in its prose. */
const HOST_TOOLS = ['Read', 'Write', 'Edit', 'WebSearch', 'AskUserQuestion'];

const files = packFiles();
const commands = files.filter((f) => f.kind === 'command');
const agents = files.filter((f) => f.kind === 'agent');

let tools: string[] = [];
let fields = new Set<string>();
beforeAll(async () => {
  tools = await listServerToolNames();
  fields = await listSchemaFieldNames();
}, 30_000);

/** Server tools a text names: fully qualified, or as a backticked bare name. */
function namedTools(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(QUALIFIED)) out.add(m[1] ?? '');
  for (const m of text.matchAll(/`([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`/g)) if (tools.includes(m[1] ?? '')) out.add(m[1] ?? '');
  return out;
}

describe('server tools named in the pack', () => {
  it('the bundled server lists the tools of the contract', () => {
    expect(tools).toEqual(
      expect.arrayContaining([
        'start_run',
        'start_thread',
        'fetch_source',
        'check_drift',
        'record_round',
        'thread_status',
        'complete_thread',
        'record_critique',
        'verify_report',
      ]),
    );
  });

  for (const f of files) {
    it(`${f.rel}: every qualified tool name exists`, () => {
      const unknown = [...f.raw.matchAll(QUALIFIED)].map((m) => m[1] ?? '').filter((t) => !tools.includes(t));
      expect(unknown).toEqual([]);
    });

    it(`${f.rel}: every backticked snake_case name is a tool or a field of a tool`, () => {
      const unknown = [...f.body.matchAll(/`([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`/g)]
        .map((m) => m[1] ?? '')
        .filter((n) => !tools.includes(n) && !fields.has(n));
      expect([...new Set(unknown)], 'misspelt tool, or a field no tool has').toEqual([]);
    });
  }
});

describe('allowed-tools', () => {
  for (const c of commands) {
    it(`${c.rel} allows every server tool it names, in both forms`, () => {
      const allowed = new Set(toolList(c.data['allowed-tools']));
      const named = namedTools(c.body);
      expect(named.size).toBeGreaterThan(0);
      const missing = [...named].flatMap(qualifiedNames).filter((n) => !allowed.has(n));
      expect(missing).toEqual([]);
    });

    it(`${c.rel} allows the host tools it names`, () => {
      const allowed = new Set(toolList(c.data['allowed-tools']));
      const missing = HOST_TOOLS.filter((t) => new RegExp(`\`${t}\`|\\b${t} tool\\b|with ${t}\\b|${t} is available`).test(c.body)).filter(
        (t) => !allowed.has(t),
      );
      expect(missing).toEqual([]);
    });

    it(`${c.rel} uses no wildcard, which plugin evaluation refuses`, () => {
      for (const t of toolList(c.data['allowed-tools'])) expect(t).not.toMatch(/\*$|__\*|^mcp__[^_]+$/);
    });
  }

  it('the orchestrator allows every server tool in both forms, since its subagents run under its permissions', () => {
    const orchestrator = commands.find((c) => c.rel === 'commands/deep-research.md');
    const allowed = new Set(toolList(orchestrator?.data['allowed-tools']));
    expect(tools.flatMap(qualifiedNames).filter((n) => !allowed.has(n))).toEqual([]);
    // Claude Code 2.1.328 sends the subagent tool to the model as Agent and lists it as Task.
    for (const t of ['Agent', 'Task', 'Write', 'Read', 'WebSearch', 'AskUserQuestion']) expect(allowed.has(t), t).toBe(true);
  });

  it('the investigator agent carries every server tool the investigate command uses', () => {
    const investigate = commands.find((c) => c.rel === 'commands/deep-research-investigate.md');
    const agent = agents.find((a) => a.rel === 'agents/deep-research-investigator.md');
    expect(investigate && agent).toBeTruthy();
    const agentTools = new Set(toolList(agent?.data.tools));
    const missing = [...namedTools(investigate?.body ?? '')].flatMap(qualifiedNames).filter((n) => !agentTools.has(n));
    expect(missing).toEqual([]);
    for (const t of ['Read', 'WebSearch']) expect(agentTools.has(t), t).toBe(true);
  });
});
