import { describe, expect, it } from 'vitest';
import { editionRank, isNearCopy, lesserEditions } from '../../src/engine/near-copy.js';

// Debian Policy 7.2 as its HTML page and its reStructuredText source give it (trial 15's search results).
const HTML = '…actions that require a dependency if that dependency isn’t available. Recommends This declares a strong, but not absolute, dependency. The Recommends field should list packages that would be found together…';
const RST = "…a dependency if that dependency isn't available. ``Recommends`` This declares a strong, but not absolute, dependency. The ``Recommends`` field should list packages that would be found together with this one in all…";

describe('isNearCopy', () => {
  it('takes the same passage in two markups for one text', () => {
    expect(isNearCopy(HTML, RST)).toBe(true);
  });
  it('keeps apart two passages on one subject', () => {
    expect(isNearCopy(HTML, '…Suggests This is used to declare that one package may be more useful with one or more others. Using this field tells the packaging system…')).toBe(false);
    expect(isNearCopy('', RST)).toBe(false);
  });
});

describe('editionRank', () => {
  it('prefers a rendered page, then a PDF, then a source text', () => {
    expect(editionRank('local:policy/ch-files.html')).toBe(0);
    expect(editionRank('https://x.org/a.xhtml?x=1')).toBe(0);
    expect(editionRank('local:policy/policy.pdf')).toBe(1);
    expect(editionRank('local:policy/_sources/ch-files.rst.txt')).toBe(2);
    expect(editionRank('local:policy/notes.txt')).toBe(2);
  });
});

describe('lesserEditions', () => {
  // Debian Policy 8.1 (GPL-2+), as the rendered page and its reST source store it.
  const HTML = 'Run-time shared libraries. The run-time shared library must be placed in a package whose name changes whenever the SONAME of the shared library changes. This allows several versions of the shared library to be installed at the same time.';
  const RST = 'Run-time shared libraries\n=========================\n\nThe run-time shared library must be placed in a package whose name changes whenever the ``SONAME`` of the shared library changes. This allows several versions of the shared library to be installed at the same time.';
  const src = (id: string, url: string, markdown: string, origin = 'local:debian-policy') => ({ id, url, origin, markdown });

  it('drops the .rst.txt of a stored HTML page, whichever was stored first', () => {
    expect([...lesserEditions([src('S7', 'local:debian-policy/policy.html/_sources/ch-sharedlibs.rst.txt', RST), src('S1', 'local:debian-policy/policy.html/ch-sharedlibs.html', HTML)])]).toEqual(['S7']);
    expect([...lesserEditions([src('S1', 'local:debian-policy/policy.html/ch-sharedlibs.html', HTML), src('S7', 'local:debian-policy/policy.html/_sources/ch-sharedlibs.rst.txt', RST)])]).toEqual(['S7']);
  });

  it('keeps both when the document, the site or the text differs', () => {
    expect(lesserEditions([src('S1', 'local:debian-policy/policy.html/ch-sharedlibs.html', HTML), src('S2', 'local:debian-policy/policy.html/_sources/ch-files.rst.txt', RST)]).size).toBe(0);
    expect(lesserEditions([src('S1', 'https://www.debian.org/doc/debian-policy/ch-sharedlibs.html', HTML, 'debian.org'), src('S2', 'local:debian-policy/policy.html/_sources/ch-sharedlibs.rst.txt', RST)]).size).toBe(0);
    expect(lesserEditions([src('S1', 'local:debian-policy/policy.html/ch-sharedlibs.html', HTML), src('S2', 'local:debian-policy/policy.html/_sources/ch-sharedlibs.rst.txt', 'Shared libraries must use ldconfig triggers; the postinst no longer calls it.')]).size).toBe(0);
  });
});
