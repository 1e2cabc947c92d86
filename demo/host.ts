// The in-process host for the scripted policy: server tools go to an MCP client, Read/Write go to the
// filesystem, and an Agent call runs the sub-policy to completion and hands back its final message, as a
// foreground subagent would. Calls run one after another, so source ids are deterministic.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { policyFor, type Call, type CallResult, type PolicyEnv, type Role } from './policy/index.js';

export type ToolCaller = (name: string, args: Record<string, unknown>) => Promise<CallResult>;

export interface TraceEntry {
  role: Role;
  label: string;
  call: Call;
  result: CallResult;
}

export interface HostOptions {
  callTool: ToolCaller;
  cwd: string;
  env: PolicyEnv;
  /** Rewrites a result before the policy sees it (negative controls). */
  tamper?: (call: Call, result: CallResult, role: Role) => CallResult;
  trace?: TraceEntry[];
}

export interface ConversationOutcome {
  role: Role;
  final: string;
  /** Model turns this conversation took (steps answered, the final message included). */
  turns: number;
}

export async function runConversation(firstMessage: string, o: HostOptions, outcomes: ConversationOutcome[] = []): Promise<ConversationOutcome> {
  const conv = policyFor(firstMessage, { cwd: o.cwd, agentTypes: ['deep-research-investigator', 'general-purpose'] }, o.env);
  if (!conv) throw new Error(`no scripted role for a conversation starting: ${firstMessage.slice(0, 120)}`);
  let turns = 1;
  let r = conv.policy.next(undefined as never);
  while (!r.done) {
    turns++;
    const step = r.value;
    if (step.kind === 'wait') throw new Error('the in-process host runs subagents in the foreground; nothing to wait for');
    const results: CallResult[] = [];
    for (const call of step.calls) {
      let result = await execute(call, o, outcomes);
      if (o.tamper) result = o.tamper(call, result, conv.role);
      o.trace?.push({ role: conv.role, label: conv.label, call, result });
      results.push(result);
    }
    r = conv.policy.next(results);
  }
  const outcome = { role: conv.role, final: r.value, turns };
  outcomes.push(outcome);
  return outcome;
}

async function execute(call: Call, o: HostOptions, outcomes: ConversationOutcome[]): Promise<CallResult> {
  switch (call.tool) {
    case 'mcp':
      return o.callTool(call.name, call.args);
    case 'read': {
      const file = path.resolve(o.cwd, call.path);
      try {
        return { text: fs.readFileSync(file, 'utf8'), isError: false };
      } catch (err) {
        return { text: `cannot read ${call.path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, isError: true };
      }
    }
    case 'write': {
      const file = path.resolve(o.cwd, call.path);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, call.content);
      return { text: `File written: ${call.path}`, isError: false };
    }
    case 'agent': {
      const sub = await runConversation(call.prompt, o, outcomes);
      return { text: sub.final, isError: false };
    }
  }
}
