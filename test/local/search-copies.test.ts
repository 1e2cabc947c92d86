// search_sources leaves out a result that repeats a listed one's text in another edition (a Sphinx page's
// reST source beside the page), and says so (trial 15: eight results held four documents).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { connect, tempDir, type Harness } from '../helpers/mcp.js';
import { closeIndexes } from '../../src/local/index.js';

const base = fs.realpathSync(tempDir('dr-copies-'));
let h: Harness | undefined;
afterAll(async () => {
  await h?.close();
  closeIndexes();
  fs.rmSync(base, { recursive: true, force: true });
});

it('lists one edition of a text, notes the copies left out, and keeps other documents', async () => {
  const docs = path.join(base, 'manual');
  fs.mkdirSync(path.join(docs, '_sources'), { recursive: true });
  // The page is longer than its source text, so the source ranks first, as Debian Policy's did in trial 21.
  const filler = 'Other fields of the control file are described in their own chapters of this manual, with examples. '.repeat(6);
  const text = 'The Recommends field declares a strong, but not absolute, dependency: packages found together with this one in all but unusual installations.';
  fs.writeFileSync(path.join(docs, 'relationships.html'), `<html><head><title>Relationships</title></head><body><main><h1>Relationships</h1><p>${text}</p><p>${filler}</p></main></body></html>`);
  fs.writeFileSync(path.join(docs, '_sources', 'relationships.rst.txt'), `Relationships\n=============\n\n${text.replace('Recommends', '``Recommends``')}\n`);
  fs.writeFileSync(path.join(docs, 'suggests.txt'), 'Suggests\n\nThe Suggests field declares that one package may be more useful with the others, a weaker dependency than Recommends.\n');
  h = await connect({ env: { DEEP_RESEARCH_LOCAL_ROOTS: `manual=${docs}`, DEEP_RESEARCH_CACHE: path.join(base, 'cache') } });
  const r = await h.ok('search_sources', { query: 'Recommends strong dependency' });
  const urls = (r.results as { url: string }[]).map((x) => x.url); console.log('DBG', JSON.stringify(r.results));
  expect(urls.filter((u) => u.includes('relationships'))).toHaveLength(1);
  // The rendered page is the edition kept, whichever ranked first: it has the title to read by (trial 21).
  expect(urls).toContain('local:manual/relationships.html');
  expect((r.results as { url: string; title: string }[]).find((x) => x.url.includes('relationships'))?.title).toBe('<untrusted>Relationships</untrusted>');
  expect(urls).toContain('local:manual/suggests.txt');
  expect(r.notes).toEqual(['1 result with the same text as one listed (another edition of it) left out']);
});
