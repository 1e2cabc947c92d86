// An index refresh reads files ahead of their turn (a PDF parses on its worker while later pages are read)
// and adds them in path order, so the same folder gives the same index file.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/mcp.js';
import { RootIndex, closeIndexes } from '../../src/local/index.js';
import { readAhead } from '../../src/local/read-ahead.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function collect<T, R>(gen: AsyncGenerator<[T, R]>): Promise<R[]> {
  const out: R[] = [];
  for await (const [, r] of gen) out.push(r);
  return out;
}

describe('readAhead', () => {
  it('yields in order whatever order reads end in, with no more started ahead than allowed', async () => {
    const items = Array.from({ length: 40 }, (_, i) => i);
    let running = 0;
    let most = 0;
    let heavyRunning = 0;
    let mostHeavy = 0;
    const heavy = (i: number) => i % 7 === 0;
    const out = await collect(
      readAhead(items, heavy, async (i) => {
        running++;
        most = Math.max(most, running);
        if (heavy(i)) mostHeavy = Math.max(mostHeavy, ++heavyRunning);
        await sleep(heavy(i) ? 15 : (i * 7) % 5);
        running--;
        if (heavy(i)) heavyRunning--;
        return i * 10;
      }, { ahead: 8, heavyAhead: 2 }),
    );
    expect(out).toEqual(items.map((i) => i * 10));
    expect(most).toBeGreaterThan(2);
    expect(most).toBeLessThanOrEqual(9);
    expect(mostHeavy).toBe(2);
  });

  it('a read that fails throws at its turn, after the ones before it, and nothing is left unhandled', async () => {
    const got: number[] = [];
    const run = async () => {
      for await (const [i] of readAhead([0, 1, 2, 3], () => false, async (i) => {
        if (i === 2) throw new Error('bad file');
        await sleep(5);
        return i;
      })) got.push(i);
    };
    await expect(run()).rejects.toThrow('bad file');
    expect(got).toEqual([0, 1]);
  });
});

describe('RootIndex', () => {
  const base = fs.realpathSync(tempDir('dr-read-ahead-'));
  afterAll(() => {
    closeIndexes();
    fs.rmSync(base, { recursive: true, force: true });
  });

  it('builds a byte-identical index file from the same folder, PDFs and pages mixed', async () => {
    const dir = path.join(base, 'docs');
    fs.mkdirSync(path.join(dir, 'a'), { recursive: true });
    const docs = path.resolve(__dirname, '../fixtures/docs');
    const pages = fs.readdirSync(docs).filter((f) => f.endsWith('.html.gz'));
    pages.forEach((f, i) => fs.writeFileSync(path.join(dir, i % 2 ? 'a' : '', f.replace(/\.gz$/, '')), zlib.gunzipSync(fs.readFileSync(path.join(docs, f)))));
    // A PDF first in path order: the pages after it are read while it parses, and still added after it.
    fs.copyFileSync(path.resolve(__dirname, '../fixtures/pdf/r-data/R-data.pdf'), path.join(dir, '0-r-data.pdf'));
    fs.writeFileSync(path.join(dir, 'a', 'fragment.html'), '<h1>Fragment page</h1><p>A page with no body element is indexed too.</p>');
    const build = async (cache: string) => {
      const idx = new RootIndex({ name: 'docs', dir }, path.join(base, cache));
      await idx.refresh();
      return { idx, bytes: fs.readFileSync(idx.file) };
    };
    const one = await build('c1');
    const two = await build('c2');
    expect(one.bytes.equals(two.bytes)).toBe(true);
    // MiniSearch numbers documents as they are added: in path order, the PDF that was read first included.
    const stored = JSON.parse(zlib.gunzipSync(one.bytes).toString('utf8')) as { index: { documentIds: Record<string, string> } };
    const ids = Object.entries(stored.index.documentIds).sort(([a], [b]) => Number(a) - Number(b)).map(([, id]) => id);
    expect(ids[0]).toBe('local:docs/0-r-data.pdf');
    expect(ids).toEqual([...ids].sort());
    expect(one.idx.counts()).toEqual({ documents: pages.length + 2, skipped: 0 });
    expect(one.idx.query('Fragment page')[0]?.id).toBe('local:docs/a/fragment.html');
    expect(one.idx.titles()[0]).toMatch(/R Data/i);
  });
});
