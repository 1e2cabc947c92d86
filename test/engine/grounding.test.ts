import { describe, expect, it } from 'vitest';
import {
  normalizeForMatch,
  plainTextProjection,
  projectForMatching,
  quoteFound,
  quoteFoundIn,
} from '../../src/engine/grounding.js';

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();
const project = (md: string): string => squash(plainTextProjection(md));

describe('plainTextProjection', () => {
  it('reduces links and images to their text', () => {
    expect(project('as [Smith et al.](http://x.org/a_(b)) found')).toBe('as Smith et al. found');
    expect(project('see ![a chart](img.png "Chart") here')).toBe('see a chart here');
    expect(project('[![logo](l.png)](https://x.org)')).toBe('logo');
    expect(project('per [the report][r1] and [WHO][]\n\n[r1]: https://x.org/r "R"')).toBe('per the report and WHO');
    expect(project('at <https://example.org/page> now')).toBe('at https://example.org/page now');
  });

  it('removes emphasis, strong, code and strike-through markers', () => {
    expect(project('it is **not** _always_ `true` or ~~false~~, ***really***')).toBe(
      'it is not always true or false, really',
    );
    expect(project('__bold__ and *"quoted"*')).toBe('bold and "quoted"');
  });

  it('keeps literal characters: escapes, intraword underscores, lone asterisks', () => {
    expect(project(String.raw`a \*literal\* star and \_under\_ and \[x\](y)`)).toBe('a *literal* star and _under_ and [x](y)');
    expect(project('snake_case and 2*3 and a * b')).toBe('snake_case and 2*3 and a * b');
  });

  it('removes headings, blockquotes, bullets, table pipes and HTML tags', () => {
    expect(project('## Results ##\n> quoted line\n> > nested\n- item one\n* item two')).toBe(
      'Results quoted line nested item one item two',
    );
    expect(project('| a | b |\n|---|:---:|\n| 1 | 2 |')).toBe('a b 1 2');
    expect(project('<p>One <em>two</em></p><p>three</p>')).toBe('One two three');
    expect(project('AT&amp;T &#8212; &#x2014; &lt;b&gt;')).toBe('AT&T — — <b>');
  });
});

describe('normalizeForMatch', () => {
  it('folds case, quotes, dashes, spaces and invisible characters', () => {
    expect(normalizeForMatch('  “It’s” — «Ok» ‐ x\u00a0\n\ty  ')).toBe(`'it's' - 'ok' - x y`);
    expect(normalizeForMatch('co\u00adoper\u200bation\ufeff')).toBe('cooperation');
    expect(normalizeForMatch('ﬁve ①')).toBe('five 1');
  });
});

describe('quoteFound', () => {
  const md = [
    '# Findings',
    '',
    'As [Smith et al.](https://example.org/smith) showed, output did **not** fall —',
    'it rose by 5–8%. The authors call it a “genuine improvement”.',
  ].join('\n');

  it('finds a quote typed without the escapes a PDF page was stored with (trial 68: R\\_ENVIRON, \\--no-environ)', () => {
    const pdf = 'The site file is `R\\_HOME/etc/Renviron.site` unless R\\_ENVIRON is set; \\--no-environ skips it.';
    expect(quoteFound('unless R_ENVIRON is set; --no-environ skips it', pdf)).toBe(true);
    expect(quoteFound(String.raw`unless R\_ENVIRON is set; \--no-environ skips it`, pdf)).toBe(true);
  });

  it('finds a name a PDF broke after an underscore, typed whole or as stored (trial 77: R\\_ / CHECK\\_ENVIRON)', () => {
    const page = 'also you can use the check and build environment files (as specified by the environment variables R\\_\nCHECK\\_ENVIRON and R\\_BUILD\\_ENVIRON; if unset, files are used)';
    expect(quoteFound('as specified by the environment variables R_CHECK_ENVIRON and R_BUILD_ENVIRON', page)).toBe(true);
    expect(quoteFound('the environment variables R_ CHECK_ENVIRON and', page)).toBe(true);
    // Only a break after an underscore: a different name is still not found.
    expect(quoteFound('the environment variables R_CHECK_ENVIRONS and', page)).toBe(false);
    expect(quoteFound('variables RCHECK ENVIRON', page)).toBe(false);
  });

  it('finds a quote that crosses a link and emphasis', () => {
    expect(quoteFound('As Smith et al. showed, output did not fall', md)).toBe(true);
  });

  it('matches straight against curly quotes and hyphens against dashes', () => {
    expect(quoteFound('a "genuine improvement".', md)).toBe(true);
    expect(quoteFound('did not fall - it rose by 5-8%', md)).toBe(true);
  });

  it('ignores case, line breaks and non-breaking spaces', () => {
    expect(quoteFound('OUTPUT DID NOT\u00a0FALL', md)).toBe(true);
    expect(quoteFound('did not fall —\n\n it rose', md)).toBe(true);
  });

  it('accepts a quote copied with its markdown', () => {
    expect(quoteFound('output did **not** fall', md)).toBe(true);
  });

  it('refuses an absent, altered or empty quote', () => {
    expect(quoteFound('output did fall', md)).toBe(false);
    expect(quoteFound('it rose by 9%', md)).toBe(false);
    expect(quoteFound('', md)).toBe(false);
    expect(quoteFound('  **  ', md)).toBe(false);
  });

  it('matches an escaped literal asterisk whether or not the quote escapes it', () => {
    const page = String.raw`significant at p < 0.05\* in both arms`;
    expect(quoteFound('p < 0.05* in both', page)).toBe(true);
    expect(quoteFound(String.raw`p < 0.05\* in both`, page)).toBe(true);
  });

  it('keeps text after a literal "<name …\\>" in prose (a real asyncio page lost 280 lines to it)', () => {
    // Shape of docs.python.org's asyncio-task page as turndown stores it: an escaped ">" closes the
    // would-be tag, and the next ">" is a blockquote marker far below.
    const page = [
      String.raw`>>> main()`,
      String.raw`<coroutine object main at 0x1053bb7c8\>`,
      '',
      'Save a reference to the result of this function. The event loop only keeps weak references to tasks.',
      '',
      '> New in version 3.11.',
    ].join('\n');
    expect(quoteFound('The event loop only keeps weak references to tasks.', page)).toBe(true);
    expect(quoteFound('<b>bold</b> stays a tag', '<b>bold</b> stays a tag')).toBe(true);
  });

  it('agrees with the precomputed form', () => {
    const projected = projectForMatching(md);
    expect(quoteFoundIn('smith et al. showed', projected)).toBe(true);
    expect(quoteFoundIn('jones showed', projected)).toBe(false);
  });
});
