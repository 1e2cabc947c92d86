// The scripted policy is only worth something if it obeys the server. These tests drive it in-process
// against the bundled server and a fixture web, then alter ONE tool reply before the policy reads it and
// show that the policy changes course. A fixed call sequence would pass the baseline and fail every control.
// (The policy tests plumbing and protocol, not an LLM's judgement.)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeRatio } from '../../demo/policy/query.js';
import { parseReply } from '../../demo/policy/reply.js';
import { startFixtureWeb, type FixtureWeb } from '../../demo/web/server.js';
import { requireBinaries, removeTempDirs } from './harness/claude.js';
import { runInProcess, serverCalls, type InProcessRun } from './harness/in-process.js';

const TRIALS = 'Trials and output';
const COUNTER = 'Counter-evidence';

let web: FixtureWeb;
let baseline: InProcessRun;

beforeAll(async () => {
  requireBinaries();
  web = await startFixtureWeb();
  baseline = await runInProcess({ web });
});
afterAll(async () => {
  removeTempDirs();
  await web?.close();
});

const field = (text: string, key: string) => parseReply(text).str(key);

/**
 * Every reply's text is the JSON of its structuredContent: a control parses it, changes fields and
 * serialises it again, so the policy reads the altered reply the way it reads a real one.
 */
function editReply(text: string, edit: (v: Record<string, unknown>) => void): string {
  const v = JSON.parse(text) as Record<string, unknown>;
  edit(v);
  return JSON.stringify(v);
}
const jsonOf = (text: string) => JSON.parse(text) as Record<string, unknown>;

describe('baseline: the policy follows the server to a verified report', () => {
  it('stops each thread where the server says, for the reason it gives', () => {
    const trials = serverCalls(baseline.trace, { tool: 'record_round', label: TRIALS });
    const counter = serverCalls(baseline.trace, { tool: 'record_round', label: COUNTER });
    expect(trials.map((c) => field(c.result.text, 'action'))).toEqual(['CONTINUE', 'STOP']);
    expect(field(trials[1]!.result.text, 'convergence_reason')).toBe('CRITERIA_MET');
    expect(counter.map((c) => field(c.result.text, 'action'))).toEqual(['CONTINUE', 'STOP']);
    expect(field(counter[1]!.result.text, 'convergence_reason')).toBe('PLATEAU_STOPPED');
  });

  it('skips the page check_drift flags and the page fetch_source refuses', () => {
    const drift = serverCalls(baseline.trace, { tool: 'check_drift', label: TRIALS });
    expect(drift.some((c) => field(c.result.text, 'action') === 'skip')).toBe(true);
    const failed = serverCalls(baseline.trace, { tool: 'fetch_source', label: TRIALS }).filter((c) => c.result.isError);
    expect(failed.map((c) => c.call.args.url)).toEqual([`${web.baseUrl}uk-pilot-employer-survey.html`]);
    const round2 = serverCalls(baseline.trace, { tool: 'record_round', label: TRIALS })[1]!;
    expect(round2.call.args.urls_visited).not.toContain(`${web.baseUrl}uk-pilot-employer-survey.html`);
  });

  it('opens one critic thread for next_target, then critiques until stop', () => {
    const critiques = serverCalls(baseline.trace, { tool: 'record_critique' });
    expect(critiques.map((c) => field(c.result.text, 'stop'))).toEqual(['false', 'false', 'true']);
    const target = field(critiques[0]!.result.text, 'next_target');
    const opened = serverCalls(baseline.trace, { tool: 'start_thread', role: 'orchestrator' });
    expect(opened).toHaveLength(1);
    expect((opened[0]!.call.args.definition as { sub_questions: { question: string }[] }).sub_questions[0]!.question).toBe(target);
    expect(field(critiques[2]!.result.text, 'clean_signoffs')).toBe('2');
  });

  it('writes report.md that verify_report accepts', () => {
    const verify = serverCalls(baseline.trace, { tool: 'verify_report' });
    expect(verify.map((c) => field(c.result.text, 'ok'))).toEqual(['true']);
    expect(fs.readFileSync(path.join(baseline.runDir, 'report.md'), 'utf8')).toMatch(/^## Sources$/m);
  });
});

describe('negative controls: one altered reply, a different course', () => {
  it('record_round says STOP instead of CONTINUE → the investigator finishes after round 1 (ENDED_EARLY)', async () => {
    const run = await runInProcess({
      web,
      tamper: (call, result) =>
        call.tool === 'mcp' && call.name === 'record_round' && call.args.thread === TRIALS && jsonOf(result.text).round === 1
          ? { ...result, text: editReply(result.text, (v) => expectAndSet(v, 'action', 'CONTINUE', 'STOP')) }
          : result,
    });
    const rounds = serverCalls(run.trace, { tool: 'record_round', label: TRIALS });
    expect(rounds).toHaveLength(1);
    const investigatorCalls = serverCalls(run.trace, { label: TRIALS, role: 'investigator' }).map((c) => c.call.name);
    expect(investigatorCalls.slice(investigatorCalls.indexOf('record_round'))).toEqual(['record_round', 'thread_status', 'complete_thread']);
    const report = fs.readFileSync(path.join(run.runDir, 'thread-completion-' + slugOf(run, TRIALS) + '.md'), 'utf8');
    expect(report).toMatch(/^Convergence reason: ENDED_EARLY$/m);
    // The baseline, same scenario, same server: two rounds and CRITERIA_MET.
    expect(serverCalls(baseline.trace, { tool: 'record_round', label: TRIALS })).toHaveLength(2);
  });

  it('record_round says REFORMULATE with reformulate_from → the next query changes at least half its terms', async () => {
    const run = await runInProcess({
      web,
      tamper: (call, result) => {
        if (!(call.tool === 'mcp' && call.name === 'record_round' && call.args.thread === COUNTER && jsonOf(result.text).round === 1)) return result;
        const q = String(call.args.query);
        return {
          ...result,
          text: editReply(result.text, (v) => {
            expectAndSet(v, 'action', 'CONTINUE', 'REFORMULATE');
            const next = v.next as Record<string, unknown>;
            expect(next.round).toBe(2);
            Object.assign(next, { reformulate_from: q, escape_strategy: 'negative search' });
          }),
        };
      },
    });
    const rounds = serverCalls(run.trace, { tool: 'record_round', label: COUNTER });
    const base = serverCalls(baseline.trace, { tool: 'record_round', label: COUNTER });
    const q1 = String(rounds[0]!.call.args.query);
    const q2 = String(rounds[1]!.call.args.query);
    expect(changeRatio(q1, q2)).toBeGreaterThanOrEqual(0.5);
    expect(q2).toMatch(/failed|abandoned|missing/);
    // Without the altered reply the same round uses none of the escape strategy's words.
    expect(String(base[1]!.call.args.query)).not.toMatch(/failed|abandoned|missing/);
  });

  it('check_drift says skip for a page it accepted → no fact from that page is recorded', async () => {
    const iceland = `${web.baseUrl}iceland-trials.html`;
    const run = await runInProcess({
      web,
      tamper: (call, result) => {
        if (call.tool !== 'mcp' || call.name !== 'check_drift' || call.args.source_id !== 'S1') return result;
        return {
          ...result,
          text: editReply(result.text, (v) => {
            expectAndSet(v, 'action', 'extract', 'skip');
            expectAndSet(v, 'drift', false, true);
          }),
        };
      },
    });
    const round1 = serverCalls(run.trace, { tool: 'record_round', label: TRIALS })[0]!;
    expect((round1.call.args.facts as { url: string }[]).some((f) => f.url === iceland)).toBe(false);
    const base1 = serverCalls(baseline.trace, { tool: 'record_round', label: TRIALS })[0]!;
    expect((base1.call.args.facts as { url: string }[]).some((f) => f.url === iceland)).toBe(true);
  });

  it('record_critique says stop on the first critique → no critic thread is opened', async () => {
    const run = await runInProcess({
      web,
      tamper: (call, result) =>
        call.tool === 'mcp' && call.name === 'record_critique' && jsonOf(result.text).critic_round === 1
          ? {
              ...result,
              text: editReply(result.text, (v) => {
                expectAndSet(v, 'stop', false, true);
                expect(v.next_target).toBeTypeOf('string');
                delete v.next_target;
              }),
            }
          : result,
    });
    expect(serverCalls(run.trace, { tool: 'record_critique' })).toHaveLength(1);
    expect(serverCalls(run.trace, { tool: 'start_thread', role: 'orchestrator' })).toHaveLength(0);
    expect(serverCalls(baseline.trace, { tool: 'start_thread', role: 'orchestrator' })).toHaveLength(1);
  });

  it('the audit finds the compound answer sentence PARTIAL: verify_report fails until it is split, then passes', async () => {
    // Baseline: the first judgement records PARTIAL for both sources of the compound sentence; the writer
    // splits it, the auditor judges the new pairs, and the only verify_report call passes.
    const recorded = serverCalls(baseline.trace, { tool: 'record_audit' });
    const first = recorded[0]!.call.args.verdicts as { verdict: string; note?: string }[];
    expect(first.filter((v) => v.verdict === 'PARTIAL').map((v) => v.note)).toEqual([
      'S1 does not support: revenue in the 2022 UK pilot held up',
      'S4 does not support: In the trials these sources describe, cutting hours without cutting pay left output about the same: Iceland\'s public-sector trials kept productivity and services steady',
    ]);
    const report = fs.readFileSync(path.join(baseline.runDir, 'report.md'), 'utf8');
    expect(report).toMatch(/steady \[S1\], and revenue in the 2022 UK pilot held up \[S4\]\./);
    expect(report).toMatch(/^Audit: a fresh reader judged \d+ claim-source pairs .*; changed: the answer's compound sentence was split/m);
    // Control: the same run with a writer that leaves the PARTIAL sentence as it is never verifies.
    const run = await runInProcess({ web, variation: { ignoreAudit: true } });
    const verify = serverCalls(run.trace, { tool: 'verify_report' });
    expect(verify.length).toBeGreaterThan(0);
    for (const v of verify) {
      expect(field(v.result.text, 'ok')).toBe('false');
      expect(v.result.text).toMatch(/is PARTIAL: S1 does not support: revenue in the 2022 UK pilot held up/);
    }
    expect(fs.readFileSync(path.join(run.runDir, 'report.md'), 'utf8')).toMatch(/held up \[S1, S4\]\./);
  });

  it('a fabricated citation: verify_report refuses, the orchestrator removes the line and verifies again', async () => {
    const run = await runInProcess({ web, variation: { fabricateCitation: true } });
    const verify = serverCalls(run.trace, { tool: 'verify_report' });
    expect(field(verify[0]!.result.text, 'ok')).toBe('false');
    expect(field(verify.at(-1)!.result.text, 'ok')).toBe('true');
    const report = fs.readFileSync(path.join(run.runDir, 'report.md'), 'utf8');
    expect(report).not.toMatch(/meta-analysis of 40 trials.*\[S\d+\]/);
    expect(report).toMatch(/^Removed on verification: /m);
  });
});

/** A control alters a field that really held the baseline's value; otherwise it would alter nothing. */
function expectAndSet(v: Record<string, unknown>, key: string, from: unknown, to: unknown): void {
  expect(v[key]).toBe(from);
  v[key] = to;
}

function slugOf(run: InProcessRun, thread: string): string {
  const file = fs.readdirSync(run.runDir).find((f) => f.startsWith('thread-completion-') && fs.readFileSync(path.join(run.runDir, f), 'utf8').includes(`# Thread Completion Report: ${thread}\n`));
  if (!file) throw new Error(`no completion report for ${thread}`);
  return file.slice('thread-completion-'.length, -3);
}
