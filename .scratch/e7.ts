import { extractReadable } from '../src/fetch/extract.ts';
import { html, PROSE } from '../test/fetch/helpers.ts';
const sect = (h: string, first: string, n: number) => `<div class="sect1"><h2>${h}</h2><div class="sectionbody">${Array.from({ length: n }, (_, i) => `<div class="paragraph"><p>${i === 0 ? first + ' ' : ''}${PROSE}</p></div>`).join('')}</div></div>`;
for (const [nopt, nsec, per] of [[40,7,4],[60,8,4],[40,8,3],[80,10,5]]) {
const opts = Array.from({ length: nopt }, (_, i) => `<dt class="hdlist1">--option-${i}</dt><dd><p>${PROSE}</p></dd>`).join('');
const others = Array.from({ length: nsec }, (_, i) => sect(`PART ${i}`, `Section ${i} opens here.`, per)).join('');
const page = html(`<div id="header"><h1>git-merge(1) Manual Page</h1></div><div id="content">${sect('DESCRIPTION','Incorporates changes from the named commits.', per)}<div class="sect1"><h2>OPTIONS</h2><div class="sectionbody"><div class="dlist"><dl>${opts}</dl></div></div></div>${others}</div><div id="footer"><div id="footer-text">Last updated 2026-01-01</div></div>`);
const r = extractReadable(page, 'text/html', 'https://e.org/a');
console.log(nopt,nsec,per, r.method, r.markdown.length, r.markdown.includes('Incorporates'), r.markdown.includes('Section 3 opens'));
}
