// A search result shows about what a web search engine does of a page: enough to judge it, not to read it.
import { describe, expect, it } from 'vitest';
import { snippetOf } from '../../src/local/snippet.js';

const filler = (n: number) => Array.from({ length: n }, (_, i) => `Sentence ${i} says nothing about the subject at hand.`).join(' ');

describe('snippetOf', () => {
  it('shows the window where the query words meet, and stays short', () => {
    const text = `${filler(40)} The postrm script must only rely on essential packages when it is called with purge. ${filler(40)}`;
    const s = snippetOf(text, 'postrm essential packages purge');
    expect(s).toContain('postrm script must only rely on essential packages');
    expect(s.length).toBeLessThanOrEqual(200);
    expect(s.startsWith('…') && s.endsWith('…')).toBe(true);
  });

  it('skips a table of contents with dot leaders, which names every topic first (trial 64: policy.pdf)', () => {
    const toc = Array.from({ length: 60 }, (_, i) => `8.${i} Shared library ${i % 2 ? 'symbols' : 'shlibs'} files and ldconfig triggers . . . . . . . . . . ${100 + i}`).join('\n');
    const body = `${filler(20)}\nAny such package must have the line activate-noawait ldconfig in its triggers control file.\n${filler(20)}`;
    const s = snippetOf(`Debian Policy Manual\nContents\n${toc}\n${body}`, 'activate-noawait ldconfig triggers shared library');
    expect(s).toContain('must have the line activate-noawait ldconfig');
    expect(s).not.toMatch(/\. \. \./);
  });

  it('shows the head of a short text whole', () => {
    expect(snippetOf('Depends declares an absolute dependency.', 'depends')).toBe('Depends declares an absolute dependency.');
  });
});
