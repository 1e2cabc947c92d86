// A local HTML file is extracted on the extraction thread, as a fetched page is (issue 25 follow-up): a
// large local page must not hold the server's other calls while it is read. The page is PostgreSQL's SQL
// keywords appendix (PostgreSQL Licence, see test/fixtures/docs/README.md), the page that once took minutes.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect, tempDir, type Harness } from '../helpers/mcp.js';
import { brief, QUESTION } from '../helpers/fixtures.js';
import { closeIndexes } from '../../src/local/index.js';
import { extractionThreads, setExtractionIdleMs } from '../../src/fetch/extract/off-thread.js';

const KEYWORDS = zlib.gunzipSync(fs.readFileSync(path.resolve(__dirname, '../fixtures/docs/postgresql-sql-keywords-appendix.html.gz')));

let base: string;
let h: Harness;
beforeAll(async () => {
  base = fs.realpathSync(tempDir('dr-local-html-'));
  fs.mkdirSync(path.join(base, 'manual'));
  fs.writeFileSync(path.join(base, 'manual', 'keywords.html'), KEYWORDS);
  h = await connect({ env: { DEEP_RESEARCH_LOCAL_ROOTS: `manual=${path.join(base, 'manual')}`, DEEP_RESEARCH_CACHE: path.join(base, 'cache') } });
});
afterAll(async () => {
  setExtractionIdleMs(30_000);
  await h.close();
  closeIndexes();
  fs.rmSync(base, { recursive: true, force: true });
});

it('extracts a large local HTML file on the extraction thread and stores it whole', async () => {
  // Idle threads retire at once, so a thread alive after the call can only be one the call started.
  setExtractionIdleMs(0);
  await new Promise((r) => setTimeout(r, 20));
  expect(extractionThreads()).toBe(0);
  setExtractionIdleMs(60_000);
  const runId = (await h.ok('start_run', { question: QUESTION, brief: brief() })).run_id as string;
  const r = await h.ok('fetch_source', { run_id: runId, path: 'local:manual/keywords.html', focus: 'ZONE' });
  expect(r.content_type).toBe('html');
  expect(extractionThreads()).toBe(1);
  const text = fs.readFileSync(path.join(h.root, runId, 'sources', `${r.source_id}.md`), 'utf8');
  expect(text).toMatch(/^\| `ZONE` \| non-reserved \| non-reserved \| non-reserved \| reserved \|$/m);
}, 60_000);
