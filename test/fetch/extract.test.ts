// Readable extraction: linkedom → Readability → turndown + GFM, over Readability's own test pages served
// from a local server, plus hostile and degenerate HTML.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parseHTML } from 'linkedom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { median, visibleText, wordScore } from '../../bench/score.js';
import { extractReadable } from '../../src/fetch/extract.js';
import { readableLength, readPage } from '../../src/fetch/pipeline.js';
import { allow, fixturesDir, html, PROSE, startServer } from './helpers.js';
import type { TestServer } from './helpers.js';

const URL_ = 'https://example.org/articles/page.html';

describe('extractReadable', () => {
  it('takes the article, its title, and GFM markdown with absolute links and images', () => {
    const page = html(
      `<nav><a href="/">Home</a> <a href="/about">About</a></nav>
       <article><h1>Field notes</h1><p>${PROSE}</p><p>See <a href="../refs/one.html">the first reference</a>
       and <a href="#fn1">a footnote</a>, <a href="/articles/page.html#s2" title="Section 2 of these notes">its section</a>
       and <a href="../refs/two.html" title="Second reference">another</a>. <img src="img/chart.png" alt="Chart" title="Output by year"></p><p>${PROSE}</p>
       <table><thead><tr><th>Year</th><th>Output</th></tr></thead><tbody><tr><td>2019</td><td>1.2</td></tr><tr><td>2020</td><td>1.5</td></tr></tbody></table>
       <p>${PROSE}</p></article><footer>© footer text</footer>`,
      '<title>Field notes | Example</title>',
    );
    const r = extractReadable(page, 'text/html; charset=utf-8', URL_);
    expect(r).toMatchObject({ usedFallback: false, method: 'readability' });
    expect(r.title).toMatch(/Field notes/);
    expect(r.markdown).toContain('[the first reference](https://example.org/refs/one.html)');
    expect(r.markdown).toContain('![Chart](https://example.org/articles/img/chart.png)');
    // A link into the page itself keeps its text only, and no title attribute is kept: neither is text the page shows.
    expect(r.markdown).toContain('and a footnote, its section and [another](https://example.org/refs/two.html).');
    expect(r.markdown).not.toMatch(/Section 2 of|Second reference|Output by year/);
    expect(r.markdown).toMatch(/\| Year \| Output \|\n\| --- \| --- \|\n\| 2019 \| 1\.2 \|/);
    expect(r.markdown).not.toContain('<table');
  });

  it('resolves against a relative <base href>, itself resolved against the page', () => {
    const page = html(`<article><p>${PROSE} <a href="x.html">link</a></p><p>${PROSE}</p></article>`, '<base href="/docs/v2/">');
    expect(extractReadable(page, 'text/html', URL_).markdown).toContain('(https://example.org/docs/v2/x.html)');
  });

  it('drops javascript: links and data: images but keeps their text', () => {
    const page = html(`<article><p>${PROSE} <a href="javascript:alert(1)">click here</a> <img src="data:image/png;base64,AAAA" alt="x"></p><p>${PROSE}</p></article>`);
    const md = extractReadable(page, 'text/html', URL_).markdown;
    expect(md).toContain('click here');
    expect(md).not.toMatch(/javascript:|data:image/);
  });

  it('falls back to the whole body when Readability finds no article', () => {
    const r = extractReadable(html('<div><a href="/a"><img src="/a.png" alt="Alpha"></a></div><script>var a = 1;</script>'), 'text/html', URL_);
    expect(r).toMatchObject({ usedFallback: true, method: 'body' });
    expect(r.markdown).toBe('[![Alpha](https://example.org/a.png)](https://example.org/a)');
  });

  it('takes the main landmark when Readability keeps a footer of a link-list page (docs.python.org concurrency.html)', () => {
    // The shape of a Sphinx index page: one sentence, then a table of contents of links; a prose footer.
    const fns = (m: number) =>
      Array.from({ length: 12 }, (_, i) => `<li class="toctree-l2"><a class="reference internal" href="m${m}.html#f${i}"><code><span class="pre">func_${i}()</span></code></a></li>`).join('');
    const toc = Array.from({ length: 8 }, (_, m) => `<li class="toctree-l1"><a class="reference internal" href="m${m}.html"><code>mod${m}</code> — module ${m}</a><ul>${fns(m)}</ul></li>`).join('');
    const page = html(
      `<div class="related" role="navigation"><ul><li><a href="/">Index</a></li></ul></div>
       <div class="document"><div class="documentwrapper"><div class="bodywrapper"><div class="body" role="main"><section id="c">
       <h1>Concurrent Execution</h1>
       <p>The appropriate choice of tool will depend on the task to be executed (CPU bound vs IO bound).</p>
       <div class="toctree-wrapper compound"><ul>${toc}</ul></div></section></div></div></div></div>
       <div class="footer">&copy; <a href="/copyright.html">Copyright</a> 2001-2026, Python Software Foundation.<br />
       This page is licensed under the Python Software Foundation License Version 2.<br />
       Examples, recipes, and other code in the documentation are additionally licensed under the Zero Clause BSD License.<br />
       See <a href="/license.html">History and License</a> for more information.<br /><br />
       The Python Software Foundation is a non-profit corporation. <a href="https://www.python.org/psf/donations/">Please donate.</a></div>`,
    );
    const r = extractReadable(page, 'text/html', URL_);
    expect(r.method).toBe('main');
    expect(r.markdown).toContain('The appropriate choice of tool will depend on the task');
    expect(r.markdown).toContain('[`func_3()`](https://example.org/articles/m2.html#f3)');
    expect(r.markdown).not.toContain('Please donate');
  });

  it('takes the container of repeated sections when Readability keeps one of them (git-scm.com manual pages)', () => {
    // asciidoc's shape: a header, then one div.sect1 per section. Readability scores the long OPTIONS
    // section highest and, before this rule, returned it alone, without DESCRIPTION or the sections after.
    const sect = (h: string, first: string) =>
      `<div class="sect1"><h2>${h}</h2><div class="sectionbody">${[0, 1, 2, 3].map((i) => `<div class="paragraph"><p>${i === 0 ? `${first} ` : ''}${PROSE}</p></div>`).join('')}</div></div>`;
    const opts = Array.from({ length: 40 }, (_, i) => `<dt class="hdlist1">--option-${i}</dt><dd><p>${PROSE}</p></dd>`).join('');
    const others = Array.from({ length: 7 }, (_, i) => sect(`PART ${i}`, `Section ${i} opens here.`)).join('');
    const page = html(
      `<div id="header"><h1>git-merge(1) Manual Page</h1></div><div id="content">` +
        `${sect('DESCRIPTION', 'Incorporates changes from the named commits.')}` +
        `<div class="sect1"><h2>OPTIONS</h2><div class="sectionbody"><div class="dlist"><dl>${opts}</dl></div></div></div>${others}</div>` +
        `<div id="footer"><div id="footer-text">Last updated 2026-01-01</div></div>`,
    );
    const r = extractReadable(page, 'text/html', URL_);
    expect(r.method).toBe('main');
    for (const s of ['Incorporates changes from the named commits', '--option-7', 'Section 0 opens here', 'Section 6 opens here']) {
      expect(r.markdown).toContain(s);
    }
    expect(r.markdown).not.toContain('Last updated');
  });

  it('takes the title from <title>, else the first heading, else the URL', () => {
    expect(extractReadable(html('<p>x</p>', '<title>From title</title>'), 'text/html', URL_).title).toBe('From title');
    expect(extractReadable(html('<h2>From heading</h2><p>x</p>'), 'text/html', URL_).title).toBe('From heading');
    expect(extractReadable(html('<p>x</p>'), 'text/html', URL_).title).toBe(URL_);
  });

  it('passes text/plain and markdown through, with a title from the first heading', () => {
    const md = '# Notes\r\n\r\nSome *text*.   \n\n\n\nMore.';
    expect(extractReadable(md, 'text/markdown', URL_)).toEqual({ title: 'Notes', markdown: '# Notes\n\nSome *text*.\n\nMore.', usedFallback: false, method: 'passthrough' });
    expect(extractReadable('plain words', 'text/plain', URL_)).toMatchObject({ title: URL_, markdown: 'plain words' });
  });

  it.each([
    ['empty', ''],
    ['bare text', 'just some text'],
    ['fragment', '<p>a paragraph</p>'],
    ['unclosed tags', '<div><p><b><i>unclosed'],
    ['garbage', '<<<>>><!-- <html <body </p>&#xZZZZ;&amp'],
    ['binary-ish', '\u0000\u0001\u0002<\u0000html>'],
    ['xhtml', '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p>x</p></body></html>'],
  ])('never throws on %s input', (_name, input) => {
    expect(() => extractReadable(input, 'text/html', URL_)).not.toThrow();
    expect(() => extractReadable(input, 'application/xhtml+xml', 'not a url')).not.toThrow();
  });

  it('survives 2,000 nested divs (turndown alone overflows the stack near that depth)', () => {
    const page = html(`${'<div>'.repeat(2000)}<p>${PROSE}</p>${'</div>'.repeat(2000)}`);
    const started = Date.now();
    const r = extractReadable(page, 'text/html', URL_);
    expect(r.markdown).toContain('The committee published its findings');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('survives 5,000 nested divs that each hold text, as plain text', () => {
    const page = html(`${'<div>level '.repeat(5000)}<p>${PROSE}</p>${'</div>'.repeat(5000)}`);
    const started = Date.now();
    const r = extractReadable(page, 'text/html', URL_);
    expect(r).toMatchObject({ usedFallback: true, method: 'text' });
    expect(r.markdown).toContain('The committee published its findings');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('catches the RangeError turndown throws on deep nesting and falls back to text', () => {
    // Limits raised so the depth guard does not step in first: this is the recursion itself.
    const page = html(`<p>${PROSE}</p>${'<b>'.repeat(5000)}deep${'</b>'.repeat(5000)}`);
    const r = extractReadable(page, 'text/html', URL_, { maxDepth: Number.POSITIVE_INFINITY });
    expect(r).toMatchObject({ usedFallback: true, method: 'text' });
    expect(r.markdown).toContain('deep');
    expect(r.markdown).toContain('The committee published its findings');
  });

  it('survives deeply nested inline and list elements', () => {
    for (const [open, close] of [
      ['<b>', '</b>'],
      ['<ul><li>', '</li></ul>'],
      ['<table><tr><td>', '</td></tr></table>'],
      ['<blockquote>', '</blockquote>'],
    ] as const) {
      const page = html(`<p>${PROSE}</p>${open.repeat(3000)}deep${close.repeat(3000)}`);
      expect(() => extractReadable(page, 'text/html', URL_), open).not.toThrow();
    }
  });
});

describe('readPage', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer((req, res) => {
      res.writeHead(req.url === '/shell' || req.url === '/deep' ? 200 : 200, { 'content-type': 'text/html' });
      if (req.url === '/shell') return res.end(html('<div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript><script src="/app.js"></script>'));
      if (req.url === '/deep') return res.end(html(`${'<div>'.repeat(2000)}<p>${PROSE}</p>${'</div>'.repeat(2000)}`));
      res.end(html(`<article><h1>Zero\u200Bwidth</h1><p>${PROSE}\u202Egnp.exe</p></article>`));
    });
  });
  afterAll(() => server.close());

  it('refuses a JavaScript shell as not a source (under 200 readable characters)', async () => {
    const r = await readPage(`${server.origin}/shell`, { allowHosts: allow(server), retries: 0 });
    expect(r).toMatchObject({ ok: false, kind: 'not-a-source', reachedNetwork: true, status: 200 });
    if (!r.ok) expect(r.message).toMatch(/characters of readable text \(under 200\).*skip it/);
  });

  it('returns 2,000 nested divs as a page rather than crashing', async () => {
    const r = await readPage(`${server.origin}/deep`, { allowHosts: allow(server), retries: 0 });
    expect(r).toMatchObject({ ok: true });
  });

  it('strips zero-width and bidi controls from title and text', async () => {
    const r = await readPage(`${server.origin}/`, { allowHosts: allow(server), retries: 0 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.markdown).not.toMatch(/[\u200B\u202E]/);
    expect(r.markdown).toContain('gnp.exe');
  });

  it('counts readable characters without markup, link targets or images', () => {
    expect(readableLength('# Title\n\n[text](https://very.long/url/that/does/not/count) ![img](x.png) **bold**')).toBe('Title text bold'.length);
  });
});

const readabilityDir = fixturesDir('readability');
/** A fixture page of a case, stored gzipped (test/fixtures/README.md). */
const fixturePage = (c: string, name: 'source.html' | 'expected.html'): Buffer => zlib.gunzipSync(fs.readFileSync(path.join(readabilityDir, c, `${name}.gz`)));

describe('Readability fixture corpus over a local server', () => {
  let server: TestServer;
  const cases = fs.readdirSync(readabilityDir).filter((c) => fs.existsSync(path.join(readabilityDir, c, 'source.html.gz'))).sort();

  beforeAll(async () => {
    // Pages are served at /<case>/test/page.html, mirroring the http://fakehost/test/page.html the
    // expected output was generated at.
    server = await startServer((req, res) => {
      const m = /^\/([^/]+)\/test\/page\.html$/.exec(req.url ?? '');
      const file = m?.[1] && cases.includes(m[1]) ? m[1] : undefined;
      if (!file) {
        res.writeHead(404);
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(fixturePage(file, 'source.html'));
    });
  });
  afterAll(() => server.close());

  it(`has median word recall ≥ 0.97 against expected.html`, async () => {
    const recalls: number[] = [];
    for (const c of cases) {
      const r = await readPage(`${server.origin}/${c}/test/page.html`, { allowHosts: allow(server), retries: 0 });
      const expected = textOf(fixturePage(c, 'expected.html').toString('utf8'));
      recalls.push(r.ok ? wordScore(visibleText(r.markdown), expected).recall : 0);
    }
    expect(cases.length).toBeGreaterThan(50);
    expect(median(recalls)).toBeGreaterThanOrEqual(0.97);
  }, 60_000);

  it.each(['base-url', 'base-url-base-element-relative'])('resolves every relative link and image like the reference: %s', async (c) => {
    // Served alone at /test/page.html, the address the reference output was generated at, so that
    // root-relative links resolve to the same paths.
    const single = await startServer((_q, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(fixturePage(c, 'source.html'));
    });
    try {
      const r = await readPage(`${single.origin}/test/page.html`, { allowHosts: allow(single), retries: 0 });
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      const { document } = parseHTML(html(fixturePage(c, 'expected.html').toString('utf8')));
      const d = document as unknown as { querySelectorAll(s: string): ArrayLike<{ getAttribute(n: string): string | null }> };
      const want = [
        ...Array.from(d.querySelectorAll('a[href]')).map((a) => a.getAttribute('href') ?? ''),
        ...Array.from(d.querySelectorAll('img[src]')).map((i) => i.getAttribute('src') ?? ''),
      ]
        .map((u) => u.replace('http://fakehost', single.origin))
        // A link into the page itself keeps its text only.
        .filter((u) => !u.startsWith('#') && !u.startsWith(`${single.origin}/test/page.html#`));
      expect(want.length).toBeGreaterThan(3);
      for (const u of want) expect(r.markdown, u).toContain(`(${u})`);
      expect(r.markdown).not.toMatch(/\]\((?!https?:|#|mailto:)/);
    } finally {
      await single.close();
    }
  });

  it('keeps data tables as GFM tables (keep-tabular-data)', async () => {
    const r = await readPage(`${server.origin}/keep-tabular-data/test/page.html`, { allowHosts: allow(server), retries: 0 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.markdown).toMatch(/^\|.*\|\n\| --- \|( --- \|)+\n\|.*UX\sdraft.*\|$/m);
    expect(r.markdown).not.toMatch(/<table|<div/);
  });
});

function textOf(fragment: string): string {
  const { document } = parseHTML(html(fragment));
  return (document as unknown as { body: { textContent: string } }).body.textContent;
}
