// A legacy page without <head> (`<html><title>…<body><p>…`) was read as 0 characters of text: linkedom built
// an empty <body> of its own in front of the page's. These pages are read whole now.
import { describe, expect, it } from 'vitest';
import { extractReadable } from '../../src/fetch/extract.js';
import { readableLength } from '../../src/fetch/pipeline.js';

const SENTENCE =
  'The write-ahead log lets readers and writers proceed at once, since readers see the database as of the start of their transaction while the writer appends new pages to the log. ';
const PROSE = `<p>${SENTENCE.repeat(6)}</p><p>${SENTENCE.repeat(6)}</p><p>${SENTENCE.repeat(5)}</p>`;
const read = (html: string) => extractReadable(html, 'text/html', 'https://legacy.example/wal.html');

describe('a page whose <html> has no <head>', () => {
  it.each([
    ['<html><title>…<body>', `<html><title>WAL notes</title><body>${PROSE}</body></html>`],
    ['no </body> or </html>', `<html><title>WAL notes</title><body>${PROSE}`],
    ['<title> with no <html>', `<title>WAL notes</title><body>${PROSE}</body>`],
    ['an empty <head>, the <title> after it', `<html><head></head><title>WAL notes</title><body>${PROSE}</body></html>`],
    ['<meta> and <style> before <body>', `<html><meta charset="utf-8"><title>WAL notes</title><style>p{}</style><body>${PROSE}</body></html>`],
  ])('%s: reads the whole text and the title', (_name, html) => {
    const e = read(html);
    expect(readableLength(e.markdown)).toBeGreaterThan(2_800);
    expect(e.markdown).toContain('The write-ahead log lets readers and writers proceed at once');
    expect(e.markdown).not.toContain('p{}');
    expect(e.title).toBe('WAL notes');
  });

  it('keeps content that stood before <body>, in its place at the start', () => {
    const e = read(`<html><title>WAL notes</title><h1>Write-ahead logging</h1><body>${PROSE}</body></html>`);
    expect(e.markdown.indexOf('Write-ahead logging')).toBeGreaterThanOrEqual(0);
    expect(e.markdown.indexOf('Write-ahead logging')).toBeLessThan(e.markdown.indexOf('The write-ahead log lets'));
  });

  it('reads a well-formed page exactly as before', () => {
    const html = `<!DOCTYPE html><html><head><title>WAL notes</title></head><body>${PROSE}</body></html>`;
    expect(read(html.replace('<head>', '<head><meta charset="utf-8">'))).toEqual(read(html));
    expect(readableLength(read(html).markdown)).toBeGreaterThan(2_800);
  });
});
