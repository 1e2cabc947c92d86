// Shared set-up and checks for the Claude Code scenarios: a project folder, a fixture web, the policy API,
// one claude run, and the assertions every scenario makes on the stream and on the files.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Variation } from '../../../demo/policy/index.js';
import { parseReply } from '../../../demo/policy/reply.js';
import { fourDayWeek } from '../../../demo/scenario.js';
import type { FixtureWeb } from '../../../demo/web/server.js';
import { SERVER_JS, startClaude, streamFacts, tempDir, type ClaudeResult, type ClaudeRun } from './claude.js';
import { startPolicyApi, type PolicyApi, type PolicyApiOptions, type TurnLog } from './policy-api.js';

export const QUESTION = fourDayWeek.question;

export function gitProject(prefix = 'dr-e2e-proj-'): string {
  const dir = tempDir(prefix);
  execFileSync('git', ['init', '-q', dir]);
  return dir;
}

export async function policyApi(web: FixtureWeb, o: { variation?: Variation } & Omit<PolicyApiOptions, 'env'> = {}): Promise<PolicyApi> {
  const { variation, ...rest } = o;
  return startPolicyApi({ env: { scenario: fourDayWeek, baseUrl: web.baseUrl, ...(variation ? { variation } : {}) }, ...rest });
}

export function launch(o: { args: string[]; cwd: string; home: string; api: PolicyApi; web: FixtureWeb }): ClaudeRun {
  return startClaude({ args: o.args, cwd: o.cwd, home: o.home, apiUrl: o.api.url, env: { DEEP_RESEARCH_ALLOW_HOSTS: o.web.allowHost } });
}

/** The checks every scenario makes: the server connected, nothing was denied, no tool was missing. */
export function expectCleanStream(r: ClaudeResult, api: PolicyApi, serverName: string): void {
  const facts = streamFacts(r.events);
  expect(facts.mcpServers, 'MCP servers in the init event').toContainEqual({ name: serverName, status: 'connected', source: expect.anything() as unknown });
  expect(facts.permissionDenials, 'permission denials').toEqual([]);
  expect(facts.toolErrors, 'tool errors').toEqual([]);
  expect(api.errors, 'policy / translation errors').toEqual([]);
  for (const body of api.bodies) expect(JSON.stringify(body)).not.toContain('configured but failed to connect');
}

export function runFolder(project: string): string {
  const root = path.join(project, 'artifacts');
  const runs = fs.existsSync(root) ? fs.readdirSync(root) : [];
  expect(runs, `runs under ${root}`).toHaveLength(1);
  return path.join(root, runs[0]!);
}

export function filesIn(dir: string): string[] {
  return fs.readdirSync(dir).sort();
}

/** Completion reports by thread name, with their convergence reason and round count. */
export function completions(dir: string): Map<string, { reason: string; rounds: number; file: string }> {
  const out = new Map<string, { reason: string; rounds: number; file: string }>();
  for (const f of filesIn(dir).filter((x) => x.startsWith('thread-completion-'))) {
    const text = fs.readFileSync(path.join(dir, f), 'utf8');
    out.set(/^# Thread Completion Report: (.+)$/m.exec(text)![1]!, {
      reason: /^Convergence reason: (\S+)$/m.exec(text)![1]!,
      rounds: Number(/^Rounds executed: (\d+)/m.exec(text)![1]),
      file: f,
    });
  }
  return out;
}

/** verify_report through the bundled server, independently of the run: the report must pass on its own. */
export async function verifyIndependently(project: string, runId: string): Promise<string> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [SERVER_JS], cwd: project, env: { PATH: process.env.PATH ?? '', DEEP_RESEARCH_LOG: 'off' }, stderr: 'ignore' });
  const client = new Client({ name: 'e2e-verify', version: '1' });
  await client.connect(transport);
  try {
    const r = (await client.callTool({ name: 'verify_report', arguments: { run_id: runId } })) as CallToolResult;
    return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  } finally {
    await client.close();
  }
}

/** Model turns per conversation kind, as the fake API answered them. */
export function turnCounts(turns: TurnLog[]): Record<string, number> {
  const out: Record<string, number> = { total: 0 };
  for (const t of turns) {
    if (t.role === 'other') continue;
    const key = t.role === 'investigator' ? `investigator:${t.label}` : t.role;
    out[key] = (out[key] ?? 0) + 1;
    out.total = (out.total ?? 0) + 1;
  }
  return out;
}

/** Tool results of the stream for one server tool (any of its two names). */
export function resultsOf(r: ClaudeResult, tool: string): { name: string; text: string; isError: boolean }[] {
  return streamFacts(r.events).toolResults.filter((x) => x.name.endsWith(`deep-research__${tool}`));
}

/** A field of a tool reply as the model saw it (structuredContent JSON in Claude Code, text in-process). */
export function field(text: string, key: string): string | undefined {
  return parseReply(text).str(key);
}

export function report(label: string, r: ClaudeResult, api: PolicyApi): void {
  const counts = turnCounts(api.turns);
  process.stdout.write(`[e2e] ${label}: ${(r.ms / 1000).toFixed(1)} s, model turns ${JSON.stringify(counts)}, other requests ${api.turns.filter((t) => t.role === 'other').length}\n`);
}
