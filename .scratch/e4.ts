import { readFileSync, readdirSync } from 'node:fs';
import { parseHTML } from 'linkedom';
import { extractReadable } from '/work/main/src/fetch/extract.ts';
const dirs = ['/usr/share/doc/python3.11/html/library', '/usr/share/doc/python3.11/html/howto', '/usr/share/doc/git-doc'];
const rows: [number, string, number, number][] = [];
for (const d of dirs) for (const f of readdirSync(d)) { if (!f.endsWith('.html')) continue;
  const html = readFileSync(`${d}/${f}`,'utf8');
  const r = extractReadable(html, 'text/html', `http://x/${f}`);
  const { document } = parseHTML(html) as any;
  for (const el of document.querySelectorAll('script,style,nav,header,footer,aside,[role=navigation]')) el.remove();
  const body = (document.body?.textContent ?? '').replace(/\s+/g,' ').length;
  const art = r.markdown.replace(/\[([^\]]*)\]\([^)]*\)/g,'$1').replace(/\s+/g,' ').length;
  rows.push([art/body, `${d.split('/').pop()}/${f}`, art, body]);
}
rows.sort((a,b)=>a[0]-b[0]);
console.log(rows.filter(r=>r[0]<0.6).length, 'of', rows.length, 'below 0.6');
for (const r of rows.slice(0,25)) console.log(r[0].toFixed(2), r[1], r[2], r[3]);
