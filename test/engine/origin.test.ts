import { describe, expect, it } from 'vitest';
import { declaredOrigin, isAggregator, originOf } from '../../src/engine/origin.js';

describe('originOf: the registrable domain (SPEC 4.1 origin)', () => {
  it.each([
    ['https://docs.python.org/3/library/sqlite3.html', 'python.org'],
    ['https://foo.github.io/project/', 'foo.github.io'],
    ['https://www.bbc.co.uk/news/x', 'bbc.co.uk'],
    ['https://bbc.co.uk/', 'bbc.co.uk'],
    ['http://127.0.0.1:4599/page.html', '127.0.0.1'],
    ['http://[::1]:8080/', '::1'],
    ['http://intranet/wiki', 'intranet'],
    ['https://A.B.Example.COM./x', 'example.com'],
  ])('%s → %s', (url, origin) => {
    expect(originOf(url)).toBe(origin);
  });

  it('refuses what is not a URL', () => {
    expect(() => originOf('not a url')).toThrow(/not a URL/);
  });
});

describe('declaredOrigin: primary origins given as domains or URLs', () => {
  it.each([
    ['docs.python.org', 'python.org'],
    ['www.sqlite.org', 'sqlite.org'],
    ['https://www.sqlite.org/lang.html', 'sqlite.org'],
    ['foo.github.io/docs', 'foo.github.io'],
    ['127.0.0.1:4599', '127.0.0.1'],
  ])('%s → %s', (given, origin) => {
    expect(declaredOrigin(given)).toBe(origin);
  });

  it('refuses an empty or malformed one', () => {
    expect(() => declaredOrigin(' ')).toThrow(/empty/);
    expect(() => declaredOrigin('two words')).toThrow(/neither a domain nor a URL/);
  });
});

describe('isAggregator', () => {
  it('names encyclopedias, Q&A and social sites and blog hosts, and leaves project sites alone', () => {
    for (const o of ['wikipedia.org', 'stackoverflow.com', 'reddit.com', 'medium.com', 'someone.blogspot.com']) expect(isAggregator(o)).toBe(true);
    for (const o of ['python.org', 'sqlite.org', 'foo.github.io', 'bbc.co.uk']) expect(isAggregator(o)).toBe(false);
  });
});
