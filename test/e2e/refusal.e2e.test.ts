// Refusal: the scripted report carries one fabricated citation (a source id that was never stored, listed in
// Sources with a made-up URL). verify_report must refuse it inside the real Claude Code run, and the scripted
// orchestrator must act on the problems it names: remove those lines, say so in Methods, verify again.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseReply } from '../../demo/policy/reply.js';
import { startFixtureWeb, type FixtureWeb } from '../../demo/web/server.js';
import { REPO, requireBinaries, streamFacts, tempDir, type ClaudeResult, removeTempDirs } from './harness/claude.js';
import type { PolicyApi } from './harness/policy-api.js';
import { expectCleanStream, field, gitProject, launch, policyApi, QUESTION, report, resultsOf, runFolder, verifyIndependently } from './harness/scenario.js';

let web: FixtureWeb;
let api: PolicyApi;
let project: string;
let result: ClaudeResult;

beforeAll(async () => {
  requireBinaries();
  web = await startFixtureWeb();
  api = await policyApi(web, { variation: { fabricateCitation: true } });
  project = gitProject();
  result = await launch({ args: ['--plugin-dir', REPO, `/deep-research:deep-research "${QUESTION}" quick`], cwd: project, home: tempDir('dr-e2e-home-'), api, web }).done;
  report('refusal (fabricated citation)', result, api);
});
afterAll(async () => {
  removeTempDirs();
  await api?.close();
  await web?.close();
});

describe('a fabricated citation', () => {
  it('runs cleanly otherwise', () => {
    expect(result.code, result.stderr).toBe(0);
    expectCleanStream(result, api, 'plugin:deep-research:deep-research');
  });

  it('is refused by verify_report, with the offending lines named', () => {
    const verify = resultsOf(result, 'verify_report');
    expect(verify.length).toBeGreaterThanOrEqual(2);
    const firstReply = parseReply(verify[0]!.text);
    expect(firstReply.str('ok')).toBe('false');
    const problems = firstReply.json<{ line: number; message: string }[]>('problems') ?? [];
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((p) => p.line > 0)).toBe(true);
    expect(problems.map((p) => p.message).join(' ')).toMatch(/S\d+/);
  });

  it('is removed by the orchestrator, which rewrites the report and verifies again until it passes', async () => {
    const verify = resultsOf(result, 'verify_report');
    expect(field(verify.at(-1)!.text, 'ok')).toBe('true');
    const writes = streamFacts(result.events).toolResults.filter((t) => t.name === 'Write' && !t.isError);
    expect(writes.length).toBeGreaterThanOrEqual(2);
    const dir = runFolder(project);
    const text = fs.readFileSync(path.join(dir, 'report.md'), 'utf8');
    expect(text).not.toMatch(/meta-analysis of 40 trials.*\[S\d+\]/);
    expect(text).not.toContain('example.org');
    expect(text).toMatch(/^Removed on verification: .*meta-analysis/m);
    const again = await verifyIndependently(project, path.basename(dir));
    expect(field(again, 'ok'), again).toBe('true');
  });
});
