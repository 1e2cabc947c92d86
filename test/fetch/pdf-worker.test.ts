// The PDF worker thread kept warm between parses: reused while healthy, replaced after any breach, ended
// when idle, and never what keeps a process alive.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { availableParallelism } from 'node:os';
import { pdfWorkerState, prewarmPdf, readPdf, setPdfSplit, setPdfWorkerIdleMs } from '../../src/fetch/pdf/read.js';
import { lzw, lzwZeros, makePdf, prose, zeroBomb } from '../helpers/pdf.js';
import { inflatedSize } from '../../src/fetch/pdf/bomb.js';
import { fixturesDir, repoRoot } from './helpers.js';
import { tempDir } from '../helpers/mcp.js';

const SMALL = new Uint8Array(makePdf({ pages: [prose(1), prose(2)] }));
const POLICY = new Uint8Array(fs.readFileSync(path.join(fixturesDir('pdf'), 'debian-policy/policy.pdf')));
const LONG = new Uint8Array(makePdf({ pages: Array.from({ length: 80 }, (_, p) => [`Chapter notes, page ${p + 1}`, ...prose(p + 1)]) }));
// A bomb behind any chain of the filters pdf.js decodes text streams with (Flate, LZW, RunLength, ASCIIHex,
// ASCII85) is refused before the worker (bomb.ts). One that stays just under the check's cap still
// reaches the worker, whose RSS watch must end it: the breach path.
const ZEROS = zeroBomb(512);
const BOMBS: Record<string, () => Uint8Array> = {
  plain: () => new Uint8Array(makePdf({ pages: [prose(1)], rawStream: ZEROS })),
  hex: () => new Uint8Array(makePdf({ pages: [prose(1)], rawStream: ZEROS, wrap: 'hex' })),
  'double Flate': () => new Uint8Array(makePdf({ pages: [prose(1)], rawStream: ZEROS, wrap: 'flate' })),
  'RunLength then Flate': () => new Uint8Array(makePdf({ pages: [prose(1)], rawStream: ZEROS, wrap: 'runlength' })),
  'LZW then Flate': () => new Uint8Array(makePdf({ pages: [prose(1)], rawStream: ZEROS, wrap: 'lzw' })),
  LZW: () => new Uint8Array(makePdf({ pages: [prose(1)], stream: { data: lzwZeros(512), filter: '/LZWDecode' } })),
  'ASCII85 then LZW': () => new Uint8Array(makePdf({ pages: [prose(1)], stream: { data: a85(lzwZeros(512)), filter: '[/A85 /LZW]' } })),
};
const BOMB = new Uint8Array(makePdf({ pages: [prose(1)], rawStream: zeroBomb(250) }));

/** ASCII85 (ISO 32000-1, 7.4.3), for a test stream. */
function a85(data: Buffer): Buffer {
  let out = '';
  for (let i = 0; i < data.length; i += 4) {
    const n = Math.min(4, data.length - i);
    const word = Buffer.alloc(4);
    data.copy(word, 0, i, i + n);
    let v = word.readUInt32BE(0);
    if (v === 0 && n === 4) {
      out += 'z';
      continue;
    }
    const digits: string[] = [];
    for (let k = 0; k < 5; k++) {
      digits.unshift(String.fromCharCode((v % 85) + 33));
      v = Math.floor(v / 85);
    }
    out += digits.slice(0, n + 1).join('');
  }
  return Buffer.from(`${out}~>`, 'latin1');
}

afterEach(() => {
  setPdfWorkerIdleMs(30_000);
  setPdfSplit(availableParallelism() >= 2);
});

describe('the bomb check decodes as pdf.js does', () => {
  const ops = `BT /F1 11 Tf 14 TL 72 740 Td ${prose(1).map((l) => `(${l}) Tj T*`).join(' ')} ET`;
  const runLength = (b: Buffer) => Buffer.concat([Buffer.from([256 - 99, 0x20]), ...Array.from({ length: Math.ceil(b.length / 128) }, (_, k) => Buffer.concat([Buffer.from([b.subarray(k * 128, k * 128 + 128).length - 1]), b.subarray(k * 128, k * 128 + 128)])), Buffer.from([128])]);
  const cases: Record<string, { data: Buffer; filter: string; size: number }> = {
    LZW: { data: lzw(Buffer.from(ops.repeat(40))), filter: '/LZWDecode', size: ops.length * 40 },
    'RunLength (runs and literals)': { data: runLength(Buffer.from(ops)), filter: '/RunLengthDecode', size: ops.length + 100 },
    'ASCII85 then LZW': { data: a85(lzw(Buffer.from(ops))), filter: '[/ASCII85Decode /LZWDecode]', size: ops.length },
    'LZW then Flate': { data: lzw(zlib.deflateSync(Buffer.from(ops))), filter: '[/LZWDecode /FlateDecode]', size: ops.length },
  };
  it.each(Object.entries(cases))('%s: the size it counts is the text pdf.js reads', async (_, c) => {
    const pdf = new Uint8Array(makePdf({ pages: [prose(1), prose(2)], stream: { data: c.data, filter: c.filter } }));
    expect(await inflatedSize(pdf)).toBe(c.size);
    const r = await readPdf(pdf, 'encoded');
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.markdown).toContain('Page 1 line 6 reports that the measured output of the trial stayed level over time.');
  }, 30_000);
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

  it.each(Object.entries(BOMBS))('refuses a bomb (%s) before it reaches the thread, which stays warm', async (_, make) => {
    expect((await readPdf(SMALL, 'warm-up')).ok).toBe(true);
    const before = pdfWorkerState().threadId;
    expect(before).toBeDefined();
    const bomb = await readPdf(make(), 'bomb');
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
