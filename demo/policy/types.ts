// The vocabulary shared by the scripted policy and its two hosts (the e2e fake Messages API, which turns
// steps into tool_use blocks for the real Claude Code binary, and the in-process demo, which turns them into
// MCP Client calls). A policy is a generator: it yields steps and receives what the host answered.
//
// This is a SCRIPTED POLICY, not a model and not a recording. It follows the protocol of
// commands/deep-research.md and commands/deep-research-investigate.md, takes its "judgement" (the brief,
// which facts a page holds, what the critic misses) from a scenario, and branches on the TEXT of every tool
// reply. It tests plumbing and protocol, never an LLM's judgement.
import { TOOL_NAMES } from '../../src/tools/names.js';
import { plural } from '../../src/plural.js';

export const SERVER_TOOLS = TOOL_NAMES;
export type ServerTool = (typeof SERVER_TOOLS)[number];

export type Call =
  | { tool: 'mcp'; name: ServerTool; args: Record<string, unknown> }
  | { tool: 'read'; path: string }
  | { tool: 'write'; path: string; content: string }
  | { tool: 'agent'; kind: 'investigator' | 'general'; description: string; prompt: string };

/** One model turn: tool calls sent together (in parallel), or text that ends the turn. */
export type Step =
  | { kind: 'calls'; calls: Call[]; say?: string }
  /** Ends the turn and waits for the host to start another one (a background task's notification). */
  | { kind: 'wait'; say: string };

export interface CallResult {
  text: string;
  isError: boolean;
}

/** What the host answers to a step: one result per call, or the text of the message that woke it up. */
export type Observation = CallResult[] | string;

/** Yields steps; returns the final message (the turn that ends the conversation). */
export type Policy = Generator<Step, string, Observation>;

/** What a host tells a policy about its surroundings; stable for the whole conversation. */
export interface HostInfo {
  /** Working directory of the agent; absolute. Report paths the server returns are relative to it. */
  cwd: string;
  /** Subagent types the host offers, as listed to the model. */
  agentTypes: string[];
}

export const mcp = (name: ServerTool, args: Record<string, unknown>): Call => ({ tool: 'mcp', name, args });
export const read = (path: string): Call => ({ tool: 'read', path });
export const write = (path: string, content: string): Call => ({ tool: 'write', path, content });

/** Sends calls in one turn and returns their results, in order. */
export function* calls(...cs: Call[]): Generator<Step, CallResult[], Observation> {
  const obs = yield { kind: 'calls', calls: cs };
  if (typeof obs === 'string' || obs.length !== cs.length) {
    throw new PolicyError(`expected ${plural(cs.length, 'tool result')}, the host answered ${typeof obs === 'string' ? 'a message' : obs.length}`);
  }
  return obs;
}

/** Same, with a short text shown to the user before the calls. */
export function* callsSaying(say: string, ...cs: Call[]): Generator<Step, CallResult[], Observation> {
  const obs = yield { kind: 'calls', calls: cs, say };
  if (typeof obs === 'string' || obs.length !== cs.length) throw new PolicyError('tool results do not match the calls');
  return obs;
}

export class PolicyError extends Error {
  override name = 'PolicyError';
}
