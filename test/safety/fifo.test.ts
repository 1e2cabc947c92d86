// Regular files only (SPEC 7, issue 19 item 2): a named pipe where the server reads a run file is refused by
// name at once, instead of blocking the process for good; the next request is answered.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type Harness } from '../helpers/mcp.js';
import { brief, QUESTION, seedSource } from '../helpers/fixtures.js';

let h: Harness;
afterEach(async () => h?.close());

const REPORT = '# Q\n\n## Findings\n\nOutput held steady in the trial [S1].\n\n## Methods\n\nx\n\n## Sources\n\n- [S1] Trial — https://example.org/a\n';

function fifo(file: string): void {
  fs.rmSync(file, { force: true });
  expect(spawnSync('mkfifo', [file]).status).toBe(0);
}

describe('a FIFO at a file the server reads', () => {
  it.each([
    ['state/run.json', 'thread_status'],
    ['state/thread-*.json', 'thread_status'],
    ['report.md', 'audit_report'],
    ['report.md', 'verify_report'],
    ['sources/S1.md', 'audit_report'],
    ['state/audit.json', 'audit_report'],
    ['sources/S1.md', 'fetch_source'],
  ])('%s is refused by name within a second (%s), and the next request is answered', async (pattern, tool) => {
    let file = pattern;
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
    await h.ok('start_thread', { run_id, thread: 'Trials and output' });
    await seedSource(h.root, run_id, 'https://example.org/a', '# Trial\n\nOutput held steady in the trial, the report says, across every team.\n', 'Trial');
    fs.writeFileSync(path.join(h.root, run_id, 'report.md'), REPORT);
    await h.ok('record_audit', { run_id, verdicts: [] }).catch(() => undefined);
    if (!fs.existsSync(path.join(h.root, run_id, 'state', 'audit.json'))) fs.writeFileSync(path.join(h.root, run_id, 'state', 'audit.json'), '{"version":1,"verdicts":{}}\n');
    if (file.includes('*')) file = `state/${fs.readdirSync(path.join(h.root, run_id, 'state')).find((f) => f.startsWith('thread-'))}`;
    fifo(path.join(h.root, run_id, file));
    const t0 = Date.now();
    const why = await h.refused(tool, tool === 'thread_status' ? { run_id, thread: 'Trials and output' } : tool === 'fetch_source' ? { run_id, url: 'https://example.org/a' } : { run_id });
    expect(Date.now() - t0).toBeLessThan(1_000);
    expect(why).toContain(`${file}": it is a named pipe (FIFO), not a regular file`);
    expect(why).not.toMatch(/internal error/i);
    // The session goes on serving.
    const next = await h.ok('start_run', { question: `${QUESTION} (another)`, brief: brief(), dry_run: true });
    expect(next.max_fetches).toBeGreaterThan(0);
  });
});
