// Code blocks of documentation generators (Sphinx/Pygments write <pre> with highlighting spans, no <code>)
// are stored as fenced code, not escaped prose, and a quote of that code grounds however it is typed.
import { describe, expect, it } from 'vitest';
import { extractReadable } from '../../src/fetch/extract.js';
import { quoteFound } from '../../src/engine/grounding.js';

// The shape of requests' quickstart (python-requests-doc), served without its generator line.
const PAGE = `<!DOCTYPE html><html><head><title>Quickstart</title></head><body>
<div class="related" role="navigation"><ul><li><a href="index.html">index</a></li></ul></div>
<div class="document"><div class="documentwrapper"><div class="body" role="main">
<section id="quickstart"><h1>Quickstart<a class="headerlink" href="#quickstart" title="Permalink to this headline">¶</a></h1>
<p>Eager to get started? This page gives a good introduction in how to get started with the library.</p>
<section id="make-a-request"><h2>Make a Request<a class="headerlink" href="#make-a-request" title="Permalink to this headline">¶</a></h2>
<p>Making a request is very simple. Begin by importing the module and asking for a page:</p>
<div class="highlight-python3 notranslate"><div class="highlight"><pre><span></span><span class="gp">&gt;&gt;&gt; </span><span class="kn">import</span> <span class="nn">requests</span>
<span class="gp">&gt;&gt;&gt; </span><span class="n">r</span> <span class="o">=</span> <span class="n">requests</span><span class="o">.</span><span class="n">get</span><span class="p">(</span><span class="s1">'https://api.github.com/events'</span><span class="p">)</span>
<span class="gp">&gt;&gt;&gt; </span><span class="n">r</span><span class="o">.</span><span class="n">status_code</span>
<span class="go">200</span>
<span class="c1"># a *comment* with &lt;tags&gt; and __dunder__</span>
</pre></div></div>
<p>Now we have a Response object called r, and we can get all the information we need from it.</p>
</section></section></div></div></div>
<div class="footer">© Copyright.</div></body></html>`;

describe('code blocks', () => {
  const md = extractReadable(PAGE, 'text/html', 'https://docs.example/user/quickstart.html').markdown;

  it('stores a <pre> of highlighting spans as fenced code, with the language of its wrapper', () => {
    expect(md).toContain("```python3\n>>> import requests\n>>> r = requests.get('https://api.github.com/events')\n>>> r.status_code\n200\n# a *comment* with <tags> and __dunder__\n```");
    expect(md).not.toContain('\\>');
  });

  it('grounds quotes of the code, typed on one line or several, with or without the prompts', () => {
    for (const quote of [
      '>>> import requests',
      "r = requests.get('https://api.github.com/events')",
      ">>> r = requests.get('https://api.github.com/events') >>> r.status_code 200",
      ">>> r.status_code\n200",
      '# a *comment* with <tags> and __dunder__',
      'a comment with <tags> and dunder',
    ]) {
      expect(quoteFound(quote, md), quote).toBe(true);
    }
    expect(quoteFound(">>> r = requests.post('https://api.github.com/events')", md)).toBe(false);
  });
});
