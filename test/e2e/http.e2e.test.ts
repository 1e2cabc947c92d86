// The real Claude Code over Streamable HTTP: the commands installed into a project, the server registered
// with `claude mcp add --transport http` (a team's shared server, say), and the scripted quick run through
// it to a verified report. The server runs here, with the project as its working directory, as
// `deep-research serve --http` would be started there.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureWeb, type FixtureWeb } from '../../demo/web/server.js';
import { serveHttp, type HttpServerHandle } from '../../src/http/serve.js';
import { CLAUDE, CLI_JS, requireBinaries, streamFacts, tempDir, type ClaudeResult, removeTempDirs } from './harness/claude.js';
import type { PolicyApi } from './harness/policy-api.js';
import { completions, field, gitProject, launch, policyApi, QUESTION, report, resultsOf, runFolder, verifyIndependently } from './harness/scenario.js';

const TOKEN = 'e2e-http-token-0123456789abcdef';
let web: FixtureWeb;
let api: PolicyApi;
let project: string;
let http: HttpServerHandle;
let result: ClaudeResult;
let listed: string;

beforeAll(async () => {
  requireBinaries();
  if (!fs.existsSync(CLI_JS)) throw new Error(`${CLI_JS} is missing: run \`npm run build\``);
  web = await startFixtureWeb();
  api = await policyApi(web);
  const home = tempDir('dr-e2e-home-');
  project = gitProject();
  const env = { PATH: process.env.PATH ?? '', HOME: home };
  execFileSync(process.execPath, [CLI_JS, 'install', '--project', project], { env, stdio: 'pipe' });
  http = await serveHttp(
    { host: '127.0.0.1', port: 0, token: TOKEN, allowOrigins: [] },
    { cwd: project, env: { DEEP_RESEARCH_LOG: 'off', DEEP_RESEARCH_ALLOW_HOSTS: web.allowHost } },
  );
  // The HTTP server takes the place of the stdio entry the installer wrote, under the same name.
  const claude = (...args: string[]) => execFileSync(CLAUDE, args, { cwd: project, env: { ...env, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' }, stdio: 'pipe' }).toString();
  claude('mcp', 'remove', '--scope', 'project', 'deep-research');
  claude('mcp', 'add', '--scope', 'project', '--transport', 'http', 'deep-research', http.url, '--header', `Authorization: Bearer ${TOKEN}`);
  listed = claude('mcp', 'list');
  result = await launch({ args: [`/deep-research "${QUESTION}" quick`], cwd: project, home, api, web }).done;
  report('/deep-research over Streamable HTTP', result, api);
});
afterAll(async () => {
  removeTempDirs();
  await http?.close();
  await api?.close();
  await web?.close();
});

describe('Claude Code over Streamable HTTP', () => {
  it('registers the server as HTTP under the plain name', () => {
    // `mcp list` shows a project server as pending until a person approves it; the run below connects it.
    expect(listed).toContain(`deep-research: ${http.url} (HTTP)`);
    const mcp = JSON.parse(fs.readFileSync(path.join(project, '.mcp.json'), 'utf8'));
    expect(mcp.mcpServers['deep-research']).toMatchObject({ type: 'http', url: http.url });
  });

  it('runs the quick tier through it to a verified report', async () => {
    expect(result.code, result.stderr).toBe(0);
    const facts = streamFacts(result.events);
    expect(facts.mcpServers.find((s) => s.name === 'deep-research')?.status).toBe('connected');
    expect(facts.permissionDenials).toEqual([]);
    const names = facts.toolResults.map((t) => t.name).filter((n) => n.startsWith('mcp__deep-research__'));
    expect(names.length).toBeGreaterThan(20);
    const dir = runFolder(project);
    expect([...completions(dir).values()].length).toBeGreaterThanOrEqual(2);
    expect(resultsOf(result, 'verify_report').map((v) => field(v.text, 'ok')).at(-1)).toBe('true');
    const again = await verifyIndependently(project, path.basename(dir));
    expect(field(again, 'ok'), again).toBe('true');
  });
});
