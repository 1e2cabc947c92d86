import * as fs from 'node:fs';
import { truthText, bodySentences, foundShare } from './completeness.js';
import { extractReadable } from '../src/fetch/extract.js';
for (const f of process.argv.slice(2)) {
  const html = fs.readFileSync(f, 'utf8');
  const s = bodySentences(truthText(html));
  const a = extractReadable(html, 'text/html', 'https://x/a.html', { complete: false });
  const b = extractReadable(html, 'text/html', 'https://x/a.html');
  console.log(f.replace('/usr/share/doc/', ''), html.length, s.length, foundShare(s, a.markdown).toFixed(2), '->', foundShare(s, b.markdown).toFixed(2), b.method, b.kept ?? '');
}
