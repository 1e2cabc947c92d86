// A long reference page is stored whole and holds no other call: PostgreSQL's SQL keywords appendix (an
// 836-row table; PostgreSQL Licence, see test/fixtures/docs/README.md) took about ten minutes to extract,
// and every call queued behind it timed out. Extraction now grows about linearly with the page and runs
// on a worker thread, so a call made while the page is extracted answers first.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Harness } from '../helpers/mcp.js';
import { brief, QUESTION } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../fetch/helpers.js';
import { extractOffThread } from '../../src/fetch/extract/off-thread.js';

const KEYWORDS = zlib.gunzipSync(fs.readFileSync(path.resolve(__dirname, '../fixtures/docs/postgresql-sql-keywords-appendix.html.gz'))).toString('utf8');

/** A page of one 1,000-row table, the shape the soak found cubic. */
function thousandRows(): string {
  const rows: string[] = [];
  for (let i = 0; i < 1000; i++) rows.push(`<tr><td><code>KEYWORD_${i}</code></td><td>non-reserved</td><td>reserved</td><td>row ${i} of the table</td></tr>`);
  return `<!DOCTYPE html><html><head><title>Key words</title></head><body><main><h1>Key words</h1><p>This table lists every key word of the language and whether each standard reserves it.</p><table><thead><tr><th>Key word</th><th>Here</th><th>Standard</th><th>Note</th></tr></thead><tbody>${rows.join('')}</tbody></table></main></body></html>`;
}

let web: TestServer;
let h: Harness;
let served: () => void = () => undefined;
beforeAll(async () => {
  web = await startServer((req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    if ((req.url ?? '').startsWith('/keywords')) res.end(KEYWORDS);
    else res.end(thousandRows());
    served();
  });
});
afterAll(async () => web?.close());
afterEach(async () => h?.close());

const stored = (runId: string, id: string) => fs.readFileSync(path.join(h.root, runId, 'sources', `${id}.md`), 'utf8');

describe('fetch_source on a long reference page', () => {
  it('stores the 836-row keywords appendix whole, and a call made while it is extracted answers first', async () => {
    h = await connect({ env: { DEEP_RESEARCH_ALLOW_HOSTS: web.hostPort } });
    const runId = (await h.ok('start_run', { question: QUESTION, brief: brief() })).run_id as string;
    await h.ok('start_thread', { run_id: runId, thread: 'Trials and output' });
    const order: string[] = [];
    const sent = new Promise<void>((resolve) => {
      served = resolve;
    });
    const fetching = h.call('fetch_source', { run_id: runId, url: `${web.origin}/keywords.html` }).then((r) => {
      order.push('fetch_source');
      return r;
    });
    await sent;
    const status = await h.call('thread_status', { run_id: runId, thread: 'Trials and output' });
    order.push('thread_status');
    expect(status.isError).toBeFalsy();
    const page = await fetching;
    expect(page.isError).toBeFalsy();
    expect(order).toEqual(['thread_status', 'fetch_source']);
    const text = stored(runId, 'S1');
    // Every key word row, first to last, each under its header.
    const rows = KEYWORDS.match(/<tr><td><code class="token">/g)?.length ?? 0;
    expect(rows).toBeGreaterThan(800);
    expect(text.match(/^\| `[A-Z0-9_\u200b-]+` \|/gm)?.length).toBe(rows);
    expect(text).toMatch(/^\| `A` \| {2,}\| non-reserved \| non-reserved \|/m);
    expect(text).toMatch(/^\| `ZONE` \| non-reserved \| non-reserved \| non-reserved \| reserved \|$/m);
  }, 60_000);

  it('stores a generated page of a 1,000-row table whole', async () => {
    h = await connect({ env: { DEEP_RESEARCH_ALLOW_HOSTS: web.hostPort } });
    const runId = (await h.ok('start_run', { question: QUESTION, brief: brief() })).run_id as string;
    await h.ok('fetch_source', { run_id: runId, url: `${web.origin}/rows.html` });
    const text = stored(runId, 'S1');
    for (const i of [0, 499, 999]) expect(text).toContain(`| \`KEYWORD_${i}\` | non-reserved | reserved | row ${i} of the table |`);
    expect(text.match(/^\| `KEYWORD_\d+` \|/gm)?.length).toBe(1000);
  }, 60_000);
});

describe('extraction off the main thread', () => {
  it('answers a page it cannot finish in time with its whole tag-stripped text, and the next page is extracted as usual', async () => {
    const late = await extractOffThread({ body: thousandRows(), contentType: 'text/html', url: 'https://example.org/rows' }, { timeoutMs: 1 });
    expect(late.method).toBe('text');
    expect(late.markdown).toContain('KEYWORD_0');
    expect(late.markdown).toContain('row 999 of the table');
    const next = await extractOffThread({ body: thousandRows(), contentType: 'text/html', url: 'https://example.org/rows' });
    expect(next.method).not.toBe('text');
    expect(next.markdown).toContain('| `KEYWORD_999` | non-reserved | reserved | row 999 of the table |');
  }, 60_000);
});
