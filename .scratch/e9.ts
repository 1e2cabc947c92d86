import { readFileSync } from 'node:fs';
import { parseHTML } from 'linkedom';
const html = readFileSync(process.argv[2],'utf8');
const { document } = parseHTML(html) as any;
const w = (s: string) => (s ?? '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
const c = document.querySelector('#content');
console.log('content', w(c.textContent).length);
for (const s of c.children) console.log(s.className, w(s.textContent).length, s.querySelector('h2')?.textContent);
