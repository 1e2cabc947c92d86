/** HTML to markdown: turndown with the GFM plugin, after links and tables are prepared. */
import TurndownService from 'turndown';
import { gfm } from '@joplin/turndown-plugin-gfm';
import type { DomElement } from './dom.js';
import { withChildListMemo } from './child-lists.js';
import { expandSpans, polyfillTableRows, unwrapLayoutTables } from './tables.js';
import { tidy } from './text.js';
import { absolutise } from './urls.js';

/** Markdown for `root`, or undefined when turndown fails (it recurses once per nesting level). */
export function toMarkdown(root: DomElement, base: URL | undefined, pageHref: string): string | undefined {
  try {
    absolutise(root, base, pageHref);
    unwrapLayoutTables(root);
    expandSpans(root);
    const converter = turndown();
    return tidy(withChildListMemo(() => converter.turndown(root as never)));
  } catch {
    return undefined;
  }
}

let service: TurndownService | undefined;

function turndown(): TurndownService {
  if (service) return service;
  polyfillTableRows();
  const s = new TurndownService({
    headingStyle: 'atx',
    hr: '---',
    bulletListMarker: '-',
    codeBlockStyle: 'fenced',
    emDelimiter: '_',
    strongDelimiter: '**',
  });
  s.use(gfm);
  // turndown pads list markers to four columns ("-   item"); one space reads the same and costs fewer tokens.
  s.addRule('compactListItem', {
    filter: 'li',
    replacement(content, node) {
      const li = node as unknown as DomElement & { nextSibling: unknown };
      const list = li.parentNode as DomElement | null;
      let prefix = '- ';
      if (list?.nodeName === 'OL') {
        const start = Number.parseInt(list.getAttribute('start') ?? '', 10);
        prefix = `${(Number.isFinite(start) ? start : 1) + Array.prototype.indexOf.call(list.children, li)}. `;
      }
      const endsParagraph = /\n$/.test(content);
      const body = content.replace(/^\n+|\n+$/g, '') + (endsParagraph ? '\n' : '');
      return prefix + body.replace(/\n/g, `\n${' '.repeat(prefix.length)}`) + (li.nextSibling ? '\n' : '');
    },
  });
  // turndown fences only `<pre><code>`; documentation generators write `<pre>` with highlighting spans
  // (Sphinx, Pygments), which it stored as escaped prose ("\\>\\>\\> import x").
  s.addRule('preformatted', {
    filter: (node) => node.nodeName === 'PRE' && node.firstChild?.nodeName !== 'CODE',
    replacement(_content, node) {
      const code = (node.textContent ?? '').replace(/^\n+|\s+$/g, '');
      if (code === '') return '';
      let size = 3;
      for (const run of code.match(/^`{3,}/gm) ?? []) size = Math.max(size, run.length + 1);
      const fence = '`'.repeat(size);
      return `\n\n${fence}${codeLanguage(node as unknown as DomElement)}\n${code}\n${fence}\n\n`;
    },
  });
  s.remove(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'canvas', 'svg', 'button', 'input', 'select', 'textarea']);
  service = s;
  return s;
}

/** A code block's language from its own or a wrapper's class (`language-x`, Sphinx's `highlight-x`). */
function codeLanguage(pre: DomElement): string {
  for (let el: DomElement | null = pre, up = 0; el && up < 3; el = el.parentNode as DomElement | null, up++) {
    const cls = el.getAttribute?.('class') ?? '';
    const m = /(?:^|\s)(?:language|lang|highlight)-([\w+#.-]{1,30})(?:\s|$)/.exec(cls);
    if (m && !/^(default|none|text|plain)$/i.test(m[1] as string)) return m[1] as string;
  }
  return '';
}
