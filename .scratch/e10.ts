import { readFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { extractReadable } from '../src/fetch/extract.ts';
const aeb = '/work/shared/fixtures/aeb/html';
for (const f of readdirSync(aeb)) { const r = extractReadable(gunzipSync(readFileSync(`${aeb}/${f}`)).toString('utf8'), 'text/html', 'http://x/'); if (r.method==='main') console.log('aeb', f.slice(0,12), r.markdown.length, JSON.stringify(r.markdown.slice(0,150))); }
