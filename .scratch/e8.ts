// which readability-corpus pages switch to 'main'
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { extractReadable } from '../src/fetch/extract.ts';
const root = '/work/shared/fixtures/readability';
for (const d of readdirSync(root)) { const f = `${root}/${d}/source.html`; if (!existsSync(f)) continue;
  const r = extractReadable(readFileSync(f,'utf8'), 'text/html', 'http://fakehost/test/page.html');
  if (r.method === 'main') console.log('readability', d); }
const aeb = '/work/shared/fixtures/aeb/html';
for (const f of readdirSync(aeb)) { const r = extractReadable(require('zlib').gunzipSync(readFileSync(`${aeb}/${f}`)).toString('utf8'), 'text/html', 'http://x/'); if (r.method==='main') console.log('aeb', f); }
