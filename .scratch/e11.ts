import { readFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { extractReadable } from '../src/fetch/extract.ts';
import { wordScore, visibleText } from '../bench/score.ts';
const gt = JSON.parse(readFileSync('/work/shared/fixtures/aeb/ground-truth.json','utf8'));
const aeb = '/work/shared/fixtures/aeb/html';
for (const f of readdirSync(aeb)) { const id = f.replace('.html.gz',''); if (!['08f793762792','7837c9d66c81','9a440270bf86'].some(p=>id.startsWith(p))) continue;
 const r = extractReadable(gunzipSync(readFileSync(`${aeb}/${f}`)).toString('utf8'), 'text/html', gt[id].url);
 console.log(id.slice(0,12), r.method, JSON.stringify(wordScore(visibleText(r.markdown), gt[id].articleBody))); }
