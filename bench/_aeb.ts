import * as fs from 'node:fs';
import * as zlib from 'node:zlib';
import * as path from 'node:path';
import { extractReadable } from '../src/fetch/extract.js';
import { visibleText, wordScore } from './score.js';
const dir = '../shared/fixtures/aeb';
const truth = JSON.parse(fs.readFileSync(path.join(dir, 'ground-truth.json'), 'utf8'));
let worse = 0, better = 0, flagged = 0;
for (const f of fs.readdirSync(path.join(dir, 'html')).sort()) {
  const id = f.replace(/\.html\.gz$/, ''); const t = truth[id]; if (!t) continue;
  const html = zlib.gunzipSync(fs.readFileSync(path.join(dir, 'html', f))).toString('utf8');
  const a = extractReadable(html, 'text/html', t.url, { complete: false });
  const b = extractReadable(html, 'text/html', t.url);
  const sa = wordScore(visibleText(a.markdown), t.articleBody).f1, sb = wordScore(visibleText(b.markdown), t.articleBody).f1;
  if (b.kept !== undefined) flagged++;
  if (Math.abs(sa - sb) > 0.001) { console.log(id, a.method, '->', b.method, sa.toFixed(3), sb.toFixed(3), b.kept, JSON.stringify(b.leftOut?.slice(0,3))); if (sb < sa) worse++; else better++; }
}
console.log({ worse, better, flagged });
