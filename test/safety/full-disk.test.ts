// A full disk (issue 27 item 2; SPEC 7 "writes are atomic … never a torn one"). A run is driven through a
// real MCP client while its disk is filled before each call, at growing amounts of free space, during
// every kind of write: a fetched source, a round (micro-report and thread state), a drift check, a
// completion report, a critic thread (brief, thread and run state), a critique and the claim audit.
// Every call that fails says the disk is full, leaves every earlier file byte-identical and no temp
// file; every call that succeeds leaves every file whole; once space is back the same call succeeds
// and the run goes on.
//
// Two disks, both always run: a layer injected under the atomic writer that gives short writes and then
// ENOSPC (or fails the fsync), so the test runs on every machine; and a real 2 MiB tmpfs, which needs
// root: where it cannot be mounted the second run uses the injected layer again and says so.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { connect, type Harness } from '../helpers/mcp.js';
import { checkArtifacts, TEMP_FILE } from '../helpers/safety-fs.js';
import { html, PROSE, startServer, type TestServer } from '../fetch/helpers.js';
import { setWriteIo, type WriteIo } from '../../src/store/fs-safe.js';

interface Disk {
  kind: string;
  root: string;
  /** Leaves about `step` units of free space: bytes for the injected layer, 4 KiB pages on tmpfs. */
  fill(step: number): void;
  /** Space is back. */
  free(): void;
  close(): void;
}

const ENOSPC = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });

/** Short writes, then ENOSPC, after `budget` bytes; or, in fsync mode, whole writes and a failing fsync. */
function injectedDisk(label: string): Disk {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dr-fill-'));
  let budget = Infinity;
  let mode: 'write' | 'fsync' = 'write';
  let fills = 0;
  const io: WriteIo = {
    openSync: (f, flags, m) => fs.openSync(f, flags, m),
    writeSync: (fd, buf, off, len) => {
      if (mode === 'fsync') {
        budget -= len;
        return fs.writeSync(fd, buf, off, len);
      }
      if (budget <= 0) throw ENOSPC();
      const n = Math.min(len, budget);
      budget -= n;
      return fs.writeSync(fd, buf, off, n);
    },
    fsyncSync: (fd) => {
      if (budget < 0) throw ENOSPC();
      fs.fsyncSync(fd);
    },
    closeSync: (fd) => fs.closeSync(fd),
    renameSync: (a, b) => fs.renameSync(a, b),
  };
  setWriteIo(io);
  return {
    kind: label,
    root,
    fill(step) {
      // Growing budgets, offset so that the cut lands inside files rather than on their ends.
      budget = step === 0 ? 0 : Math.round(37 * 1.7 ** step);
      mode = fills++ % 3 === 2 ? 'fsync' : 'write';
    },
    free() {
      budget = Infinity;
    },
    close() {
      setWriteIo();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A real 2 MiB tmpfs, filled by a filler file that is cut back to leave `step` pages free. */
function tmpfsDisk(): Disk | string {
  const mnt = fs.mkdtempSync(path.join(os.tmpdir(), 'dr-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mnt], { stdio: 'pipe' });
  } catch (err) {
    fs.rmdirSync(mnt);
    return String((err as { stderr?: Buffer }).stderr ?? err).trim().split('\n')[0] ?? 'mount failed';
  }
  const root = path.join(mnt, 'artifacts');
  fs.mkdirSync(root);
  const filler = path.join(mnt, 'filler');
  return {
    kind: 'tmpfs 2 MiB',
    root,
    fill(step) {
      const fd = fs.openSync(filler, 'w');
      const chunk = Buffer.alloc(64 * 1024);
      let size = 0;
      try {
        for (;;) size += fs.writeSync(fd, chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      }
      fs.ftruncateSync(fd, Math.max(0, Math.floor(size / 4096) * 4096 - step * 4096));
      fs.closeSync(fd);
    },
    free() {
      fs.rmSync(filler, { force: true });
    },
    close() {
      execFileSync('umount', [mnt]);
      fs.rmdirSync(mnt);
    },
  };
}

/** Every file under root by content hash (folders and the lock folder left out). */
function files(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== '.lock') walk(p);
      } else out.set(path.relative(root, p).split(path.sep).join('/'), createHash('sha256').update(fs.readFileSync(p)).digest('hex'));
    }
  };
  walk(root);
  return out;
}

const text = (r: CallToolResult) => (r.content[0]?.type === 'text' ? r.content[0].text : '');

interface Tally {
  disk: string;
  calls: number;
  fills: number;
  refusals: number;
  storedWhole: number;
  kinds: Record<string, number>;
}

/**
 * Runs op with the disk filled at step 0, 1, 2 … until it succeeds. Each refusal must name the full
 * disk, leave every earlier file byte-identical (new files only those the message says were stored
 * whole) and no temp file.
 */
async function untilItFits(disk: Disk, kind: string, tally: Tally, op: () => Promise<CallToolResult>): Promise<Record<string, any>> {
  for (let step = 0; step < 40; step++) {
    const before = files(disk.root);
    disk.fill(step);
    let r: CallToolResult;
    try {
      r = await op();
    } finally {
      disk.free();
    }
    tally.fills++;
    tally.calls++;
    const after = files(disk.root);
    const where = `${disk.kind}, ${kind}, fill step ${step}`;
    expect([...after.keys()].filter((f) => TEMP_FILE.test(f)), `${where}: temp files left`).toEqual([]);
    expect(checkArtifacts(disk.root).problems, where).toEqual([]);
    if (!r.isError) {
      tally.kinds[kind] = step;
      return r.structuredContent as Record<string, any>;
    }
    tally.refusals++;
    const msg = text(r);
    expect(msg, where).toMatch(/the disk is full \(ENOSPC[^]*Free space on the disk that holds the artifacts folder, then make the same call again/);
    expect(msg, where).not.toMatch(/internal error|\/tmp\/|\.tmp/);
    const changed = [...before].filter(([f, h]) => after.get(f) !== h).map(([f]) => f);
    expect(changed, `${where}: earlier files changed by a failed call: ${msg}`).toEqual([]);
    const added = [...after.keys()].filter((f) => !before.has(f));
    if (added.length) {
      tally.storedWhole++;
      expect(msg, where).toMatch(/had stored \d+ files? whole/);
      for (const f of added.filter((x) => !x.includes('/state/source-'))) expect(msg, `${where}: ${f} added, not said`).toContain(f);
    } else expect(msg, where).toMatch(/Nothing was written for this call/);
  }
  throw new Error(`${disk.kind}: ${kind} never fitted`);
}

async function driveRun(disk: Disk, web: TestServer): Promise<Tally> {
  const tally: Tally = { disk: disk.kind, calls: 0, fills: 0, refusals: 0, storedWhole: 0, kinds: {} };
  const h: Harness = await connect({ root: disk.root, env: { DEEP_RESEARCH_ALLOW_HOSTS: web.hostPort } });
  try {
    const brief = {
      threads: [
        { name: 'Trials', sub_questions: [{ id: 'SQ-1', question: 'What happened to output in the trials?' }], subjects: ['Iceland'] },
        { name: 'Counter', sub_questions: [{ id: 'SQ-1', question: 'Where did trials fail?' }], subjects: ['Utah'] },
      ],
    };
    const question = 'Does a four-day week keep output steady?';
    const { run_id } = await untilItFits(disk, 'start_run', tally, () => h.call('start_run', { question, depth: 'deep', brief }));
    await untilItFits(disk, 'start_thread', tally, () => h.call('start_thread', { run_id, thread: 'Trials' }));
    for (let n = 1; n <= 3; n++) {
      const url = `${web.origin}/p/${n}`;
      await untilItFits(disk, 'fetch_source', tally, () => h.call('fetch_source', { run_id, url }));
      await untilItFits(disk, 'record_round', tally, () =>
        h.call('record_round', {
          run_id,
          thread: 'Trials',
          query: `four-day week output ${n}`,
          urls_visited: [url],
          facts: [{ fact: `Output rose by ${n}%.`, url, quote: `Output per hour rose by ${n}% in the pilot group`, confidence: 'VERIFIED', sub_questions: ['SQ-1'] }],
          summary: `Round ${n}.`,
        }),
      );
      await untilItFits(disk, 'check_drift', tally, () => h.call('check_drift', { run_id, thread: 'Trials', url, text: `Iceland four-day week output ${n}` }));
    }
    await untilItFits(disk, 'complete_thread', tally, () => h.call('complete_thread', { run_id, thread: 'Trials' }));
    await untilItFits(disk, 'record_critique', tally, () =>
      h.call('record_critique', { run_id, gaps: [{ kind: 'missing-counterarg', description: 'No failed trials yet.', query: 'four-day week trial failed', priority: 1, material: true }], signoff: false }),
    );
    await untilItFits(disk, 'start_thread (critic)', tally, () =>
      h.call('start_thread', { run_id, thread: 'Critic: failures', definition: { sub_questions: [{ id: 'SQ-1', question: 'Which trials failed?' }], subjects: ['Utah'] } }),
    );
    // The claim audit: a report citing S1, judged through audit_report / record_audit.
    const report = ['# Output', '', '## Findings', '', 'Output per hour rose by 1% in the pilot group [S1].', '', '## Sources', '', `- [S1] Trial 1 — ${web.origin}/p/1`, ''].join('\n');
    fs.writeFileSync(path.join(disk.root, run_id, 'report.md'), report);
    const { pairs } = await h.ok('audit_report', { run_id });
    expect(pairs.length).toBeGreaterThan(0);
    await untilItFits(disk, 'record_audit', tally, () =>
      h.call('record_audit', { run_id, verdicts: pairs.map((p: { pair_id: string; passages: string[] }) => ({ pair_id: p.pair_id, verdict: 'SUPPORTED', passage: p.passages[0] })) }),
    );
    // The run resumes with space back: a new server on the same folder picks it up and goes on.
    const again = await connect({ root: disk.root, env: { DEEP_RESEARCH_ALLOW_HOSTS: web.hostPort } });
    try {
      expect(await again.ok('start_run', { question, depth: 'deep', brief })).toMatchObject({ run_id, resumed: true });
      const status = await again.ok('thread_status', { run_id, thread: 'Critic: failures' });
      expect(status).toBeTruthy();
      const s = await again.ok('fetch_source', { run_id, url: `${web.origin}/p/9` });
      expect(s.source_id).toBe('S4');
      expect((await again.call('verify_report', { run_id })).content.length).toBeGreaterThan(0);
      expect(checkArtifacts(disk.root).problems).toEqual([]);
    } finally {
      await again.close();
    }
  } finally {
    await h.close();
  }
  return tally;
}

describe('a full disk during every kind of write (issue 27 item 2)', () => {
  let web: TestServer | undefined;
  const serve = async () =>
    (web ??= await startServer((req, res) => {
      const n = Number(/\/p\/(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
      res.setHeader('content-type', 'text/html; charset=utf-8');
      // Pages of a few KiB, so a source spans pages of the tmpfs and the cut lands inside it.
      res.end(html(`<article><h1>Trial ${n}</h1><p>Output per hour rose by ${n}% in the pilot group, according to the report.</p>${`<p>${PROSE}</p>`.repeat(8 + n * 6)}</article>`, `<title>Trial ${n}</title>`));
    }));
  afterAll(async () => web?.close());

  it('through a layer that gives short writes, then ENOSPC or a failing fsync', async () => {
    const disk = injectedDisk('injected layer');
    try {
      const t = await driveRun(disk, await serve());
      console.log(`[full-disk] ${JSON.stringify(t)}`);
      expect(t.refusals).toBeGreaterThan(40);
    } finally {
      disk.close();
    }
  }, 120_000);

  it('on a real 2 MiB tmpfs (the injected layer where it cannot be mounted)', async () => {
    const real = tmpfsDisk();
    const disk = typeof real === 'string' ? injectedDisk(`injected layer (tmpfs not mounted: ${real})`) : real;
    try {
      const t = await driveRun(disk, await serve());
      console.log(`[full-disk] ${JSON.stringify(t)}`);
      expect(t.refusals).toBeGreaterThan(10);
    } finally {
      disk.close();
    }
  }, 120_000);
});
