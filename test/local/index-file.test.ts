// The same folder gives the same index file: documents are added in path order, PDFs and pages mixed, and
// the HTML text (src/local/html-text.ts) reads a page with no <body> too.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/mcp.js';
import { RootIndex, closeIndexes } from '../../src/local/index.js';

describe('RootIndex', () => {
  const base = fs.realpathSync(tempDir('dr-index-file-'));
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
    // A PDF first in path order, parsed on its worker thread.
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
    // MiniSearch numbers documents as they are added: in path order.
    const stored = JSON.parse(zlib.gunzipSync(one.bytes).toString('utf8')) as { index: { documentIds: Record<string, string> } };
    const ids = Object.entries(stored.index.documentIds).sort(([a], [b]) => Number(a) - Number(b)).map(([, id]) => id);
    expect(ids[0]).toBe('local:docs/0-r-data.pdf');
    expect(ids).toEqual([...ids].sort());
    expect(one.idx.counts()).toEqual({ documents: pages.length + 2, skipped: 0 });
    expect(one.idx.query('Fragment page')[0]?.id).toBe('local:docs/a/fragment.html');
    expect(one.idx.titles()[0]).toMatch(/R Data/i);
  });
});
