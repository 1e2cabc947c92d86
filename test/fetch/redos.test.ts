// Every text function that sees page content runs in time linear in its size: a hostile page must not
// stall the server with input shaped to make a regular expression backtrack.
import { describe, expect, it } from 'vitest';
import { extractReadable } from '../../src/fetch/extract.js';
import { outline, pageFrom, selectPassages } from '../../src/fetch/passages.js';
import { readableLength } from '../../src/fetch/pipeline.js';
import { sanitizeText, wrapUntrusted } from '../../src/fetch/untrusted.js';
import { checkUrl } from '../../src/fetch/url-guard.js';

const N = 200_000;
const shapes: Record<string, string> = {
  'spaces then a letter': `${' '.repeat(N)}x`,
  'heading of spaces': `# ${' '.repeat(N)}x`,
  'heading of spaces and hashes': `# ${' #'.repeat(N / 2)}x`,
  'open brackets and spaces': `<${' '.repeat(N)}`,
  'many image openers': '!['.repeat(N / 2),
  'many empty links': `[](${'a'.repeat(N)}`,
  'many link openers': '[a]('.repeat(N / 4),
  'emphasis markers': `# ${'**'.repeat(N / 2)}`,
  'unclosed tags': '<'.repeat(N),
  'table-ish line': `${'| -'.repeat(N / 3)}x`,
  'sentence ends without spaces': '.'.repeat(N),
};

describe('no super-linear pattern on hostile text', () => {
  it.each(Object.entries(shapes))('%s', (_name, text) => {
    const started = performance.now();
    extractReadable(text, 'text/plain', 'https://example.org/');
    extractReadable(text, 'text/markdown', 'https://example.org/');
    readableLength(text);
    outline(text);
    selectPassages(text, 'focus words here', 8000);
    pageFrom(text, 0, 8000);
    wrapUntrusted(sanitizeText(text), 'label');
    checkUrl(`http://${text.slice(0, 16_000)}`, new Set());
    // Generous for a shared CI machine; the quadratic versions of these took minutes.
    expect(performance.now() - started).toBeLessThan(3000);
  });

  // A 5 MiB page (the fetch cap) shaped to explode the DOM: one text node per stray '<' or entity, or
  // hundreds of thousands of empty elements. linkedom spends hundreds of bytes per node.
  it.each([
    ['stray <', '<'.repeat(5_000_000)],
    ['entities', '&lt;'.repeat(1_300_000)],
    ['empty elements', '<i></i>'.repeat(700_000)],
    ['short paragraphs', '<p>a &amp; b</p>'.repeat(300_000)],
  ])('bounds time and memory on a 5 MiB page of %s', (_name, page) => {
    const rss = process.memoryUsage().rss;
    const started = performance.now();
    const r = extractReadable(page, 'text/html', 'https://example.org/');
    expect(r).toMatchObject({ usedFallback: true, method: 'text' });
    expect(performance.now() - started).toBeLessThan(8000);
    expect(process.memoryUsage().rss - rss).toBeLessThan(400 * 1024 * 1024);
  });
});
