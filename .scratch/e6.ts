import { extractReadable } from '../src/fetch/extract.ts';
import { html, PROSE } from '../test/fetch/helpers.ts';
    const opts = Array.from({ length: 20 }, (_, i) => `<dt class="hdlist1">--option-${i}</dt><dd><p>${PROSE}</p></dd>`).join('');
    const page = html(
      `<div id="header"><h1>git-merge(1) Manual Page</h1></div>
       <div id="content">
       <div class="sect1"><h2>DESCRIPTION</h2><div class="sectionbody"><div class="paragraph"><p>Incorporates changes from the named commits into the current branch. ${PROSE}</p></div><div class="paragraph"><p>${PROSE}</p></div></div></div>
       <div class="sect1"><h2>OPTIONS</h2><div class="sectionbody"><div class="dlist"><dl>${opts}</dl></div></div></div>
       <div class="sect1"><h2>FAST-FORWARD MERGE</h2><div class="sectionbody"><div class="paragraph"><p>Often the current branch head is an ancestor of the named commit. ${PROSE}</p></div><div class="paragraph"><p>${PROSE} ${PROSE} ${PROSE} ${PROSE}</p></div></div></div>
       <div class="sect1"><h2>TRUE MERGE</h2><div class="sectionbody"><div class="paragraph"><p>Except in a fast-forward merge, the branches to be merged must be tied together by a merge commit. ${PROSE}</p></div><div class="paragraph"><p>${PROSE} ${PROSE} ${PROSE} ${PROSE}</p></div></div></div>
       </div><div id="footer"><div id="footer-text">Last updated 2026-01-01</div></div>`,
    );
const r = extractReadable(page, 'text/html', 'https://e.org/a');
console.log(r.method, r.markdown.length, r.markdown.slice(0, 300));
