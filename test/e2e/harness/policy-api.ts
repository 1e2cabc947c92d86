// A fake Anthropic Messages API whose "model" is the scripted policy of demo/policy/. Claude Code (the real
// binary) sends POST /v1/messages with the whole conversation; this server works out which conversation it is
// (the orchestrator running our command, an investigator subagent, the claim auditor), replays the
// conversation's tool results into a fresh policy, and streams back the policy's next step as tool_use blocks.
//
// It tests plumbing and protocol — that Claude Code loads the plugin, expands the command, lets the calls
// through under their real names, runs subagents, and that our tools' TEXT replies carry what the protocol
// needs — not an LLM's judgement. The policy branches on every reply; `tamper` lets a test alter a reply
// before the policy reads it, to prove that.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { policyFor, replay, SERVER_TOOLS, type Call, type CallResult, type PastTurn, type PolicyEnv, type Role, type ServerTool, type Step } from '../../../demo/policy/index.js';

type Block = Record<string, unknown> & { type: string };
interface Message {
  role: string;
  content: string | Block[];
}
interface Body {
  messages?: Message[];
  system?: string | Block[];
  tools?: { name: string }[];
  stream?: boolean;
  model?: string;
}

export interface TurnLog {
  n: number;
  role: Role | 'other';
  label: string;
  /** What was answered: tool calls, a ToolSearch to load deferred tools, text that waits, the final text. */
  kind: 'calls' | 'toolsearch' | 'wait' | 'final' | 'other' | 'error';
  tools: string[];
  at: number;
}

export interface Tamper {
  (x: { role: Role; label: string; call: Call; result: CallResult }): CallResult;
}

export interface PolicyApiOptions {
  env: PolicyEnv;
  tamper?: Tamper;
  /** Leave subagents to the host's default (background) instead of asking for run_in_background: false. */
  backgroundAgents?: boolean;
  /** Called before answering; return true to hold this and every later request (the world freezes). */
  freezeWhen?: (x: { role: Role; label: string; turns: PastTurn[] }) => boolean;
}

export interface PolicyApi {
  url: string;
  turns: TurnLog[];
  /** Anything the policy or the translation could not handle; a passing test expects none. */
  errors: string[];
  /** Full request bodies, for assertions on what reached "the model". */
  bodies: Body[];
  frozen(): boolean;
  /** Milliseconds since the last request arrived. */
  idleMs(): number;
  close(): Promise<void>;
}

const PREFIXES = ['mcp__plugin_deep-research_deep-research__', 'mcp__deep-research__'];
const TOOL_RE = /^mcp__(?:plugin_deep-research_)?deep-research__([a-z_]+)$/;

function textOf(content: string | Block[] | undefined, keepReminders: boolean): string {
  if (content === undefined) return '';
  const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  return blocks
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .filter((t) => keepReminders || !t.trimStart().startsWith('<system-reminder>'))
    .join('\n');
}

function resultText(b: Block): string {
  const c = b.content as string | Block[] | undefined;
  if (typeof c === 'string') return c;
  return (c ?? []).map((x) => (x.type === 'text' ? String(x.text) : x.type === 'tool_reference' ? `tool: ${String(x.tool_name)}` : '')).join('\n');
}

/** The tool_use block back to the policy's vocabulary; undefined for anything the policy never sends. */
function toCall(b: Block): Call | undefined {
  const name = String(b.name);
  const input = (b.input ?? {}) as Record<string, unknown>;
  const m = TOOL_RE.exec(name);
  if (m && (SERVER_TOOLS as readonly string[]).includes(m[1]!)) return { tool: 'mcp', name: m[1] as ServerTool, args: input };
  if (name === 'Read') return { tool: 'read', path: String(input.file_path) };
  if (name === 'Write') return { tool: 'write', path: String(input.file_path), content: String(input.content) };
  if (name === 'Agent' || name === 'Task') {
    return {
      tool: 'agent',
      kind: String(input.subagent_type ?? '').includes('investigator') ? 'investigator' : 'general',
      description: String(input.description),
      prompt: String(input.prompt),
    };
  }
  return undefined;
}

function systemTexts(body: Body): string {
  const parts: string[] = [];
  if (typeof body.system === 'string') parts.push(body.system);
  else for (const b of body.system ?? []) if (typeof b.text === 'string') parts.push(b.text);
  for (const m of body.messages ?? []) if (m.role === 'system') parts.push(textOf(m.content, true));
  return parts.join('\n');
}

function agentTypes(system: string): string[] {
  const i = system.indexOf('Available agent types for the Agent tool:');
  if (i < 0) return [];
  const section = system.slice(i).split('\n\n')[0] ?? '';
  return [...section.matchAll(/^- ([A-Za-z0-9_:.-]+): /gm)].map((m) => m[1]!);
}

/** The conversation as the policy saw it: its own steps (ToolSearch turns left out) and what came back. */
function pastTurns(messages: Message[], role: Role, label: string, tamper: Tamper | undefined, errors: string[]): PastTurn[] {
  const turns: PastTurn[] = [];
  const results = new Map<string, CallResult>();
  for (const m of messages) {
    if (m.role !== 'user' || typeof m.content === 'string') continue;
    for (const b of m.content) if (b.type === 'tool_result') results.set(String(b.tool_use_id), { text: resultText(b), isError: b.is_error === true });
  }
  for (let i = 1; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== 'assistant') continue;
    const blocks = typeof m.content === 'string' ? [] : m.content;
    const uses = blocks.filter((b) => b.type === 'tool_use');
    if (uses.length === 0) {
      // A turn that ended in text: what woke the conversation up is the next user message.
      let woke = '';
      for (let j = i + 1; j < messages.length && messages[j]!.role !== 'assistant'; j++) if (messages[j]!.role === 'user') woke += textOf(messages[j]!.content, true);
      if (i + 1 < messages.length) turns.push({ sent: { kind: 'wait' }, observation: woke });
      continue;
    }
    const own = uses.filter((b) => b.name !== 'ToolSearch');
    if (own.length === 0) continue;
    const calls: Call[] = [];
    const obs: CallResult[] = [];
    for (const u of own) {
      const call = toCall(u);
      if (!call) {
        errors.push(`unexpected tool_use ${String(u.name)} in the conversation`);
        continue;
      }
      calls.push(call);
      const r = results.get(String(u.id)) ?? { text: '', isError: true };
      obs.push(tamper ? tamper({ role, label, call, result: r }) : r);
    }
    turns.push({ sent: { kind: 'calls', calls }, observation: obs });
  }
  return turns;
}

export async function startPolicyApi(o: PolicyApiOptions): Promise<PolicyApi> {
  const turns: TurnLog[] = [];
  const errors: string[] = [];
  const bodies: Body[] = [];
  const held: http.ServerResponse[] = [];
  let frozen = false;
  let lastAt = Date.now();
  let n = 0;
  let ids = 0;

  const answer = (res: http.ServerResponse, body: Body, blocks: Block[]) => {
    const stop = blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
    const model = body.model ?? 'claude-scripted';
    if (body.stream === false) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: `msg_${n}`, type: 'message', role: 'assistant', model, content: blocks, stop_reason: stop, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    send('message_start', { message: { id: `msg_${n}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } });
    blocks.forEach((b, index) => {
      if (b.type === 'text') {
        send('content_block_start', { index, content_block: { type: 'text', text: '' } });
        send('content_block_delta', { index, delta: { type: 'text_delta', text: b.text } });
      } else {
        send('content_block_start', { index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } });
        send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) } });
      }
      send('content_block_stop', { index });
    });
    send('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 1 } });
    send('message_stop', {});
    res.end();
  };

  const handle = (body: Body): { blocks: Block[]; log: Omit<TurnLog, 'n' | 'at'>; hold: boolean } => {
    const messages = body.messages ?? [];
    const first = textOf(messages[0]?.content, false);
    const system = systemTexts(body);
    const cwd = /Primary working directory: (.+)/.exec(system)?.[1]?.trim() ?? '';
    const conv = policyFor(first, { cwd, agentTypes: agentTypes(system) }, o.env);
    if (!conv) return { blocks: [{ type: 'text', text: 'OK.' }], log: { role: 'other', label: '', kind: 'other', tools: [] }, hold: false };
    const past = pastTurns(messages, conv.role, conv.label, o.tamper, errors);
    const hold = frozen || (o.freezeWhen?.({ role: conv.role, label: conv.label, turns: past }) ?? false);
    let outcome;
    try {
      outcome = replay(conv.policy, past);
    } catch (err) {
      errors.push(`${conv.role} ${conv.label}: policy threw ${(err as Error).stack ?? String(err)}`);
      return { blocks: [{ type: 'text', text: `policy error: ${(err as Error).message}` }], log: { role: conv.role, label: conv.label, kind: 'error', tools: [] }, hold };
    }
    const log = (kind: TurnLog['kind'], tools: string[] = []) => ({ role: conv.role, label: conv.label, kind, tools });
    if (outcome.kind === 'diverged') {
      if (outcome.expected.startsWith('final: ') && outcome.recorded === 'wait') {
        // A notification after the conversation's last word: say the same thing again.
        return { blocks: [{ type: 'text', text: outcome.expected.slice(7) }], log: log('final'), hold };
      }
      errors.push(`${conv.role} ${conv.label}: conversation diverged from the policy at turn ${outcome.at}: expected ${outcome.expected.slice(0, 300)} got ${outcome.recorded.slice(0, 300)}`);
      return { blocks: [{ type: 'text', text: 'policy diverged' }], log: log('error'), hold };
    }
    if (outcome.kind === 'final') return { blocks: [{ type: 'text', text: outcome.text }], log: log('final'), hold };
    const step: Step = outcome.step;
    if (step.kind === 'wait') return { blocks: [{ type: 'text', text: step.say }], log: log('wait'), hold };

    const offered = new Set((body.tools ?? []).map((t) => t.name));
    const deferred = system;
    const blocks: Block[] = [];
    const missing: string[] = [];
    const names: string[] = [];
    for (const call of step.calls) {
      let name: string;
      let input: Record<string, unknown>;
      if (call.tool === 'mcp') {
        const candidates = PREFIXES.map((p) => p + call.name);
        const loaded = candidates.find((c) => offered.has(c));
        const listed = candidates.find((c) => new RegExp(`^${c}$`, 'm').test(deferred));
        if (!loaded && listed && offered.has('ToolSearch')) missing.push(listed);
        name = loaded ?? listed ?? candidates[0]!;
        input = call.args;
        if (!loaded && !listed) errors.push(`${conv.role} ${conv.label}: no ${call.name} tool offered or deferred (MCP server not connected?)`);
      } else if (call.tool === 'read') {
        name = 'Read';
        input = { file_path: call.path };
      } else if (call.tool === 'write') {
        name = 'Write';
        input = { file_path: call.path, content: call.content };
      } else {
        name = offered.has('Agent') ? 'Agent' : 'Task';
        const types = agentTypes(system);
        const type =
          call.kind === 'investigator'
            ? (['deep-research:deep-research-investigator', 'deep-research-investigator'].find((t) => types.includes(t)) ?? 'general-purpose')
            : 'general-purpose';
        input = { description: call.description, prompt: call.prompt, subagent_type: type, ...(o.backgroundAgents ? {} : { run_in_background: false }) };
      }
      if (call.tool !== 'mcp' && !offered.has(name)) errors.push(`${conv.role} ${conv.label}: host offers no ${name} tool`);
      names.push(name);
      blocks.push({ type: 'tool_use', id: `toolu_fake_${++ids}`, name, input });
    }
    if (missing.length) {
      // Deferred tools: as the command says, load them by exact name first, all of the server's at once;
      // the policy's step is sent on the next request.
      const prefix = missing[0]!.slice(0, missing[0]!.lastIndexOf('__') + 2);
      const all = SERVER_TOOLS.map((t) => prefix + t).filter((t) => !offered.has(t) && new RegExp(`^${t}$`, 'm').test(deferred));
      return {
        blocks: [{ type: 'tool_use', id: `toolu_fake_${++ids}`, name: 'ToolSearch', input: { query: `select:${all.join(',')}`, max_results: all.length } }],
        log: log('toolsearch', ['ToolSearch']),
        hold,
      };
    }
    if (step.say) blocks.unshift({ type: 'text', text: step.say });
    return { blocks, log: log('calls', names), hold };
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      lastAt = Date.now();
      const url = req.url ?? '';
      if (!url.startsWith('/v1/messages') || url.includes('count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: 1 }));
        return;
      }
      let body: Body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body;
      } catch {
        res.writeHead(400);
        res.end();
        return;
      }
      bodies.push(body);
      n++;
      const { blocks, log, hold } = handle(body);
      if (hold) {
        frozen = true;
        held.push(res);
        return;
      }
      turns.push({ n, at: Date.now(), ...log });
      answer(res, body, blocks);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    turns,
    errors,
    bodies,
    frozen: () => frozen,
    idleMs: () => Date.now() - lastAt,
    close: () =>
      new Promise<void>((resolve) => {
        for (const r of held) r.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
