// The scripted policy driven in-process (no Claude Code): a real MCP Client over stdio to the bundled server
// (node dist/server.js, as an agent CLI spawns it), the fixture web, a temporary project folder. The policy's
// own tests and the demo both run this way.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expandCommand } from '../../../demo/command.js';
import { runConversation, type ConversationOutcome, type HostOptions, type TraceEntry } from '../../../demo/host.js';
import type { Variation } from '../../../demo/policy/index.js';
import { fourDayWeek } from '../../../demo/scenario.js';
import type { FixtureWeb } from '../../../demo/web/server.js';
import { SERVER_JS, tempDir } from './claude.js';

export interface InProcessRun {
  cwd: string;
  trace: TraceEntry[];
  outcomes: ConversationOutcome[];
  final: string;
  runDir: string;
  stderr: string;
}

export async function runInProcess(o: {
  web: FixtureWeb;
  args?: string;
  variation?: Variation;
  tamper?: HostOptions['tamper'];
  cwd?: string;
}): Promise<InProcessRun> {
  const cwd = o.cwd ?? tempDir('dr-policy-');
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  Object.assign(env, { DEEP_RESEARCH_ALLOW_HOSTS: o.web.allowHost, DEEP_RESEARCH_LOG: 'off' });
  delete env.DEEP_RESEARCH_ARTIFACTS;
  const transport = new StdioClientTransport({ command: process.execPath, args: [SERVER_JS], cwd, env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const client = new Client({ name: 'policy-test', version: '1' });
  await client.connect(transport);
  try {
    const trace: TraceEntry[] = [];
    const outcomes: ConversationOutcome[] = [];
    const main = await runConversation(
      expandCommand(o.args ?? `"${fourDayWeek.question}"`),
      {
        cwd,
        trace,
        env: { scenario: fourDayWeek, baseUrl: o.web.baseUrl, ...(o.variation ? { variation: o.variation } : {}) },
        ...(o.tamper ? { tamper: o.tamper } : {}),
        callTool: async (name, args) => {
          const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
          return { text: r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n'), isError: r.isError === true };
        },
      },
      outcomes,
    );
    const artifacts = path.join(cwd, 'artifacts');
    const runs = fs.existsSync(artifacts) ? fs.readdirSync(artifacts) : [];
    return { cwd, trace, outcomes, final: main.final, runDir: path.join(artifacts, runs[0] ?? 'missing'), stderr };
  } finally {
    await client.close();
  }
}

/** The server calls of the trace, optionally for one role/thread and one tool. */
export function serverCalls(trace: TraceEntry[], filter: { tool?: string; label?: string; role?: string } = {}) {
  return trace.filter(
    (t) =>
      t.call.tool === 'mcp' &&
      (filter.tool === undefined || t.call.name === filter.tool) &&
      (filter.label === undefined || t.label === filter.label) &&
      (filter.role === undefined || t.role === filter.role),
  ) as (TraceEntry & { call: { tool: 'mcp'; name: string; args: Record<string, unknown> } })[];
}
