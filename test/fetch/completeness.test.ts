// Real documentation pages are stored whole: every section heading and body sentence of the page's main
// text is in the stored markdown, and cells spanning rows keep their text in their column.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseHTML } from 'linkedom';
import { extractReadable, KEPT_THRESHOLD } from '../../src/fetch/extract.js';

const DIR = path.resolve(__dirname, '../fixtures/docs');
const page = (name: string): string => zlib.gunzipSync(fs.readFileSync(path.join(DIR, name))).toString('utf8');
const norm = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
/** Markdown as a reader sees it: link targets dropped. */
const visible = (md: string): string => md.replace(/\]\([^)\s]*(?:\s+"[^"]*")?\)/g, ']');

/** Headings and ≥ 4-word sentences of the page without its generator's navigation. */
function mainText(html: string): { headings: string[]; sentences: string[] } {
  const { document } = parseHTML(html) as unknown as { document: any };
  for (const el of Array.from(document.querySelectorAll('script, style, .navheader, .navfooter, .related, .sphinxsidebar, div.footer, #footer, .headerlink')) as any[]) el.remove();
  const root = document.querySelector('[role="main"]') ?? document.body;
  // The heading that repeats the page's <title> becomes the source's title, not a line of its text.
  const title = norm(document.querySelector('title')?.textContent ?? '');
  const headings = (Array.from(root.querySelectorAll('h2, h3, h4')) as any[]).map((h) => norm(h.textContent)).filter((h) => h !== '' && h !== title);
  const sentences: string[] = [];
  for (const el of Array.from(root.querySelectorAll('p, li, dd, td')) as any[]) {
    for (const s of String(el.textContent).split(/(?<=[.!?])\s+(?=[A-Z(])/)) {
      const n = norm(s);
      if (n.split(' ').length >= 4) sentences.push(n);
    }
  }
  return { headings, sentences };
}

function share(sentences: string[], markdown: string): { share: number; missing: string[] } {
  const hay = ` ${norm(visible(markdown))} `;
  const missing = sentences.filter((s) => !hay.includes(` ${s} `));
  return { share: 1 - missing.length / Math.max(1, sentences.length), missing };
}

describe('documentation pages are stored whole', () => {
  for (const [file, url, lateText] of [
    ['postgresql-sql-select.html.gz', 'https://www.postgresql.org/docs/15/sql-select.html', 'locking clauses; they affect how SELECT locks rows as they are obtained from the table'],
    ['postgresql-libpq-exec.html.gz', 'https://www.postgresql.org/docs/15/libpq-exec.html', 'Returns the number of rows (tuples) in the query result'],
    ['python-whatsnew-3.3.html.gz', 'https://docs.python.org/3/whatsnew/3.3.html', 'Porting to Python 3.3'],
    ['git-config.html.gz', 'https://git-scm.com/docs/git-config', 'this command will fail with non-zero status upon error'],
  ] as const) {
    it(`${file}: every section heading and at least 98% of the body sentences, later sections included`, () => {
      const html = page(file);
      const r = extractReadable(html, 'text/html', url);
      const { headings, sentences } = mainText(html);
      const md = ` ${norm(visible(r.markdown))} `;
      const lost = headings.filter((h) => !md.includes(` ${h} `));
      expect(lost).toEqual([]);
      const s = share(sentences, r.markdown);
      expect(s.share, s.missing.slice(0, 5).join('\n')).toBeGreaterThanOrEqual(0.98);
      expect(md).toContain(` ${norm(lateText)} `);
      expect(r.kept).toBeUndefined();
    });
  }

  it('the SQL SELECT page keeps its locking clause section, which Readability alone drops ("share" in its id)', () => {
    const html = page('postgresql-sql-select.html.gz');
    const before = extractReadable(html, 'text/html', 'https://www.postgresql.org/docs/15/sql-select.html', { complete: false });
    const after = extractReadable(html, 'text/html', 'https://www.postgresql.org/docs/15/sql-select.html');
    expect(before.markdown).not.toMatch(/^#+ The Locking Clause$/m);
    expect(after.markdown).toMatch(/^#+ The Locking Clause$/m);
    expect(after.markdown).toContain('SKIP LOCKED');
  });

  it('git-config keeps SYNOPSIS, OPTIONS, FILES, EXAMPLES and BUGS in page order', () => {
    const md = extractReadable(page('git-config.html.gz'), 'text/html', 'https://git-scm.com/docs/git-config').markdown;
    const at = ['SYNOPSIS', 'DESCRIPTION', 'OPTIONS', 'FILES', 'EXAMPLES', 'CONFIGURATION FILE', 'BUGS'].map((h) => md.search(new RegExp(`^#+ ${h}$`, 'm')));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });
});

describe('tables with spanning cells', () => {
  it('repeats a cell spanning rows in every row it covers, so each operator sits beside its class', () => {
    const md = extractReadable(page('postgresql-gist-builtin-opclasses.html.gz'), 'text/html', 'https://www.postgresql.org/docs/15/gist-builtin-opclasses.html').markdown;
    expect(md).toContain('| `box_ops` | `&< (box, box)` | `<-> (box, point)` |');
    expect(md).toContain('| `tsquery_ops` | `@> (tsquery, tsquery)` |');
    const rows = md.split('\n').filter((l) => l.startsWith('| '));
    expect(new Set(rows.map((l) => l.split(/(?<!\\)\|/).length))).toEqual(new Set([5]));
  });

  it('pads cells spanning columns and keeps every cell of an irregular table in reading order', () => {
    const html = `<html><body><article><h1>Limits</h1><p>${'The limits below apply to every plan the service offers today. '.repeat(6)}</p>
      <table><tr><th>Plan</th><th colspan="2">Limits</th></tr><tr><td rowspan="2">Free</td><td>10 requests</td><td>1 GB</td></tr><tr><td>per minute</td></tr><tr><td>Pro</td><td>1000 requests</td><td>1 TB</td><td>extra cell</td></tr></table></article></body></html>`;
    const md = extractReadable(html, 'text/html', 'https://example.com/limits').markdown;
    const table = md.split('\n').filter((l) => l.startsWith('|'));
    expect(table[0]).toMatch(/^\| Plan \| Limits \| +\| +\|$/);
    expect(md).toMatch(/\| Free \| 10 requests \| 1 GB \| +\|/);
    expect(md).toMatch(/\| Free \| per minute \| +\| +\|/);
    expect(md).toContain('| Pro | 1000 requests | 1 TB | extra cell |');
  });
});

describe('kept and left out', () => {
  it('a page whose extraction leaves a section out says so, with the share kept and the heading', () => {
    const body = (n: number, what: string) => Array.from({ length: n }, (_, i) => `<p>${what} paragraph ${i + 1} says something a reader would want to quote later on.</p>`).join('');
    // A sidebar-like block Readability drops, holding real prose under its own heading.
    const html = `<html><head><title>Guide</title></head><body><div class="content"><h1>Guide</h1>${body(12, 'Main')}</div>
      <div class="sidebar"><h2>Caveats that matter</h2>${body(6, 'Caveat')}</div></body></html>`;
    const r = extractReadable(html, 'text/html', 'https://example.com/guide');
    expect(r.markdown).not.toContain('Caveat paragraph');
    expect(r.kept).toBeLessThan(KEPT_THRESHOLD);
    expect(r.kept).toBeGreaterThan(0.5);
    expect(r.leftOut).toEqual(['Caveats that matter']);
  });

  it('a page stored whole carries no kept figure', () => {
    const r = extractReadable(page('postgresql-libpq-exec.html.gz'), 'text/html', 'https://www.postgresql.org/docs/15/libpq-exec.html');
    expect(r.kept).toBeUndefined();
    expect(r.leftOut).toBeUndefined();
  });
});
