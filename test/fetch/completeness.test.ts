// Real documentation pages are stored whole: every section heading and body sentence of the page's main
// text is in the stored markdown, and cells spanning rows keep their text in their column.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseHTML } from 'linkedom';
import { extractReadable, KEPT_THRESHOLD } from '../../src/fetch/extract.js';
import { MIN_READABLE_CHARS, readableLength } from '../../src/fetch/pipeline.js';
import { sanitizeText } from '../../src/fetch/untrusted.js';

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

describe('pages of a documentation generator are stored from its text root', () => {
  const both = (file: string, url: string) => {
    const html = page(file);
    return { before: extractReadable(html, 'text/html', url, { complete: false }), after: extractReadable(html, 'text/html', url) };
  };
  const has = (md: string, text: string) => ` ${norm(visible(md))} `.includes(` ${norm(text)} `);

  it('DocBook: a catalog page keeps its title, the paragraph before its table and the table caption (Readability kept the table alone)', () => {
    const { before, after } = both('postgresql-catalog-pg-event-trigger.html.gz', 'https://www.postgresql.org/docs/15/catalog-pg-event-trigger.html');
    const intro = 'The catalog pg_event_trigger stores event triggers. See Chapter 40 for more information.';
    expect(has(before.markdown, intro)).toBe(false);
    expect(has(after.markdown, intro)).toBe(true);
    expect(has(after.markdown, 'Table 53.21. pg_event_trigger Columns')).toBe(true);
    expect(after.markdown).toMatch(/^## 53\.21\.\s`pg_event_trigger`$/m);
    expect(has(after.markdown, 'Controls in which session_replication_role modes the event trigger fires')).toBe(true);
    // DocBook's navigation header and footer stay out.
    expect(after.markdown).not.toMatch(/\b(Prev|Next|Home)\b/);
    expect(after.kept).toBeUndefined();
  });

  it('DocBook: the GiST page keeps the paragraph that introduces its table', () => {
    const { before, after } = both('postgresql-gist-builtin-opclasses.html.gz', 'https://www.postgresql.org/docs/15/gist-builtin-opclasses.html');
    const intro = 'The core PostgreSQL distribution includes the GiST operator classes shown in Table 68.1';
    expect(has(before.markdown, intro)).toBe(false);
    expect(has(after.markdown, intro)).toBe(true);
  });

  it('Sphinx: a short package page is stored as its text, not as the footer Readability picked', () => {
    const { before, after } = both('python-concurrent.html.gz', 'https://docs.python.org/3/library/concurrent.html');
    expect(before.markdown).toContain('Please donate');
    expect(has(after.markdown, 'Currently, there is only one module in this package')).toBe(true);
    expect(has(after.markdown, 'concurrent.futures – Launching parallel tasks')).toBe(true);
    // Sphinx's footer, related bar, sidebar and pilcrow links are its chrome.
    for (const chrome of ['Please donate', 'Previous topic', 'Quick search', '¶', 'Permalink']) expect(after.markdown).not.toContain(chrome);
  });

  it("AsciiDoc: a manual page keeps its NAME line from the page header, and git-stage's page is no longer too short to store", () => {
    const { before, after } = both('git-stage.html.gz', 'https://git-scm.com/docs/git-stage');
    expect(has(before.markdown, 'git-stage - Add file contents to the staging area')).toBe(false);
    expect(has(after.markdown, 'git-stage - Add file contents to the staging area')).toBe(true);
    expect(readableLength(sanitizeText(before.markdown))).toBeLessThan(MIN_READABLE_CHARS);
    expect(readableLength(sanitizeText(after.markdown))).toBeGreaterThanOrEqual(MIN_READABLE_CHARS);
    // The footer's date and the empty footnotes box stay out.
    expect(after.markdown).not.toMatch(/Last updated|---\s*$/);
    const config = extractReadable(page('git-config.html.gz'), 'text/html', 'https://git-scm.com/docs/git-config').markdown;
    expect(has(config, 'git-config - Get and set repository or global options')).toBe(true);
  });

  it('AsciiDoc: a how-to keeps its preamble, which Readability dropped for the one section after it', () => {
    const { before, after } = both('git-howto-recover-corrupted-object-harder.html.gz', 'https://git-scm.com/docs/howto/recover-corrupted-object-harder');
    const first = 'I was recently presented with a repository with a corrupted packfile, and was asked if the data was recoverable.';
    expect(has(before.markdown, first)).toBe(false);
    expect(has(after.markdown, first)).toBe(true);
    expect(after.markdown.indexOf('# How to recover an object from scratch')).toBe(0);
    expect(after.kept).toBeUndefined();
  });

  it('a generator line alone does not decide: a Sphinx page without one main element goes through Readability', () => {
    const para = (t: string) => `<p>${t} ${'This sentence carries the argument of the page forward with some care. '.repeat(5)}</p>`;
    const html = `<html><head><meta name="generator" content="Docutils 0.19: https://docutils.sourceforge.io/"><title>T</title></head><body>
      <div role="main"><h1>One</h1>${para('First.')}</div><div role="main"><h1>Two</h1>${para('Second.')}</div></body></html>`;
    const r = extractReadable(html, 'text/html', 'https://example.com/t');
    expect(r.method).not.toBe('main');
    const plain = extractReadable(html.replace(/<meta name="generator"[^>]*>/, ''), 'text/html', 'https://example.com/t');
    expect(r.markdown).toBe(plain.markdown);
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
