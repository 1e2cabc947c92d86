// Entry points of the scripted policy: which role a conversation plays (from its first message), and
// replaying a conversation so a stateless host (the fake Messages API) can ask "what comes next?".
import { auditor, parseAuditorPrompt } from './auditor.js';
import { investigator, parseInvestigatorPrompt } from './investigator.js';
import { orchestrator, parseRequest } from './orchestrator.js';
import type { Scenario, Variation } from './scenario.js';
import type { Call, HostInfo, Observation, Policy, Step } from './types.js';

export * from './types.js';
export type { Scenario, Variation } from './scenario.js';

export type Role = 'orchestrator' | 'investigator' | 'auditor';

export interface PolicyEnv {
  scenario: Scenario;
  /** Where the scenario's fixture pages are served. */
  baseUrl: string;
  variation?: Variation;
  newRun?: boolean;
}

export interface Conversation {
  role: Role;
  /** The thread an investigator works on; empty otherwise. */
  label: string;
  policy: Policy;
}

/**
 * The role is read off the conversation's first message: the expanded /deep-research command, an
 * investigator's task (the prompt the orchestrator wrote), or the claim auditor's task.
 */
export function policyFor(firstMessage: string, host: HostInfo, env: PolicyEnv): Conversation | undefined {
  if (/^# Deep research\b/m.test(firstMessage) && parseRequest(firstMessage)) {
    return { role: 'orchestrator', label: '', policy: orchestrator(firstMessage, host, { scenario: env.scenario, ...(env.variation ? { variation: env.variation } : {}), ...(env.newRun ? { newRun: true } : {}) }) };
  }
  const task = parseInvestigatorPrompt(firstMessage);
  if (task) return { role: 'investigator', label: task.thread, policy: investigator(task, { scenario: env.scenario, baseUrl: env.baseUrl }) };
  const audit = parseAuditorPrompt(firstMessage);
  if (audit) return { role: 'auditor', label: '', policy: auditor(audit, { scenario: env.scenario }) };
  return undefined;
}

/** One past turn of a conversation: what was sent, and what came back. */
export interface PastTurn {
  sent: { kind: 'calls'; calls: Call[] } | { kind: 'wait' };
  observation: Observation;
}

export type ReplayOutcome =
  | { kind: 'step'; step: Step }
  | { kind: 'final'; text: string }
  | { kind: 'diverged'; at: number; expected: string; recorded: string };

/**
 * Feeds a fresh policy the recorded turns and returns what it does next. The policy is deterministic, so
 * its earlier steps must equal what the conversation holds; a difference is reported, never papered over.
 */
export function replay(policy: Policy, turns: PastTurn[]): ReplayOutcome {
  let r = policy.next(undefined as never);
  for (const [i, turn] of turns.entries()) {
    if (r.done) return { kind: 'diverged', at: i, expected: `final: ${r.value}`, recorded: describe(turn.sent) };
    const expected = describe(r.value.kind === 'calls' ? { kind: 'calls', calls: r.value.calls } : { kind: 'wait' });
    const recorded = describe(turn.sent);
    if (expected !== recorded) return { kind: 'diverged', at: i, expected, recorded };
    r = policy.next(turn.observation);
  }
  return r.done ? { kind: 'final', text: r.value } : { kind: 'step', step: r.value };
}

function describe(sent: PastTurn['sent']): string {
  return sent.kind === 'wait' ? 'wait' : sent.calls.map((c) => canonical(c)).join('\n');
}

/** Stable JSON: keys sorted, undefined dropped (as it is on the wire). */
export function canonical(value: unknown): string {
  return JSON.stringify(sortKeys(JSON.parse(JSON.stringify(value ?? null)) as unknown));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v as Record<string, unknown>)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}
