// kept / left_out / full through a real MCP client against a local web on 127.0.0.1: a real page whose
// extraction leaves its introduction out says so, and `full: true` stores the page's whole visible text as
// the same source, so a quote from the part left out grounds and earlier quotes still do.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connect, type Harness } from '../helpers/mcp.js';
import { brief, QUESTION } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../fetch/helpers.js';

// PostgreSQL's GiST operator-class page (PostgreSQL Licence, see test/fixtures/docs/README.md) without its
// DocBook generator line, as a site that re-templates the manual serves it: nothing says where its text is,
// and Readability keeps its table and drops the paragraph that introduces it.
const PAGE = zlib
  .gunzipSync(fs.readFileSync(path.resolve(__dirname, '../fixtures/docs/postgresql-gist-builtin-opclasses.html.gz')))
  .toString('utf8')
  .replace(/<meta name="generator"[^>]*>/, '');
const LEFT_OUT_QUOTE = 'The core PostgreSQL distribution includes the GiST operator classes shown in Table 68.1';

let web: TestServer;
let h: Harness;
let runId: string;
beforeAll(async () => {
  web = await startServer((req, res) => {
    if ((req.url ?? '').startsWith('/gist')) {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(PAGE);
    } else {
      res.statusCode = 404;
      res.end('not found');
    }
  });
});
afterAll(async () => web?.close());
afterEach(async () => h?.close());

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;
const frontmatter = (file: string) => fs.readFileSync(file, 'utf8').split('\n---\n')[0] ?? '';

function round(url: string, quote: string, n: number) {
  return h.ok('record_round', {
    run_id: runId,
    thread: 'Trials and output',
    query: `gist operator classes ${n}`,
    urls_visited: [url],
    search_results: [url],
    facts: [{ fact: `Fact ${n}.`, url, quote, confidence: 'PLAUSIBLE' }],
    summary: 'Read the page.',
  });
}

describe('fetch_source kept, left_out and full', () => {
  it('says what it left out, and full:true stores the whole visible text as the same source so the rest grounds', async () => {
    h = await connect({ env: { DEEP_RESEARCH_ALLOW_HOSTS: web.hostPort } });
    runId = (await h.ok('start_run', { question: QUESTION, brief: brief() })).run_id;
    await h.ok('start_thread', { run_id: runId, thread: 'Trials and output' });
    const url = `${web.origin}/gist-builtin-opclasses.html`;

    const first = await h.call('fetch_source', { run_id: runId, url });
    const s1 = first.structuredContent as Record<string, any>;
    expect(s1).toMatchObject({ source_id: 'S1', duplicate: false });
    expect(s1.kept).toBeLessThan(0.9);
    expect(s1.left_out).toEqual(['<untrusted>68.2. Built-in Operator Classes</untrusted>']);
    // The heading is page text: in the text rendering it sits inside the untrusted block.
    const t1 = text(first);
    expect(JSON.parse(t1)).toEqual(s1);
    const file = path.join(h.root, runId, 'sources', 'S1.md');
    expect(frontmatter(file)).toMatch(/\nkept: 0(\.\d+)?\nleft_out:\n  - 68\.2\. Built-in Operator Classes/);
    const sha1 = /sha256: ([0-9a-f]{64})/.exec(frontmatter(file))?.[1];

    // Not grounded yet: the introduction is not in the stored text.
    const before = await round(url, LEFT_OUT_QUOTE, 1);
    expect(before.warnings.join('\n')).toMatch(/not found/);

    const full = await h.ok('fetch_source', { run_id: runId, url, full: true, max_chars: 1000, start_index: 0 });
    expect(full).toMatchObject({ source_id: 'S1', canonical_key: s1.canonical_key, duplicate: true });
    expect(full.kept).toBeUndefined();
    expect(full.left_out).toBeUndefined();
    expect(full.next_start_index).toBeGreaterThan(0);
    expect(full.total_chars).toBeGreaterThan(s1.total_chars);
    const fm = frontmatter(file);
    expect(fm).toMatch(/\nfull: true/);
    expect(fm).not.toMatch(/\nkept:/);
    expect(/sha256: ([0-9a-f]{64})/.exec(fm)?.[1]).not.toBe(sha1);
    // Paged like any source.
    const next = await h.ok('fetch_source', { run_id: runId, url, start_index: full.next_start_index, max_chars: 1000 });
    expect(next.source_id).toBe('S1');

    // The quote from the part left out grounds now, and a quote from the first text still does.
    const after = await round(url, LEFT_OUT_QUOTE, 2);
    expect(after.warnings.join('\n')).not.toMatch(/not found/);
    const table = await round(url, 'circle_ops', 3);
    expect(table.warnings.join('\n')).not.toMatch(/not found/);

    // A second full:true answers from the store.
    const requests = web.requests.length;
    const again = await h.ok('fetch_source', { run_id: runId, url, full: true });
    expect(again.source_id).toBe('S1');
    expect(web.requests.length).toBe(requests);
  });
});
