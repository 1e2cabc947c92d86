// The negative control through the real Claude Code binary: the same quick run twice, the second with ONE
// tool reply altered before the scripted policy reads it (the first record_round reply of "Trials and output"
// says STOP instead of ADVANCE_PHASE: at the quick tier SURVEY has one round). Claude Code and the server are untouched; only the policy's view changes, and
// the run takes a different course. A policy that replayed a fixed call sequence would not notice.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tamper } from './harness/policy-api.js';
import { startFixtureWeb, type FixtureWeb } from '../../demo/web/server.js';
import { REPO, requireBinaries, tempDir, type ClaudeResult, removeTempDirs } from './harness/claude.js';
import type { PolicyApi } from './harness/policy-api.js';
import { completions, expectCleanStream, filesIn, gitProject, launch, policyApi, QUESTION, report, runFolder } from './harness/scenario.js';

const TRIALS = 'Trials and output';

/** Sets a top-level field of a reply in either form the model may see (structuredContent JSON, or text). */
function rewrite(text: string, key: string, from: string, to: string): string {
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    if (v[key] === from) return JSON.stringify({ ...v, [key]: to });
    return text;
  } catch {
    return text.replace(new RegExp(`^${key}: ${from}$`, 'm'), `${key}: ${to}`);
  }
}

const stopAfterRound1: Tamper = ({ role, label, call, result }) => {
  if (role !== 'investigator' || label !== TRIALS || call.tool !== 'mcp' || call.name !== 'record_round') return result;
  if (!/"round":1[,}]|^round: 1$/m.test(result.text)) return result;
  return { ...result, text: rewrite(result.text, 'action', 'ADVANCE_PHASE', 'STOP') };
};

interface Outcome {
  result: ClaudeResult;
  api: PolicyApi;
  dir: string;
}
let web: FixtureWeb;
let baseline: Outcome;
let tampered: Outcome;

async function run(label: string, tamper?: Tamper): Promise<Outcome> {
  const api = await policyApi(web, tamper ? { tamper } : {});
  const project = gitProject();
  const result = await launch({ args: ['--plugin-dir', REPO, `/deep-research:deep-research "${QUESTION}" quick`], cwd: project, home: tempDir('dr-e2e-home-'), api, web }).done;
  report(label, result, api);
  return { result, api, dir: runFolder(project) };
}

beforeAll(async () => {
  requireBinaries();
  web = await startFixtureWeb();
  baseline = await run('negative control, baseline');
  tampered = await run('negative control, one reply altered', stopAfterRound1);
});
afterAll(async () => {
  removeTempDirs();
  await baseline?.api.close();
  await tampered?.api.close();
  await web?.close();
});

describe('one altered tool reply changes the course of a real run', () => {
  it('both runs are otherwise clean', () => {
    for (const o of [baseline, tampered]) {
      expect(o.result.code, o.result.stderr).toBe(0);
      expectCleanStream(o.result, o.api, 'plugin:deep-research:deep-research');
    }
  });

  it('baseline: the thread continues to round 2 and meets its criteria', () => {
    expect(completions(baseline.dir).get(TRIALS)).toMatchObject({ reason: 'CRITERIA_MET', rounds: 2 });
  });

  it('altered: the investigator obeys STOP, records no round 2 and ends the thread early', () => {
    expect(completions(tampered.dir).get(TRIALS)).toMatchObject({ reason: 'ENDED_EARLY', rounds: 1 });
    expect(filesIn(tampered.dir).filter((f) => f.startsWith('micro-report-trials-and-output-'))).toHaveLength(1);
    const turns = tampered.api.turns.filter((t) => t.role === 'investigator' && t.label === TRIALS).map((t) => t.tools.join(','));
    const after = turns.slice(turns.findIndex((t) => t.endsWith('__record_round')) + 1);
    expect(after[0]).toMatch(/__thread_status$/);
    expect(after[1]).toMatch(/__complete_thread$/);
    // The open sub-question becomes a critic target in this run, which the baseline never needed.
    const critique = fs.readFileSync(path.join(tampered.dir, 'critique.md'), 'utf8');
    expect(critique).toContain('What happened to company revenue in the 2022 UK pilot?');
    expect(fs.readFileSync(path.join(baseline.dir, 'critique.md'), 'utf8')).not.toContain('What happened to company revenue in the 2022 UK pilot?');
  });
});
