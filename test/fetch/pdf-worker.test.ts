// The PDF worker thread kept warm between parses: reused while healthy, replaced after any breach, ended
// when idle, and never what keeps a process alive.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { availableParallelism } from 'node:os';
import { pdfWorkerState, prewarmPdf, readPdf, setPdfSplit, setPdfWorkerIdleMs } from '../../src/fetch/pdf/read.js';
import { makePdf, prose, zeroBomb } from '../helpers/pdf.js';
import { fixturesDir, repoRoot } from './helpers.js';
import { tempDir } from '../helpers/mcp.js';

const SMALL = new Uint8Array(makePdf({ pages: [prose(1), prose(2)] }));
const POLICY = new Uint8Array(fs.readFileSync(path.join(fixturesDir('pdf'), 'debian-policy/policy.pdf')));
const LONG = new Uint8Array(makePdf({ pages: Array.from({ length: 80 }, (_, p) => [`Chapter notes, page ${p + 1}`, ...prose(p + 1)]) }));
// A Flate bomb, plain or behind ASCIIHex or a second Flate, is refused before the worker (bomb.ts); one
// behind RunLength reaches the worker, whose RSS watch must end it: the breach path.
const ZEROS = zeroBomb(512);
const FLATE_BOMBS = { plain: undefined, hex: 'hex', 'double Flate': 'flate' } as const;
const BOMB = new Uint8Array(makePdf({ pages: [prose(1)], rawStream: ZEROS, wrap: 'runlength' }));

afterEach(() => {
  setPdfWorkerIdleMs(30_000);
  setPdfSplit(availableParallelism() >= 2);
});

describe('the warm PDF worker', () => {
  it('reads one PDF after another on the same thread, and queues parses that arrive together', async () => {
    const first = await readPdf(SMALL, 'a');
    expect(first.ok).toBe(true);
    const thread = pdfWorkerState().threadId;
    expect(thread).toBeDefined();
    const [b, c] = await Promise.all([readPdf(SMALL, 'b'), readPdf(SMALL, 'c')]);
    expect(b.ok && c.ok).toBe(true);
    expect(pdfWorkerState().threadId).toBe(thread);
  }, 30_000);

  it('ends the thread on a time-limit breach and reads the next PDF on a new one', async () => {
    expect((await readPdf(SMALL, 'warm-up')).ok).toBe(true);
    const before = pdfWorkerState().threadId;
    const slow = await readPdf(POLICY, 'policy', { timeoutMs: 1 });
    expect(slow).toMatchObject({ ok: false, reason: 'timeout' });
    expect(pdfWorkerState().threadId).toBeUndefined();
    const next = await readPdf(SMALL, 'next');
    expect(next.ok).toBe(true);
    expect(pdfWorkerState().threadId).not.toBe(before);
  }, 30_000);

  it.each(Object.entries(FLATE_BOMBS))('refuses a Flate bomb (%s) before it reaches the thread, which stays warm', async (_, wrap) => {
    expect((await readPdf(SMALL, 'warm-up')).ok).toBe(true);
    const before = pdfWorkerState().threadId;
    expect(before).toBeDefined();
    const bomb = await readPdf(new Uint8Array(makePdf({ pages: [prose(1)], rawStream: ZEROS, ...(wrap ? { wrap } : {}) })), 'bomb');
    expect(bomb).toMatchObject({ ok: false, reason: 'too-complex' });
    if (!bomb.ok) expect(bomb.message).toMatch(/inflate to more than 256 MiB: a decompression bomb/);
    expect(pdfWorkerState().threadId).toBe(before);
    expect((await readPdf(SMALL, 'next')).ok).toBe(true);
  }, 30_000);

  it('ends the thread on a memory-limit breach and keeps reading', async () => {
    expect((await readPdf(SMALL, 'warm-up')).ok).toBe(true);
    const bomb = await readPdf(BOMB, 'bomb');
    expect(bomb).toMatchObject({ ok: false, reason: 'too-complex' });
    expect(pdfWorkerState().threadId).toBeUndefined();
    expect((await readPdf(SMALL, 'next')).ok).toBe(true);
  }, 30_000);

  it('reads a long PDF on two threads, every other page each, into the text one thread makes', async () => {
    setPdfSplit(false);
    const one = await readPdf(LONG, 'long');
    setPdfSplit(true);
    const two = await readPdf(LONG, 'long');
    expect(pdfWorkerState().threads).toBe(2);
    expect(two.ok && one.ok).toBe(true);
    if (!two.ok || !one.ok) return;
    expect(two.pages).toBe(80);
    expect(two.markdown).toBe(one.markdown);
    expect(two.markdown.indexOf('page 80')).toBeGreaterThan(two.markdown.indexOf('page 79'));
  }, 30_000);

  it('ends both threads on a breach during a two-thread parse, and reads the next PDF', async () => {
    setPdfSplit(true);
    expect((await readPdf(LONG, 'warm-up')).ok).toBe(true);
    expect(pdfWorkerState().threads).toBe(2);
    expect(await readPdf(POLICY, 'policy', { timeoutMs: 1 })).toMatchObject({ ok: false, reason: 'timeout' });
    expect(pdfWorkerState().threads).toBe(0);
    expect(await readPdf(BOMB, 'bomb')).toMatchObject({ ok: false, reason: 'too-complex' });
    expect(pdfWorkerState().threads).toBe(0);
    expect((await readPdf(LONG, 'next')).ok).toBe(true);
  }, 30_000);

  it('starts a thread ahead of a PDF when asked, reuses it for the parse, and ends it when no PDF comes', async () => {
    setPdfWorkerIdleMs(300);
    setPdfSplit(false);
    // A breach ends whatever thread an earlier test left warm.
    await readPdf(POLICY, 'policy', { timeoutMs: 1 });
    expect(pdfWorkerState().threadId).toBeUndefined();
    prewarmPdf();
    const thread = pdfWorkerState().threadId;
    expect(thread).toBeDefined();
    expect((await readPdf(SMALL, 'a')).ok).toBe(true);
    expect(pdfWorkerState().threadId).toBe(thread);
    prewarmPdf();
    await new Promise((r) => setTimeout(r, 600));
    expect(pdfWorkerState().threadId).toBeUndefined();
  }, 30_000);

  it('ends an idle thread after the idle period', async () => {
    setPdfWorkerIdleMs(100);
    expect((await readPdf(SMALL, 'a')).ok).toBe(true);
    expect(pdfWorkerState().threadId).toBeDefined();
    await new Promise((r) => setTimeout(r, 400));
    expect(pdfWorkerState().threadId).toBeUndefined();
  }, 30_000);

  it('does not keep the process alive once the parse is done', async () => {
    const dir = tempDir('dr-pdf-worker-');
    const script = path.join(dir, 'read-one.mts');
    const readTs = path.join(repoRoot, 'src/fetch/pdf/read.ts');
    fs.writeFileSync(path.join(dir, 'small.pdf'), SMALL);
    fs.writeFileSync(
      script,
      `import { readFileSync } from 'node:fs';\nimport { readPdf, pdfWorkerState } from ${JSON.stringify(readTs)};\n` +
        `const r = await readPdf(new Uint8Array(readFileSync(${JSON.stringify(path.join(dir, 'small.pdf'))})), 'x');\n` +
        `console.log(r.ok, pdfWorkerState().threadId !== undefined);\n`,
    );
    const t0 = Date.now();
    const out = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.on('exit', (code) => resolve({ code, stdout }));
    });
    fs.rmSync(dir, { recursive: true, force: true });
    // The thread was still warm when the script ended, and the process exited anyway, well before the idle period.
    expect(out).toEqual({ code: 0, stdout: 'true true\n' });
    expect(Date.now() - t0).toBeLessThan(20_000);
  }, 40_000);
});
