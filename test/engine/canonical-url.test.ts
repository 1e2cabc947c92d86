import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TRACKING_PARAMS, canonicalKey, isTrackingParam } from '../../src/engine/canonical-url.js';
import { InputError } from '../../src/errors.js';

describe('canonicalKey: DOI rule', () => {
  it('finds a DOI inside a publisher URL and matches the doi.org form, case-insensitively', () => {
    const key = 'doi:10.1002/abc.12345';
    expect(canonicalKey('https://onlinelibrary.wiley.com/doi/full/10.1002/abc.12345')).toBe(key);
    expect(canonicalKey('https://doi.org/10.1002/ABC.12345')).toBe(key);
    expect(canonicalKey('http://dx.doi.org/10.1002/abc.12345')).toBe(key);
    expect(canonicalKey('https://onlinelibrary.wiley.com/doi/pdf/10.1002/abc.12345')).toBe(key);
    expect(canonicalKey('https://onlinelibrary.wiley.com/doi/10.1002/abc.12345/abstract')).toBe(key);
    expect(canonicalKey('https://doi.org/10.1002%2Fabc.12345')).toBe(key);
  });

  it('handles Springer article and PDF forms', () => {
    const key = 'doi:10.1007/s00134-020-06294-x';
    expect(canonicalKey('https://link.springer.com/article/10.1007/s00134-020-06294-x')).toBe(key);
    expect(canonicalKey('https://link.springer.com/content/pdf/10.1007/s00134-020-06294-x.pdf')).toBe(key);
  });

  it('finds a DOI in a query value', () => {
    expect(
      canonicalKey('https://journals.plos.org/plosone/article?id=10.1371/journal.pone.0230000&type=printable'),
    ).toBe('doi:10.1371/journal.pone.0230000');
  });

  it('keeps balanced parentheses that belong to the DOI', () => {
    expect(canonicalKey('https://doi.org/10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-0')).toBe(
      'doi:10.1002/(sici)1097-4571(199806)49:8<693::aid-asi4>3.0.co;2-0',
    );
  });

  it('does not strip a view-like word that is the whole DOI suffix', () => {
    expect(canonicalKey('https://doi.org/10.1234/pdf')).toBe('doi:10.1234/pdf');
  });

  it('needs 4 to 9 registrant digits', () => {
    expect(canonicalKey('https://example.com/10.123/abc')).toBe('example.com/10.123/abc');
  });
});

describe('canonicalKey: arXiv rule', () => {
  it('collapses abs, pdf, versioned and .pdf forms to one key', () => {
    const forms = [
      'https://arxiv.org/abs/2101.00001',
      'https://arxiv.org/abs/2101.00001v1',
      'https://arxiv.org/pdf/2101.00001v2',
      'https://arxiv.org/pdf/2101.00001.pdf',
      'http://www.arxiv.org/pdf/2101.00001v3.pdf',
      'https://export.arxiv.org/abs/2101.00001',
      'https://doi.org/10.48550/arXiv.2101.00001',
    ];
    for (const f of forms) expect(canonicalKey(f), f).toBe('arxiv:2101.00001');
  });

  it('handles old-style ids and does not mistake a five-digit id for a DOI', () => {
    expect(canonicalKey('https://arxiv.org/abs/hep-th/9901001v3')).toBe('arxiv:hep-th/9901001');
    expect(canonicalKey('https://arxiv.org/pdf/hep-th/9901001')).toBe('arxiv:hep-th/9901001');
    expect(canonicalKey('https://arxiv.org/abs/math.GT/0309136')).toBe('arxiv:math.GT/0309136');
    expect(canonicalKey('https://arxiv.org/abs/2310.12345')).toBe('arxiv:2310.12345');
  });

  it('leaves other arXiv pages to the generic rule', () => {
    expect(canonicalKey('https://arxiv.org/list/cs.AI/recent')).toBe('arxiv.org/list/cs.AI/recent');
  });
});

describe('canonicalKey: generic rule', () => {
  it('collapses tracking and cosmetic variants of one page', () => {
    const key = 'example.com/report?id=7&page=2';
    const variants = [
      'https://example.com/report?id=7&page=2',
      'http://example.com/report?id=7&page=2',
      'https://www.example.com/report?id=7&page=2',
      'https://EXAMPLE.com/report/?id=7&page=2',
      'https://example.com:443/report?id=7&page=2',
      'http://example.com:80/report?id=7&page=2',
      'https://example.com/report?page=2&id=7',
      'https://example.com/report?id=7&page=2#section-3',
      'https://example.com/report?utm_source=newsletter&utm_medium=email&id=7&page=2',
      'https://example.com/report?id=7&fbclid=IwAR0abc&page=2',
      'https://example.com/report?id=7&page=2&gclid=x&msclkid=y&mc_cid=a&mc_eid=b&igshid=c&ref=tw&ref_src=twsrc',
      'https://example.com/report?id=7&page=2&_hsenc=p2&_hsmi=9&yclid=1&spm=a.b&dclid=z',
      'https://example.com/report?UTM_Campaign=x&id=7&page=2',
      '  https://example.com/report?id=7&page=2  ',
    ];
    for (const v of variants) expect(canonicalKey(v), v).toBe(key);
  });

  it('never puts a scheme in the key and drops the root slash', () => {
    expect(canonicalKey('https://www.example.org/')).toBe('example.org');
    expect(canonicalKey('http://example.org')).toBe('example.org');
  });

  it('keeps non-default ports, path case and real parameters distinct', () => {
    expect(canonicalKey('https://example.com:8080/a')).toBe('example.com:8080/a');
    expect(canonicalKey('https://example.com/A')).not.toBe(canonicalKey('https://example.com/a'));
    expect(canonicalKey('https://example.com/r?id=7')).not.toBe(canonicalKey('https://example.com/r?id=8'));
    expect(canonicalKey('https://example.com/r?id=7')).not.toBe(canonicalKey('https://example.com/r'));
    expect(canonicalKey('https://a.example.com/r')).not.toBe(canonicalKey('https://b.example.com/r'));
  });

  it('keeps an encoded ampersand inside a value as one parameter', () => {
    expect(canonicalKey('https://example.com/s?q=a%26b')).toBe('example.com/s?q=a%26b');
    expect(canonicalKey('https://example.com/s?q=a%26b')).not.toBe(canonicalKey('https://example.com/s?q=a&b'));
  });

  it('treats an encoded and a literal non-ASCII path alike', () => {
    expect(canonicalKey('https://example.com/caf%C3%A9')).toBe(canonicalKey('https://example.com/café'));
  });

  it('exports the tracking list and matches case-insensitively', () => {
    for (const p of ['fbclid', 'gclid', 'dclid', 'msclkid', 'mc_cid', 'mc_eid', 'igshid', 'ref', 'ref_src', '_hsenc', '_hsmi', 'yclid', 'spm']) {
      expect(TRACKING_PARAMS).toContain(p);
    }
    expect(isTrackingParam('utm_anything')).toBe(true);
    expect(isTrackingParam('FBCLID')).toBe(true);
    expect(isTrackingParam('id')).toBe(false);
    expect(isTrackingParam('reference')).toBe(false);
  });
});

describe('canonicalKey: refusals', () => {
  it.each([
    '',
    'not a url',
    'example.com/page',
    'ftp://example.com/file',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'mailto:a@example.com',
    'data:text/plain,hi',
    'http://',
    'https://exa mple.com/',
  ])('refuses %j with an InputError that says what to send', (raw) => {
    expect(() => canonicalKey(raw)).toThrow(InputError);
    expect(() => canonicalKey(raw)).toThrow(/http/);
  });
});

describe('canonicalKey: properties', () => {
  it('re-parsing a generic key gives the same key', () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (url) => {
        const key = canonicalKey(url);
        fc.pre(!key.startsWith('doi:') && !key.startsWith('arxiv:'));
        expect(canonicalKey(`https://${key}`)).toBe(key);
        expect(key).not.toMatch(/^https?:\/\//);
      }),
      { numRuns: 500 },
    );
  });

  it('re-parsing is stable for paths and queries with arbitrary (also percent-encoded) characters', () => {
    const part = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 12 }).map(encodeURIComponent),
      fc.string({ maxLength: 12 }),
      fc.constantFrom('%25', '%2541', '%zz', '%', '%2F', '..', '.', ''),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 5 }), fc.array(fc.tuple(part, part), { maxLength: 4 }), (segs, params) => {
        const query = params.map(([k, v]) => `${k}=${v}`).join('&');
        let key: string;
        try {
          key = canonicalKey(`https://example.com/${segs.join('/')}${query ? `?${query}` : ''}`);
        } catch (e) {
          expect(e).toBeInstanceOf(InputError);
          return;
        }
        fc.pre(!key.startsWith('doi:') && !key.startsWith('arxiv:'));
        expect(canonicalKey(`https://${key}`)).toBe(key);
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps a literal percent sign literal', () => {
    expect(canonicalKey('https://example.com/a%2541')).toBe('example.com/a%2541');
    expect(canonicalKey('https://example.com/a%2541')).not.toBe(canonicalKey('https://example.com/aA'));
  });

  it('throws nothing but InputError on arbitrary strings', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary' }),
          fc.string({ unit: 'binary' }).map((s) => `https://${s}`),
          fc.string().map((s) => `http://example.com/${s}`),
        ),
        (raw) => {
          try {
            expect(typeof canonicalKey(raw)).toBe('string');
          } catch (e) {
            expect(e).toBeInstanceOf(InputError);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
