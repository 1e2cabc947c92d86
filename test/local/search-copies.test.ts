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
  const urls = (r.results as { url: string }[]).map((x) => x.url);
  expect(urls.filter((u) => u.includes('relationships'))).toHaveLength(1);
  // The rendered page is the edition kept, whichever ranked first: it has the title to read by (trial 21).
  expect(urls).toContain('local:manual/relationships.html');
  expect((r.results as { url: string; title: string }[]).find((x) => x.url.includes('relationships'))?.title).toBe('<untrusted>Relationships</untrusted>');
  expect(urls).toContain('local:manual/suggests.txt');
  expect(r.notes).toEqual(['1 result with the same text as one listed (another edition of it) left out']);
});

it('stands a found reST source for its rendered page, even when the page itself is not among the results', async () => {
  const docs = path.join(base, 'policy');
  fs.mkdirSync(path.join(docs, '_sources'), { recursive: true });
  const body = Array.from({ length: 8 }, (_, i) => `Paragraph ${i} of the shared libraries chapter covers packaging rules for run-time libraries and their symlinks.`);
  const key = 'The run-time shared library must be placed in a package whose name changes whenever the SONAME of the shared library changes.';
  fs.writeFileSync(path.join(docs, 'ch-sharedlibs.html'), `<html><head><title>8. Shared libraries</title></head><body><main><h1>Shared libraries</h1>${body.map((p) => `<p>${p}</p>`).join('')}<p>${key}</p><p>${'Appendix text on unrelated matters such as documentation layout and menus. '.repeat(60)}</p></main></body></html>`);
  fs.writeFileSync(path.join(docs, '_sources', 'ch-sharedlibs.rst.txt'), `Shared libraries\n================\n\n${body.join('\n\n')}\n\n${key.replace('SONAME', '``SONAME``')}\n\n.. note:: ${key}\n`);
  // Same name, other text: another document, kept as it is.
  fs.writeFileSync(path.join(docs, '_sources', 'index.rst.txt'), 'Contents\n========\n\nThe SONAME chapter and the package naming chapter are listed here.\n');
  fs.writeFileSync(path.join(docs, 'index.html'), '<html><head><title>Manual</title></head><body><main><p>Welcome to a manual about something else entirely.</p></main></body></html>');
  closeIndexes();
  h?.close();
  h = await connect({ env: { DEEP_RESEARCH_LOCAL_ROOTS: `policy=${docs}`, DEEP_RESEARCH_CACHE: path.join(base, 'cache2') } });
  const all = await h.ok('search_sources', { query: 'SONAME package name changes' });
  const urls = (all.results as { url: string }[]).map((x) => x.url);
  expect(urls).toContain('local:policy/ch-sharedlibs.html');
  expect(urls).not.toContain('local:policy/_sources/ch-sharedlibs.rst.txt');
  expect(urls).toContain('local:policy/_sources/index.rst.txt');
  const one = await h.ok('search_sources', { query: 'SONAME package name changes', limit: 1 });
  expect(one.results).toEqual([{ title: '<untrusted>8. Shared libraries</untrusted>', url: 'local:policy/ch-sharedlibs.html', snippet: expect.stringContaining('SONAME') }]);
});
