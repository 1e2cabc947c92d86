// SPEC 7: "No reply says 'internal error': every failure names what to fix, and no reply carries an
// absolute path of the machine, except a path the caller gave." A run's files are broken on disk in ways
// no tool input can reach (a state file replaced by a folder, the state folder by a file, a thread's
// state by a folder, a report's name by a folder); every tool is called on the broken run, and every answer is read.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connect, type Harness } from '../helpers/mcp.js';
import { seedSource } from '../helpers/fixtures.js';
import { absolutePaths } from '../helpers/safety-fuzz.js';
import { sandbox } from '../helpers/safety-fs.js';
import { errorResult, scrubPaths } from '../../src/tools/result.js';
import { microReportName } from '../../src/reports/micro-report.js';

const Q = 'Does a broken run answer in words?';
const URL_A = 'https://example.org/a';
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const text = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

async function brokenRun(breakIt: (runDir: string) => void) {
  h = await connect({ root: sandbox('dr-errors-').root });
  const brief = { threads: [{ name: 'Only', sub_questions: [{ id: 'SQ-1', question: 'What?' }], subjects: ['Iceland'] }] };
  const runId = (await h.ok('start_run', { question: Q, depth: 'quick', brief })).run_id as string;
  await h.ok('start_thread', { run_id: runId, thread: 'Only' });
  await seedSource(h.root, runId, URL_A);
  fs.writeFileSync(path.join(h.root, runId, 'report.md'), `# R\n\nA claim [S1].\n\n## Methods\n\nM.\n\n## Sources\n\n- [S1] T — ${URL_A}\n`);
  breakIt(path.join(h.root, runId));
  const calls: [string, Record<string, unknown>][] = [
    ['start_run', { question: Q, depth: 'quick', brief }],
    ['start_thread', { run_id: runId, thread: 'Only' }],
    ['thread_status', { run_id: runId, thread: 'Only' }],
    ['fetch_source', { run_id: runId, url: URL_A }],
    ['check_drift', { run_id: runId, thread: 'Only', source_id: 'S1' }],
    ['record_round', { run_id: runId, thread: 'Only', query: 'q', urls_visited: [], facts: [], summary: 's' }],
    ['complete_thread', { run_id: runId, thread: 'Only' }],
    ['record_critique', { run_id: runId, gaps: [], signoff: true }],
    ['verify_report', { run_id: runId }],
  ];
  const out: { call: string; text: string; reply: string; args: string }[] = [];
  for (const [name, args] of calls) {
    const r = await h.call(name, args);
    out.push({ call: name, text: text(r), reply: JSON.stringify([r.content, r.structuredContent ?? null]), args: JSON.stringify(args) });
  }
  return out;
}

function problems(out: Awaited<ReturnType<typeof brokenRun>>): string[] {
  const root = (h as Harness).root;
  return out.flatMap((o) => [
    ...(/internal error/i.test(o.reply) ? [`${o.call}: says "internal error": ${o.text.slice(0, 300)}`] : []),
    ...absolutePaths(o.reply, o.args, root).map((p) => `${o.call}: carries ${p}: ${o.text.slice(0, 300)}`),
  ]);
}

describe('a run broken on disk: every tool answers in words, without the machine\'s paths', () => {
  it('state/run.json is a folder', async () => {
    const out = await brokenRun((dir) => {
      fs.rmSync(path.join(dir, 'state', 'run.json'));
      fs.mkdirSync(path.join(dir, 'state', 'run.json'));
    });
    expect(problems(out)).toEqual([]);
    const status = out.find((o) => o.call === 'thread_status') as { text: string };
    expect(status.text).toMatch(/refusing to read "[^"]*state\/run\.json": it is a folder, not a regular file/);
  });

  it('the state folder is a file', async () => {
    const out = await brokenRun((dir) => {
      fs.rmSync(path.join(dir, 'state'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'state'), 'x');
    });
    expect(problems(out)).toEqual([]);
  });

  it("the round's micro-report name is taken by a folder", async () => {
    const out = await brokenRun((dir) => {
      const { threads } = JSON.parse(fs.readFileSync(path.join(dir, 'state', 'run.json'), 'utf8')) as { threads: { slug: string }[] };
      fs.mkdirSync(path.join(dir, microReportName((threads[0] as { slug: string }).slug, 1)));
      fs.writeFileSync(path.join(dir, microReportName((threads[0] as { slug: string }).slug, 1), 'keep'), 'x');
    });
    expect(problems(out)).toEqual([]);
    const round = out.find((o) => o.call === 'record_round') as { text: string };
    expect(round.text).toMatch(/^Refused: record_round could not finish: .*\((EISDIR|ENOTEMPTY|EEXIST) at "[^"]+\/micro-report-[a-z0-9-]+-round-1\.md"\)/);
  });

  it("a thread's state file is a folder", async () => {
    const out = await brokenRun((dir) => {
      const f = fs.readdirSync(path.join(dir, 'state')).find((n) => n.startsWith('thread-')) as string;
      fs.rmSync(path.join(dir, 'state', f));
      fs.mkdirSync(path.join(dir, 'state', f));
    });
    expect(problems(out)).toEqual([]);
  });
});

describe('errorResult', () => {
  it('puts a file-system error in words, with the path relative to the artifacts root', () => {
    const err = Object.assign(new Error("ENAMETOOLONG: name too long, open '/srv/x/artifacts/run-1/aaaa'"), { code: 'ENAMETOOLONG', path: '/srv/x/artifacts/run-1/aaaa' });
    const t = (errorResult(err, { tool: 'record_round', root: '/srv/x/artifacts' }).content[0] as { text: string }).text;
    expect(t).toBe(
      'Refused: record_round could not finish: a path or file name is too long for the file system (ENAMETOOLONG at "run-1/aaaa"). Nothing was written for this call: every file is as it was. Check the arguments that name files or folders, and the artifacts folder, then retry; report it if it repeats.',
    );
  });

  it('reports a bug without "internal error" and without absolute paths', () => {
    const t = (errorResult(new TypeError("cannot read 'x' of undefined at /home/me/app/src/a.ts and /srv/x/artifacts/run-1/state"), { tool: 'thread_status', root: '/srv/x/artifacts' }).content[0] as { text: string }).text;
    expect(t).not.toMatch(/internal error|\/home|\/srv/);
    expect(t).toContain('…/a.ts');
    expect(t).toContain('run-1/state');
    expect(scrubPaths('see https://example.org/a/b and docs/x/y', '/r')).toBe('see https://example.org/a/b and docs/x/y');
  });
});
