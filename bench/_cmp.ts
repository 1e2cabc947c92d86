import { loadCorpus, corpusDirs, truthText, bodySentences, foundShare } from './completeness.js';
import { extractReadable } from '../src/fetch/extract.js';
const { pages } = loadCorpus(corpusDirs(), Number(process.env.N ?? 40));
for (const p of pages) {
  const s = bodySentences(truthText(p.html));
  const a = extractReadable(p.html, 'text/html', p.url, { complete: false });
  const b = extractReadable(p.html, 'text/html', p.url);
  const fa = foundShare(s, a.markdown), fb = foundShare(s, b.markdown);
  if (fa < 0.9 || fb < 0.9) console.log(p.rel, s.length, p.html.length, fa.toFixed(2), '->', fb.toFixed(2), b.method, b.kept ?? '', JSON.stringify((b.leftOut ?? []).slice(0, 3)));
}
