// SPEC 4.1 statements and pairs, quotations.
import { describe, expect, it } from 'vitest';
import { pairId, parseReport } from '../../src/engine/statements.js';

const doc = (...body: string[]) => ['# Title', '', ...body, '', '## Methods', '', 'Two threads [S9].', '', '## Sources', '', '- [S1] A — https://a.example', ''].join('\n');
const stmts = (md: string) => parseReport(md).statements.map((s) => [s.text, s.ids.join(',')]);

describe('statements', () => {
  it('cuts a sentence with several groups at each group', () => {
    expect(stmts(doc('Output held in Iceland [S1], and revenue rose in the UK [S2, S3]. Costs rose [S4].'))).toEqual([
      ['Output held in Iceland', 'S1'],
      ['and revenue rose in the UK', 'S2,S3'],
      ['Costs rose', 'S4'],
    ]);
  });

  it('gives a group after a sentence end to the sentence before it', () => {
    expect(stmts(doc('First claim. Second claim holds. [S1, S2] Third [S3].'))).toEqual([
      ['Second claim holds.', 'S1,S2'],
      ['Third', 'S3'],
    ]);
  });

  it('does not end sentences at abbreviations, initials or decimal points', () => {
    expect(stmts(doc('Several U.S. states (e.g. Utah) cut hours, i.e. fewer days, per J. Smith et al. in Fig. 2 and No. 4, up 1.4 percent [S1].'))).toEqual([
      ['Several U.S. states (e.g. Utah) cut hours, i.e. fewer days, per J. Smith et al. in Fig. 2 and No. 4, up 1.4 percent', 'S1'],
    ]);
    expect(stmts(doc('Revenue rose 1.4 percent. Output held [S1].'))).toEqual([['Output held', 'S1']]);
  });

  it('treats list items, table cells and paragraphs as ends, and skips headings, code and Methods', () => {
    const md = doc(
      '- Iceland kept output',
      '  steady over four years [S1]',
      '- UK revenue rose [S2]',
      '',
      '| Trial | Finding |',
      '| --- | --- |',
      '| Iceland | output held [S1] |',
      '',
      '```',
      'code [S5].',
      '```',
      '',
      'A paragraph',
      'over two lines [S3].',
    );
    expect(stmts(md)).toEqual([
      ['Iceland kept output steady over four years', 'S1'],
      ['UK revenue rose', 'S2'],
      ['output held', 'S1'],
      ['A paragraph over two lines', 'S3'],
    ]);
    expect(parseReport(md).statements.map((s) => s.line)).toEqual([4, 5, 9, 16]);
  });

  it('gives a cell holding only citations (a "Source" column) what the rest of its row states (trial 68)', () => {
    const md = doc(
      '| Variable | Effect | Source |',
      '| --- | --- | --- |',
      '| `R_ENVIRON` | path of the site environment file [S2] | [S3] |',
      '| `R_PROFILE` | path of the site profile | [S3, S1] |',
    );
    expect(stmts(md)).toEqual([
      ['path of the site environment file', 'S2'],
      ['`R_ENVIRON` | path of the site environment file', 'S3'],
      ['`R_PROFILE` | path of the site profile', 'S3,S1'],
    ]);
    // Each is a pair to audit, on its row's line.
    expect(parseReport(md).pairs.filter((p) => p.source_id === 'S3').map((p) => p.line)).toEqual([5, 6]);
    expect(parseReport(md).uncited).toEqual([]);
  });

  it('reduces markdown links to their text and keeps quotations whole', () => {
    expect(stmts(doc('The [council report](https://a.example/x.html) says "output held. Staff were happier" [S1].'))).toEqual([
      ['The council report says "output held. Staff were happier"', 'S1'],
    ]);
  });
});

describe('pairs', () => {
  it('makes one pair per id of a group, with ids stable across edits elsewhere', () => {
    const a = parseReport(doc('Output held [S1, S2].', '', 'Costs rose [S3].'));
    expect(a.pairs.map((p) => p.source_id)).toEqual(['S1', 'S2', 'S3']);
    const b = parseReport(doc('Output held [S1, S2].', '', 'Costs rose sharply [S3].', '', 'New line [S4].'));
    expect(b.pairs.slice(0, 2).map((p) => p.pair_id)).toEqual(a.pairs.slice(0, 2).map((p) => p.pair_id));
    expect(b.pairs[2]!.pair_id).not.toBe(a.pairs[2]!.pair_id);
    // Formatting is not content: case, spacing, emphasis and the trailing period do not change the id.
    expect(pairId('Output  *held*.', 'S1')).toBe(pairId('output held', 'S1'));
    expect(pairId('output held', 'S1')).not.toBe(pairId('output held', 'S2'));
  });

  it('ignores Methods and everything from ## Sources down', () => {
    expect(parseReport(doc('Claim [S1].')).pairs.map((p) => p.source_id)).toEqual(['S1']);
  });
});

describe('quotations', () => {
  it('finds quotations of 3+ words with the group that follows them in their statement', () => {
    const q = parseReport(doc('It says “output held steady” [S1], and "revenue rose a bit" [S6, S14]. A "two words" term [S2]. "No citation here at all."')).quotations;
    expect(q.map((x) => [x.text, x.ids.join(',')])).toEqual([
      ['output held steady', 'S1'],
      ['revenue rose a bit', 'S6,S14'],
      ['No citation here at all.', ''],
    ]);
  });
});
