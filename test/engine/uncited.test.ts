// SPEC 4.1 uncited statements: which body sentences need a citation, and the context a pair carries.
import { describe, expect, it } from 'vitest';
import { isCheckable, parseReport } from '../../src/engine/statements.js';

const doc = (...body: string[]) =>
  ['# Title', '', ...body, '', '## Methods', '', 'Two threads ran 5 rounds on SQLite.', '', '## Open Questions', '', '- Does SQLite 3.45 change this?', '- Whether WAL2 lands in 3.46 is not known.', '', '## Sources', '', '- [S1] A — https://a.example', ''].join('\n');
const uncited = (md: string) => parseReport(md).uncited.map((u) => [u.line, u.text]);

describe('checkable sentences', () => {
  it.each([
    // The examples: a code term, a named thing's behaviour, a count.
    'Whether that commit is durable depends on `PRAGMA synchronous`.',
    "SQLite's isolation rests on file locks.",
    'Three qualifications apply:',
    // A number, date or version.
    'Python 3.12 removed the distutils package.',
    'The pilot ran from June to December 2022.',
    'About 86% of workers gained the right.',
    // A quotation.
    'The manual calls it "the safest setting".',
    // A named thing, not at the sentence start.
    'Readers never block writers in PostgreSQL.',
    'The default changed when Git adopted it.',
    'WAL mode lets readers proceed during a write.',
    // From real-model trial reports, uncited there.
    '`GIT_CONFIG_SYSTEM` and `GIT_CONFIG_GLOBAL` make Git read the named files instead of the system-level and global-level files.',
    'The reference gives two defaults for how long a released connection stays reusable.',
    'To change the behaviour, a program overrides `redirect_request()`.',
    // A dotted name without backticks: a lower-case library has no capital to find it by (trial 74).
    'Of the three libraries, only aiohttp applies a time limit when the caller gives none; urllib.request and requests do not.',
    'In urllib.request, the timeout applies to each blocking socket operation, not to the whole request.',
  ])('needs a citation: %s', (s) => expect(isCheckable(s)).toBe(true));

  it.each([
    // The topic sentence, and connective prose a reader must not be forced to cite.
    'The checkpoints differ in what they do, who runs them and what holds them back.',
    'This matters most for write-heavy workloads.',
    'The answer depends on what the caller needs.',
    'Both approaches have costs, and the trade-off is the reader’s to make.',
    'In short, the choice comes down to durability against speed.',
    'The sections below compare the two.',
    'The table below lists the modes of SQLite.',
    'It’s a trade-off rather than a rule.',
    "It's a trade-off rather than a rule.",
    'Today’s guidance is more cautious.',
    // A question, and a fragment too short to state anything.
    'Which of them matters more in practice?',
    // Abbreviations with dots are no dotted names.
    'The answer depends on the workload, e.g. how often it writes, i.e. its write share.',
    'See above.',
    'In practice:',
    // From real-model trial reports: a topic sentence, what the evidence lacks, a supposition, confidence.
    'The three clients differ most in their defaults.',
    'None of the stored pages says where `-c` falls relative to the files.',
    'The documentation does not settle which applies to `TCPConnector`.',
    'The stored copy of git-config(1) lacks its FILES and SCOPES sections.',
    'Suppose `extensions.worktreeConfig` is disabled and the shared config file sets `core.bare`.',
    'Confidence is high for the include rules and for the three protected-only settings, which are quoted from the git-config(1) man page.',
  ])('needs none: %s', (s) => expect(isCheckable(s)).toBe(false));
});

describe('uncited statements in a report', () => {
  it('lists an uncited version-number sentence with its line, and not a topic sentence or a cited one', () => {
    const md = doc(
      'The checkpoints differ in what they do, who runs them and what holds them back. Python 3.12 removed distutils.',
      '',
      'A cited claim holds [S1]. A claim cited after its end. [S1]',
    );
    expect(uncited(md)).toEqual([[3, 'Python 3.12 removed distutils.']]);
  });

  it('skips headings, code blocks, Methods, Open Questions and Sources', () => {
    const md = doc('## SQLite 3.45 in 2024', '', '```', 'PRAGMA synchronous = FULL; -- version 3', '```');
    expect(uncited(md)).toEqual([]);
  });

  it('reports the line of the sentence, in list items and multi-line paragraphs', () => {
    const md = doc('- WAL mode is the default [S1].', '- The journal is kept in a', '  separate `-wal` file.', '', 'First line of prose', 'and Git reads it later.');
    expect(uncited(md)).toEqual([
      [4, 'The journal is kept in a separate `-wal` file.'],
      [7, 'First line of prose and Git reads it later.'],
    ]);
  });

  it('treats a table row as one unit: uncited when no cell cites and the row is checkable', () => {
    const md = doc('| Level | Default | Note |', '| --- | --- | --- |', '| Read Committed | yes [S1] | — |', '| Serializable | no | since 9.1 |', '| | | |');
    expect(uncited(md)).toEqual([[6, 'Serializable | no | since 9.1']]);
  });

  it('does not count a bold run-in label as a statement; a wholly bold paragraph still counts', () => {
    const md = doc(
      '**Modes and blocking in SQLite.** In WAL mode readers do not block the writer [S1].',
      '',
      '__Checkpoints.__ A checkpoint copies pages back into the database [S1].',
      '',
      '**SQLite 3.45 allows one writer at a time.**',
    );
    expect(uncited(md)).toEqual([[7, '**SQLite 3.45 allows one writer at a time.**']]);
  });

  it('ends no sentence at an ellipsis inside a code span', () => {
    const md = doc('PostgreSQL takes row locks with `SELECT ... FOR UPDATE` inside a transaction [S1].');
    const parsed = parseReport(md);
    expect(parsed.uncited).toEqual([]);
    expect(parsed.pairs.map((p) => p.statement)).toEqual(['PostgreSQL takes row locks with `SELECT ... FOR UPDATE` inside a transaction']);
  });

  it('derives an uncited pair id from the sentence, so citing it later makes a new pair', () => {
    const a = parseReport(doc('Python 3.12 removed distutils.')).uncited[0];
    const b = parseReport(doc('Intro.', '', 'Python 3.12 removed distutils.')).uncited[0];
    expect(a?.pair_id).toBe(b?.pair_id);
    expect(parseReport(doc('Python 3.12 removed distutils [S1].')).uncited).toEqual([]);
  });

  it('lists a checkable clause after a sentence\'s last citation, and not a bare or connective tail (trial 65)', () => {
    const md = doc(
      'The NAMESPACE file says what is exported [S1], while fields of the DESCRIPTION file say which packages are needed.',
      'The trials lasted 12 weeks [S1], and so on.',
      'Readers never block writers [S1], respectively.',
    );
    expect(uncited(md)).toEqual([[3, 'while fields of the DESCRIPTION file say which packages are needed.']]);
    // Cited at its end, the clause is a pair of its own and nothing is left uncited.
    const fixed = parseReport(doc('The NAMESPACE file says what is exported [S1], while fields of the DESCRIPTION file say which packages are needed [S1].'));
    expect(fixed.uncited).toEqual([]);
    expect(fixed.pairs.map((p) => p.statement)).toEqual(['The NAMESPACE file says what is exported', 'while fields of the DESCRIPTION file say which packages are needed']);
  });
});

describe('pair context', () => {
  it('carries the whole sentence and the previous one', () => {
    const md = doc('PostgreSQL offers four isolation levels. Serializable rules out all four anomalies [S1], and Read Committed is the default [S2].');
    const pairs = parseReport(md).pairs;
    expect(pairs.map((p) => [p.statement, p.context.sentence, p.context.previous])).toEqual([
      ['Serializable rules out all four anomalies', 'Serializable rules out all four anomalies, and Read Committed is the default.', 'PostgreSQL offers four isolation levels.'],
      ['and Read Committed is the default', 'Serializable rules out all four anomalies, and Read Committed is the default.', 'PostgreSQL offers four isolation levels.'],
    ]);
  });

  it('takes the previous sentence from the paragraph before, within the same section only', () => {
    const md = doc('SQLite has two journal modes.', '', 'WAL is one of them [S1].', '', '## Next', '', 'It is the default [S1].');
    expect(parseReport(md).pairs.map((p) => p.context.previous)).toEqual(['SQLite has two journal modes.', undefined]);
  });

  it("gives a table cell the table's header, its column and its row label", () => {
    const md = doc('| Level | Dirty read | Phantom |', '| --- | --- | --- |', '| Read Committed | not possible [S1] | possible [S1] |');
    const [a, b] = parseReport(md).pairs;
    expect(a?.context).toMatchObject({ header: ['Level', 'Dirty read', 'Phantom'], column: 'Dirty read', row: 'Read Committed' });
    expect(b?.context).toMatchObject({ column: 'Phantom', row: 'Read Committed' });
  });
});

describe('passages ranked with a pair context', () => {
  const PAGE = [
    '# Isolation levels',
    '',
    '## Sequences',
    '',
    'Sequence values are never rolled back, so gaps are possible and the default cache holds one value.',
    '',
    '## Read Committed',
    '',
    'Read Committed is the default isolation level in PostgreSQL. A query sees only data committed before it began.',
  ].join('\n');

  it('ranks a short fragment with its sentence, and a table cell with its column and row', async () => {
    const { rankedPassages } = await import('../../src/fetch/passages.js');
    const { rankingContext } = await import('../../src/engine/statements.js');
    const [pair] = parseReport(['# T', '', 'Several isolation levels exist, and PostgreSQL has Read Committed. It is the default [S1].', '', '## Methods', '', '## Sources', ''].join('\n')).pairs;
    expect(pair?.statement).toBe('It is the default');
    // Alone, "default" finds the sequence cache; with the sentence before it, the isolation level.
    expect(rankedPassages(PAGE, pair!.statement, 1, 360)[0]).toMatch(/^Sequence values/);
    expect(rankedPassages(PAGE, pair!.statement, 1, 360, rankingContext(pair!.context, pair!.statement))[0]).toMatch(/^Read Committed is the default/);
    const [cell] = parseReport(['# T', '', '| Level | Default |', '| --- | --- |', '| Read Committed | yes [S1] |', '', '## Methods', '', '## Sources', ''].join('\n')).pairs;
    expect(rankingContext(cell!.context, cell!.statement)).toBe('Default Read Committed');
    // A statement that names its subject ranks alone.
    expect(rankingContext({ sentence: 'x', previous: 'y' }, 'Sequence values are never rolled back')).toBeUndefined();
  });
});
