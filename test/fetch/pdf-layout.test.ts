// The pure half of PDF reading: positioned text items → markdown, without a PDF.
import { describe, expect, it } from 'vitest';
import { dropPageMarkers, escapeLine, joinLines, pdfToMarkdown, softHyphen } from '../../src/fetch/pdf/layout.js';
import type { PdfItem, PdfRaw } from '../../src/fetch/pdf/types.js';
import { quoteFound } from '../../src/engine/grounding.js';

/** One page: lines of [text] at 12 pt leading from y=700, plus any extra items. */
function page(lines: string[], o: { header?: string; footer?: string; top?: number } = {}): PdfItem[] {
  const items: PdfItem[] = [];
  if (o.header) items.push([o.header, 72, 750, 10, 200, true]);
  lines.forEach((l, i) => items.push([l, 72, (o.top ?? 700) - 12 * i, 10, l.length * 5, true]));
  if (o.footer) items.push([o.footer, 72, 40, 10, 100, true]);
  return items;
}
const raw = (pages: PdfItem[][], total = pages.length): PdfRaw => ({ total, pages, outline: [], title: '' });

describe('pdfToMarkdown', () => {
  it('puts a marker line before each page and joins words hyphenated at line and page ends', () => {
    const md = pdfToMarkdown(raw([page(['The trial ran for six months across compa-', 'nies of every size, and revenue held up-']), page(['ward of the baseline in most of them.'])])).markdown;
    expect(md).toBe('<!-- page 1 -->\n\nThe trial ran for six months across companies\nof every size, and revenue held upward\n\n<!-- page 2 -->\n\nof the baseline in most of them.\n');
    expect(quoteFound('across companies of every size, and revenue held upward of the baseline', md)).toBe(true);
  });

  it('keeps a hyphen when the next line does not continue the word', () => {
    expect(joinLines(['the so-called four-', 'Day week'])).toEqual(['the so-called four-', 'Day week']);
  });

  it('drops raised, smaller footnote marks but keeps numbers on the line', () => {
    const items: PdfItem[] = [
      ['Most licences require it, as most do.', 72, 700, 10, 180, false],
      ['5', 252, 704, 7, 4, false],
      [' Chapter 5 explains why.', 256, 700, 10, 120, true],
    ];
    const md = pdfToMarkdown(raw([items])).markdown;
    expect(md).toContain('as most do. Chapter 5 explains why.');
  });

  it('reads raised digits after a number as its exponent, and after a name as a footnote mark (trial 71)', () => {
    // refman.pdf's Memory-limits page: "2" then a raised "31", " − 1 ≈ 2 10", a raised "9".
    const items: PdfItem[] = [
      ['the number of bytes in a character string is limited to 2', 72, 700, 10, 260, false],
      ['31', 332, 704, 7, 8, false],
      [' − 1 ≈ 2 10', 340, 700, 10, 50, false],
      ['9', 390, 704, 7, 4, false],
      [', which is also the limit on each dimension of an array.', 394, 700, 10, 200, true],
      ['Your C compiler should be C99', 72, 688, 10, 150, false],
      ['3', 222, 692, 7, 4, false],
      [' compliant, as ISO/IEC 60559', 226, 688, 10, 140, false],
      ['1', 366, 692, 7, 4, false],
      [' says, from about 2 × 10−', 370, 688, 10, 120, false],
      ['308', 490, 692, 7, 12, false],
      [' upward.', 502, 688, 10, 40, true],
    ];
    const md = pdfToMarkdown(raw([items])).markdown;
    expect(md).toContain('limited to 2^31 − 1 ≈ 2 10^9, which is also the limit');
    expect(md).toContain('should be C99 compliant, as ISO/IEC 60559 says, from about 2 × 10^−308 upward.');
    expect(quoteFound('limited to 2^31 - 1', md)).toBe(true);
  });

  it('drops running headers and footers, including page numbers and changing chapter titles', () => {
    const body = (n: number) => [`Body text of page ${n} says something different each time, about item ${n}.`, `A second line ${n}.`];
    const pages = Array.from({ length: 6 }, (_, i) =>
      page(body(i + 1), { header: 'Debian Policy Manual, Release 4.6.2.0', footer: i % 2 ? `${i + 10} Chapter ${i}. Binary packages` : `${i}.1. Section ${i} ${i + 10}` }),
    );
    const md = pdfToMarkdown(raw(pages)).markdown;
    expect(md).not.toContain('Release 4.6.2.0');
    expect(md).not.toContain('Chapter');
    expect(md).not.toContain('Section');
    expect(md).toContain('Body text of page 6');
    expect(md).toContain('A second line 6.');
  });

  it('keeps body lines that only happen to sit at the edge of a page', () => {
    const pages = Array.from({ length: 4 }, (_, i) => page([`Distinct opening line number ${'abcd'[i]} of this page.`, 'next line']));
    const md = pdfToMarkdown(raw(pages)).markdown;
    for (const c of 'abcd') expect(md).toContain(`number ${c} of this page`);
  });

  it('keeps a footnote set at the foot of the text block, where full pages end their body too', () => {
    // Four full pages end their body at y=400; two end with a footnote there, apart from the body above it.
    const full = (n: number) => Array.from({ length: 26 }, (_, l) => `Body line ${'abcdefghijklmnopqrstuvwxyz'[l]} on page ${'abcdef'[n]} goes on about the data.`);
    const pages = [0, 1, 2, 3].map((n) => page(full(n)));
    for (const n of [4, 5]) {
      const p = page([...full(n).slice(0, 20), `Footnote ${n}: this is normally fast as the first entry rules out most options.`]);
      p[p.length - 1]![2] = 400;
      pages.push(p);
    }
    const md = pdfToMarkdown(raw(pages)).markdown;
    expect(md).toContain('Footnote 4: this is normally fast');
    expect(md).toContain('Footnote 5: this is normally fast');
    expect(md).toContain('Body line z on page d');
  });

  it('joins a word broken at a line or page end, but keeps the hyphen of a compound', () => {
    const vocab = new Set(['debian-specific', 'something']);
    expect(softHyphen('an incon-', 'venient', vocab)).toBe(true);
    expect(softHyphen('is Debian-', 'specific', vocab)).toBe(false);
    expect(softHyphen('the DBMS-', 'specific', vocab)).toBe(false);
    expect(softHyphen('a cut-and-', 'paste', vocab)).toBe(false);
    expect(softHyphen('some-', 'thing', vocab)).toBe(true);
    expect(softHyphen('some\u00ad', 'thing', new Set(['some-thing']))).toBe(true);
    const md = pdfToMarkdown(raw([page(['Rules that are Debian-specific apply.', 'These rules are Debian-', 'specific, and a cut-and-']), page(['paste of the DBMS-', 'specific types.'])])).markdown;
    expect(md).toContain('These rules are Debian-specific,\nand a cut-and-paste\n\n<!-- page 2 -->\n\nof the DBMS-specific\ntypes.');
  });

  it('caps the pages read and counts the rest', () => {
    const out = pdfToMarkdown(raw([page(['one']), page(['two']), page(['three'])], 10), 2);
    expect(out).toMatchObject({ pages: 2, notRead: 8 });
    expect(out.markdown).not.toContain('three');
  });

  it('uses the PDF outline with page numbers, else one line per page', () => {
    const withOutline: PdfRaw = { ...raw([page(['a'])]), outline: [{ title: 'Intro', depth: 0, page: 1 }, { title: 'Scope', depth: 1, page: 1 }] };
    expect(pdfToMarkdown(withOutline).outline).toEqual(['Intro (p. 1)', '  Scope (p. 1)']);
    expect(pdfToMarkdown(raw([page(['First words']), page([])])).outline).toEqual(['p. 1: First words', 'p. 2']);
  });

  it('folds ligatures by NFKC and escapes markdown so page text stays text', () => {
    const md = pdfToMarkdown(raw([page(['# not a heading', 'the ﬁrst <b>[x](y)</b> *star* <!-- page 7 -->'])])).markdown;
    expect(md).toContain('\\# not a heading\nthe first \\<b>\\[x\\](y)\\</b> \\*star\\* \\<!-- page 7 -->');
    expect(quoteFound('not a heading the first', md)).toBe(true);
    expect(quoteFound('*star*', md)).toBe(true);
    expect(escapeLine('- item')).toBe('\\- item');
  });

  it('leaves page markers out of passages', () => {
    expect(dropPageMarkers('<!-- page 1 -->\n\nText.\n\n<!-- page 2 -->\n\nMore.')).toBe('\nText.\n\nMore.');
  });
});

describe('a PDF without a title in its metadata', () => {
  it('takes its title from the first page’s heading: the largest text at the top, up to three lines', () => {
    const first: PdfItem[] = [
      ['Draft — not for circulation', 72, 760, 8, 120, true],
      ['Shorter Weeks', 72, 700, 24, 200, true],
      ['and Company Output', 72, 672, 24, 260, true],
      ['A. Author, 2024', 72, 640, 10, 80, true],
      ...page(['The trial ran for six months across companies of every size.', 'Revenue held up in most of them.'], { top: 600 }),
    ];
    expect(pdfToMarkdown(raw([first])).title).toBe('Shorter Weeks and Company Output');
  });

  it('takes the first line of words when no line stands out by size, and keeps a real metadata title', () => {
    const plain = page(['Notes on the pilot', 'The trial ran for six months across companies of every size.']);
    expect(pdfToMarkdown(raw([plain])).title).toBe('Notes on the pilot');
    expect(pdfToMarkdown({ ...raw([plain]), title: 'The Pilot Report' }).title).toBe('The Pilot Report');
    expect(pdfToMarkdown({ ...raw([plain]), title: 'report-final.pdf' }).title).toBe('Notes on the pilot');
    expect(pdfToMarkdown(raw([[]])).title).toBe('');
  });
});
