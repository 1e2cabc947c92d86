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

  it('shows the head of a short text whole', () => {
    expect(snippetOf('Depends declares an absolute dependency.', 'depends')).toBe('Depends declares an absolute dependency.');
  });
});
