import * as fs from 'node:fs';
import { extractReadable } from '../src/fetch/extract.ts';
import { truthText, bodySentences, foundShare } from './completeness.js';
for (const f of process.argv.slice(2)) {
  const html = fs.readFileSync(f, 'utf8');
  const t0 = performance.now();
  const r = extractReadable(html, 'text/html', 'https://x/' + f);
  const ms = performance.now() - t0;
  const s = bodySentences(truthText(html));
  console.log(f, r.method, r.markdown.length, 'share', foundShare(s, r.markdown).toFixed(3), 'sent', s.length, ms.toFixed(0) + 'ms');
  if (process.env.SHOW) console.log(r.markdown.split('\n').filter(l => l.startsWith('#')).join('\n'));
}
