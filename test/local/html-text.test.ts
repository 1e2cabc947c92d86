// The index's HTML text comes from one streaming parse (src/local/html-text.ts) instead of a linkedom DOM.
// It must give the words the DOM's textContent gave (the index ranks and shows snippets of them), on real
// manual pages and on the edges a tree walk handles by itself: dropped subtrees, block breaks, titles.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { htmlText, MAX_DEPTH, TooDeep } from '../../src/local/html-text.js';

const DOCS = path.resolve(__dirname, '../fixtures/docs');
const squash = (s: string) => s.replace(/[ \t]+/g, ' ').replace(/\s*\n\s*/g, '\n').trim();

// The DOM pass the index used before: line breaks put before block tags, dropped elements removed, body text.
function viaDom(html: string): { title: string | undefined; text: string } {
  const BLOCK = /<(\/?)(p|div|br|li|dt|dd|h[1-6]|tr|td|th|pre|section|article|blockquote|table|ul|ol|dl|hr)\b/gi;
  const { document } = parseHTML(html.replace(BLOCK, '\n<$1$2'));
  const title = document.querySelector('title')?.textContent ?? document.querySelector('h1')?.textContent ?? undefined;
  for (const el of [...document.querySelectorAll('script, style, noscript, template, svg, nav, header, footer, [role="navigation"]')]) el.remove();
  return { title, text: document.body?.textContent ?? '' };
}

describe('htmlText', () => {
  const pages = fs.readdirSync(DOCS).filter((f) => f.endsWith('.html.gz'));

  it.each(pages)('gives the text a DOM pass gives on %s', (page) => {
    const html = zlib.gunzipSync(fs.readFileSync(path.join(DOCS, page))).toString('utf8');
    const dom = viaDom(html);
    const ours = htmlText(html);
    expect(squash(ours.text).length).toBeGreaterThan(100);
    expect(squash(ours.text)).toBe(squash(dom.text));
    expect(ours.title?.trim()).toBe(dom.title?.trim());
  });

  it('leaves out scripts, styles, navigation, headers and footers, nested or not', () => {
    const html = `<html><head><title>T</title><style>p{}</style></head><body>
      <header>Site header <p>menu</p></header><nav><div><nav>inner</nav>links</div></nav>
      <div role="navigation">side</div><main><p>Kept one.</p><script>var x = "<p>";</script>
      <svg><title>icon</title><text>glyph</text></svg><p>Kept two.</p><noscript>js off</noscript></main>
      <footer>Footer</footer></body></html>`;
    expect(squash(htmlText(html).text)).toBe('Kept one.\nKept two.');
  });

  it('keeps words of adjacent blocks apart and decodes entities', () => {
    const html = '<body><ul><li>one</li><li>two</li></ul><table><tr><td>a&amp;b</td><td>c</td></tr></table>x<br>y</body>';
    expect(squash(htmlText(html).text)).toBe('one\ntwo\na&b\nc\nx\ny');
  });

  it('takes the title from <title>, else the first <h1>, else none', () => {
    expect(htmlText('<title>Page</title><body><h1>Heading</h1>text</body>').title).toBe('Page');
    expect(htmlText('<body><h1>First <em>one</em></h1><h1>Second</h1></body>').title).toBe('First one');
    expect(htmlText('<body><p>no heading</p></body>').title).toBeUndefined();
  });

  it('reads a page with no <body> (a fragment) whole, leaving the <head> out', () => {
    const r = htmlText('<head><title>T</title><meta name="x"></head><h1>Autopkgtest</h1><p>This document describes tests.</p>');
    expect(squash(r.text)).toBe('Autopkgtest\nThis document describes tests.');
    expect(r.title).toBe('T');
  });

  it('reads only the body when there is one', () => {
    expect(squash(htmlText('<html><head><title>T</title></head>stray<body><p>Body text.</p></body>after</html>').text)).toBe('Body text.');
  });

  it('reads hostile markup: unclosed tags, a large page, nesting past MAX_DEPTH refused', () => {
    expect(squash(htmlText(`<body>${'<div>'.repeat(MAX_DEPTH - 2)}deep words${'</div>'.repeat(10)}<p>unclosed <b><i>tags`).text)).toBe('deep words\nunclosed tags');
    // 200,000 deep took 9 s before the cap (htmlparser2's open-element stack costs the depth per tag); now
    // it stops at MAX_DEPTH, well inside the test's time limit.
    expect(() => htmlText(`<body>${'<div>'.repeat(200_000)}x`)).toThrow(TooDeep);
    expect(htmlText(`<body>${'<p>word '.repeat(500_000)}${'</x>'.repeat(100_000)}</body>`).text.length).toBeGreaterThan(2_500_000);
  });
});
