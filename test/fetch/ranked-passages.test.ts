// audit_report's passages (SPEC 4.1 claim audit): ranked for the statement, short, and verbatim enough that
// an auditor who copies one back as its verdict's passage is grounded by record_audit.
import { describe, expect, it } from 'vitest';
import { bestWindow, passageIndex, rankedPassages } from '../../src/fetch/passages.js';
import { quoteFound } from '../../src/engine/grounding.js';

const PAGE = [
  '# Report',
  '',
  'The city ran a trial. Nothing in this paragraph is about money at all, only about the weather in spring.',
  '',
  '## Costs',
  '',
  `- The [extra staff](https://example.org/staff "Staff") cost about **12 million kronor** over the two years. ${'A very long clause that goes on and on '.repeat(12)}end.`,
  '',
  '## Output',
  '',
  'Output per hour rose by 3% in the pilot group, according to the report.',
].join('\n');

describe('rankedPassages', () => {
  it('returns the best-matching passages first, links as text, each one found by the grounding rule', () => {
    const ps = rankedPassages(PAGE, 'the extra staff cost 12 million kronor', 2, 200);
    expect(ps[0]).toMatch(/^The extra staff cost about \*\*12 million kronor\*\* over the two years\./);
    for (const p of ps) {
      expect(p.length).toBeLessThanOrEqual(200);
      expect(p).not.toContain('https://');
      expect(quoteFound(p, PAGE), p).toBe(true);
    }
  });

  it('cuts an over-long sentence at a word without a marker, still verbatim', () => {
    const [p] = rankedPassages(PAGE, 'very long clause', 1, 120);
    expect(p!.length).toBeLessThanOrEqual(120);
    expect(p).not.toMatch(/…$/);
    expect(quoteFound(p!, PAGE)).toBe(true);
  });

  it('cuts a sentence longer than the budget to the stretch holding the statement, not to its head', () => {
    // A code block or a signature reads as one sentence; the words the claim rests on are near its end.
    const code = `\`\`\`\n[include] ${'path = foo.inc ; include by relative path '.repeat(8)}; relative paths are always relative to the including file and not affected by the condition\n\`\`\``;
    const page = `# Includes\n\n${code}\n`;
    const statement = 'a relative path is relative to the including file and not affected by the condition';
    const [now] = rankedPassages(page, statement, 1, 160);
    expect(now).toMatch(/relative to the including file and not affected by the condition/);
    expect(now!.length).toBeLessThanOrEqual(160);
    expect(quoteFound(now!, page)).toBe(true);
    const [head] = rankedPassages(page, statement, 1, 160, undefined, { longSentence: 'head' });
    expect(head).toMatch(/^\[include\] path = foo\.inc/);
    expect(head).not.toMatch(/affected by the condition/);
  });

  it('bestWindow: the earliest stretch of most statement words within the budget; the head when none matches', () => {
    const sentence = 'alpha beta gamma delta epsilon zeta eta theta iota kappa';
    const query = new Map([['eta', 1], ['theta', 1], ['alpha', 0.25]]);
    expect(bestWindow(sentence, query, 20)).toBe('zeta eta theta iota');
    expect(bestWindow(sentence, new Map([['omega', 1]]), 20)).toBe('alpha beta gamma');
    // Context words only break ties between stretches with as many statement words.
    expect(bestWindow('eta one two three four five alpha eta', new Map([['eta', 1], ['alpha', 0.25]]), 12)).toBe('alpha eta');
  });

  it('returns nothing when no word of the statement is on the page', () => {
    expect(rankedPassages(PAGE, 'zebra quantum', 2)).toEqual([]);
  });
});

describe('sentenceWeight', () => {
  const UNIT =
    '## postrm\n\n`postrm` remove `postrm` purge. The postrm script is called after the files are removed. Therefore, all postrm actions must only rely on essential packages. Other text follows here to fill the unit.';
  it('cuts the passage around the heaviest sentence, never one weighed out; a unit all weighed out gives nothing', () => {
    const plain = passageIndex([{ id: 'S1', markdown: UNIT }]).rank('postrm script called', 1, 70)[0]?.passage;
    expect(plain).toContain('is called after');
    const weighed = passageIndex([{ id: 'S1', markdown: UNIT }]).rank('postrm script called', 1, 70, undefined, {
      sentenceWeight: (s) => (s.includes('called after') ? 0 : s.includes('must') ? 2 : 1),
    })[0]?.passage;
    expect(weighed).toBe('Therefore, all postrm actions must only rely on essential packages.');
    expect(passageIndex([{ id: 'S1', markdown: UNIT }]).rank('postrm', 1, 70, undefined, { sentenceWeight: () => 0 })).toEqual([]);
  });
});

describe('a statement that quotes its source', () => {
  // Trial 7: "The R FAQ says of the same file: "This code is loaded in package base."" was shown FAQ 7.25,
  // which shares more of its words ("base package", "loaded"), and not the FAQ's sentence it quotes.
  const FAQ = [
    '## 7.25 Why did my .Rprofile stop working when I updated R?',
    '',
    'For functions that are not in the base package you need to specify the correct package namespace, since the code will be run before the packages are loaded. The file in the base package is loaded first.',
    '',
    '## 3.3 Startup',
    '',
    'R reads the site-wide profile first. This code is loaded in package base. The user profile comes next.',
  ].join('\n');

  it('ranks first the passage that holds the quotation, at the sentence that holds it', () => {
    const statement = 'The R FAQ says of the same file: "This code is loaded in package base."';
    const [best] = rankedPassages(FAQ, statement, 2, 200);
    expect(best).toContain('This code is loaded in package base.');
    // Without the quotation marks the words alone pick the other section: the quotation is what decides.
    expect(rankedPassages(FAQ, statement.replace(/"/g, ''), 1, 200)[0]).toContain('For functions that are not in the base package');
  });

  it('matches a quotation as grounding does (case, quote marks, markdown escapes)', () => {
    const md = 'Other text about packages loaded in base.\n\n## Site\n\nThe site file\\_name is read; “this code is loaded” in package base.';
    const [best] = rankedPassages(md, 'It says "the site file_name is read" first', 1, 200);
    expect(best).toContain('file\\_name is read');
  });
});

describe('passages over code blocks (trial 11)', () => {
  const DOC = [
    '## Timeouts',
    '',
    'By default _aiohttp_ uses a _total_ 300 seconds (5min) timeout. Thus the default timeout is:',
    '',
    '```python3',
    'aiohttp.ClientTimeout(total=5*60, connect=None,',
    '                      sock_connect=None, sock_read=None)',
    '```',
    '',
    '---',
    '',
    'Timeout could be overridden for a request like `ClientSession.get()`.',
  ].join('\n');

  it('leaves out fence delimiters, info strings and rules, so a passage copied back grounds', () => {
    const [p] = rankedPassages(DOC, 'the default timeout is ClientTimeout(total=5*60, sock_read=None)', 1, 400);
    expect(p).toContain('aiohttp.ClientTimeout(total=5*60, connect=None, sock_connect=None, sock_read=None)');
    expect(p).not.toMatch(/```|python3|---/);
    expect(quoteFound(p!, DOC), p).toBe(true);
  });
});

describe('passages over numbered steps with fenced calls (trial 24)', () => {
  // Debian Policy 6.8 as stored: a numbered step whose call is a fenced block opened on the marker's line.
  const DOC = [
    '## 6.8. Details of removal and/or configuration purging',
    '',
    '5. The `conffile`s and any backup files are removed.',
    '',
    '6. ```',
    '   postrm purge',
    '   ```',
    '',
    '   If this fails, the package remains in a “Config-Files” state.',
    '',
    '7. The package’s file list is removed.',
  ].join('\n');

  it('drops the fence opened on a step\'s line and keeps the step number, as grounding does, so the passage copied back grounds', () => {
    const [p] = rankedPassages(DOC, 'If postrm purge fails the package remains in the Config-Files state', 1, 400);
    expect(p).toContain('6. postrm purge If this fails, the package remains in a “Config-Files” state.');
    expect(p).not.toContain('```');
    expect(quoteFound(p!, DOC), p).toBe(true);
  });
});


describe("order: 'strength' (trial 59)", () => {
  // Python's logging reference, abridged: the logger paragraph repeats the statement's common words and wins
  // on BM25; the handler paragraph holds more of the statement's own words.
  const page = [
    '## Logger objects',
    '',
    'setLevel(level) Sets the threshold for this logger to level. Logging messages which are less severe than level will be ignored; logging messages which have severity level or higher will be emitted by whichever handler or handlers service this logger, unless a handler’s level has been set to a higher severity level than level. When a logger is created, the level is set to `NOTSET` (which causes all messages to be processed when the logger is the root logger, or delegation to the parent when the logger is a non-root logger). Note that the root logger is created with level `WARNING`. The term delegation to the parent means that if a logger has a level of NOTSET, its chain of ancestor loggers is traversed until either an ancestor with a level other than NOTSET is found, or the root is reached. If an ancestor is found with a level other than NOTSET, then that ancestor’s level is treated as the effective level of the logger where the ancestor search began, and is used to determine how a logging event is handled. If the root is reached, and it has a level of NOTSET, then all messages will be processed. Otherwise, the root’s level will be used as the effective level.',
    '',
    '## Handler objects',
    '',
    'setLevel(level) Sets the threshold for this handler to level. Logging messages which are less severe than level will be ignored. When a handler is created, the level is set to `NOTSET` (which causes all messages to be processed).',
    // As on the real page, handlers are named everywhere, so the word weighs little against NOTSET.
    ...['StreamHandler', 'FileHandler', 'NullHandler', 'WatchedFileHandler', 'RotatingFileHandler', 'SocketHandler', 'SysLogHandler', 'SMTPHandler', 'MemoryHandler', 'HTTPHandler', 'QueueHandler'].flatMap((h) => ['', `The ${h} class is a handler that sends logging output to its own kind of destination.`]),
  ].join('\n');
  const statement = 'A new handler has level `NOTSET`, which causes all messages to be processed';

  it('puts the passage holding more of the statement first, among the best few by BM25', () => {
    const [byStrength] = rankedPassages(page, statement, 2, 360, undefined, { widen: 'matching', order: 'strength' });
    expect(byStrength).toMatch(/When a handler is created/);
    // The order by score alone is what the option changes.
    const byScore = rankedPassages(page, statement, 2, 360, undefined, { widen: 'matching' });
    expect(byScore).toHaveLength(2);
    expect(byScore[0]).toMatch(/When a logger is created/);
    expect(new Set(rankedPassages(page, statement, 2, 360, undefined, { widen: 'matching', order: 'strength' }))).toEqual(new Set(byScore));
  });
});

describe('passages over a table (trial 63)', () => {
  // Python's logging reference: the level table, whose passage was refused when copied back on one line.
  const TABLE = [
    '## Logging Levels',
    '',
    'The numeric values of logging levels are given in the following table.',
    '',
    '| Level | Numeric value | What it means / When to use it |',
    '| --- | --- | --- |',
    '| `logging.NOTSET` | 0 | When set on a logger, indicates that ancestor loggers are to be consulted. |',
    '| `logging.CRITICAL` | 50 | A serious error, indicating that the program itself may be unable to continue running. |',
  ].join('\n');

  it('leaves the delimiter row out of the passage, and the passage is grounded as shown on one line', () => {
    const [p] = rankedPassages(TABLE, 'CRITICAL has the numeric value 50', 1, 420);
    expect(p).toContain('CRITICAL');
    expect(p).not.toMatch(/-{3}/);
    expect(p).not.toContain('\n');
    expect(quoteFound(p!, TABLE)).toBe(true);
  });

  it('grounds a table quoted back flattened with its delimiter row, as audit_report used to show it', () => {
    expect(quoteFound('| Level | Numeric value | What it means / When to use it | | --- | --- | --- | | `logging.NOTSET` | 0 |', TABLE)).toBe(true);
    expect(quoteFound('| Level | Numeric value | | :---: | ---: | | `logging.CRITICAL` | 50 |', TABLE)).toBe(false);
  });
});
