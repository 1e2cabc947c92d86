// The number-in-quote check sees what stands above a quote: a PDF's numbered section titles (plain lines
// in its stored text, no markdown headings) and the page's title naming the version it documents.
import { describe, expect, it } from 'vitest';
import { decideRound, type RoundInput } from '../../src/engine/round.js';
import { labelLinesAbove, numberedHeadingsAbove } from '../../src/engine/numbered-headings.js';
import { oneThread, pageContext } from '../helpers/round-context.js';

// As the PDF reader stores a manual: page markers, numbered titles as lines, paragraphs split by blank lines.
const MANUAL = [
  '<!-- page 41 -->',
  '5 Debugging compiled code',
  '',
  'Some text about debugging that spans a line or two of the page.',
  '',
  '5.5 Creating shared objects',
  '',
  'Shared objects for loading into R can be created using R CMD SHLIB. This accepts as arguments a list of files.',
  '',
  '5.6 Interfacing C++ code',
  '',
  'Suppose we have the following hypothetical C++ library.',
].join('\n');

const round = (facts: RoundInput['facts']): RoundInput => ({ query: `q ${Math.random()}`, urls_visited: ['https://x.org/r-exts.pdf'], facts, summary: 's' });
const numberWarnings = (title: string, markdown: string, fact: string, quote: string) =>
  decideRound(oneThread(), round([{ fact, url: 'https://x.org/r-exts.pdf', quote, confidence: 'PLAUSIBLE' }]), pageContext(title, markdown)).decision.warnings.filter((w) =>
    w.includes('not in its quote'),
  );

describe('numbered section titles above a quote', () => {
  it('finds the nearest title and the shallower ones above it, not the ones below', () => {
    expect(numberedHeadingsAbove('can be created using R CMD SHLIB', MANUAL)).toEqual(['5.5 Creating shared objects', '5 Debugging compiled code']);
    expect(numberedHeadingsAbove('the following hypothetical C++ library', MANUAL)).toEqual(['5.6 Interfacing C++ code', '5 Debugging compiled code']);
    expect(numberedHeadingsAbove('not on the page', MANUAL)).toEqual([]);
  });

  it('does not take a sentence that starts with a number for a title', () => {
    expect(numberedHeadingsAbove('the second', '3 of the 5 runs failed.\n\nThen the second one passed.')).toEqual([]);
  });

  it('record_round takes a section number from the PDF title above the quote, and still warns for one from elsewhere', () => {
    const quote = 'Shared objects for loading into R can be created using R CMD SHLIB.';
    expect(numberWarnings('R-exts.pdf', MANUAL, 'Section 5.5 of the manual says shared objects are built with R CMD SHLIB.', quote)).toEqual([]);
    expect(numberWarnings('R-exts.pdf', MANUAL, 'Section 5.6 of the manual says shared objects are built with R CMD SHLIB.', quote)).toEqual([
      expect.stringMatching(/^fact 1: 5\.6 is not in its quote, the headings above it or the page title/),
    ]);
  });

  it('record_round takes a version from the page title', () => {
    const page = 'Overview\n\nThe checkpoint runs in PASSIVE mode unless asked otherwise.';
    const fact = 'In SQLite 3.45 a checkpoint runs in PASSIVE mode by default.';
    expect(numberWarnings('Write-Ahead Logging — SQLite 3.45 documentation', page, fact, 'The checkpoint runs in PASSIVE mode unless asked otherwise.')).toEqual([]);
    expect(numberWarnings('Write-Ahead Logging', page, fact, 'The checkpoint runs in PASSIVE mode unless asked otherwise.')).toHaveLength(1);
  });
});

describe('label lines directly above a quote (trials 25, 27, 28)', () => {
  // Debian Policy's upgrading checklist and R-intro's option list, as stored.
  const CHECKLIST = ['## Version 4.6.2.0', '', 'Released December, 2022.', '', '6.5 & 6.6', '', 'Added the new version as an argument to several maintainer script actions.', '', '6.7', '', 'Something else changed here, in a longer paragraph that is no label at all.'].join('\n');
  const OPTIONS = ['--min-vsize=N', '--min-nsize=N', '', 'For expert use only: set the initial trigger sizes for garbage collection of vector heap and cons cells.', '', '--max-ppsize=N', '', 'Specify the maximum size of the pointer protection stack.'].join('\n');

  it('takes up to two one-line paragraphs directly above, nearest first, and stops at a longer one', () => {
    expect(labelLinesAbove('Added the new version as an argument', CHECKLIST)).toEqual(['6.5 & 6.6', 'Released December, 2022.']);
    expect(labelLinesAbove('Something else changed here', CHECKLIST)).toEqual(['6.7']);
    // Two lines in one paragraph are a list, not a label.
    expect(labelLinesAbove('For expert use only', OPTIONS)).toEqual([]);
    expect(labelLinesAbove('maximum size of the pointer protection stack', OPTIONS)).toEqual(['--max-ppsize=N']);
  });

  it('record_round takes a number or an option from the label above the quote, and still warns for one from elsewhere', () => {
    expect(numberWarnings('Upgrading checklist', CHECKLIST, 'Policy 6.5 and 6.6 add the new version as an argument (December 2022).', 'Added the new version as an argument to several maintainer script actions.')).toEqual([]);
    expect(numberWarnings('Upgrading checklist', CHECKLIST, 'Policy 6.9 adds the new version as an argument.', 'Added the new version as an argument to several maintainer script actions.')).toHaveLength(1);
    const code = (fact: string) =>
      decideRound(oneThread(), round([{ fact, url: 'https://x.org/r-exts.pdf', quote: 'Specify the maximum size of the pointer protection stack.', confidence: 'PLAUSIBLE' }]), pageContext('R-intro', OPTIONS)).decision.warnings.filter((w) => /not in (its|their) quotes?/.test(w));
    expect(code('`--max-ppsize` sets the maximum size of the pointer protection stack.')).toEqual([]);
    expect(code('`--min-vsize` sets the maximum size of the pointer protection stack.')).toHaveLength(1);
  });

  // R-intro.pdf's option list as the PDF reader stores it: a term's lines run into its description (trial 71).
  const PDF_OPTIONS = ['path.expand.', '', '\\--min-vsize=N', '\\--min-nsize=N', 'For expert use only: set the initial trigger sizes for garbage collection of vector', 'heap (in bytes) and cons cells (number) respectively.', '', '\\--max-ppsize=N', 'Specify the maximum size of the pointer protection stack as N locations.'].join('\n');

  it('takes the short lines above a quote inside its paragraph, where a PDF sets a definition list’s terms', () => {
    expect(labelLinesAbove('set the initial trigger sizes for garbage collection of vector heap', PDF_OPTIONS)).toEqual(['\\--min-nsize=N', '\\--min-vsize=N']);
    // A term applies to its own entry only.
    expect(labelLinesAbove('Specify the maximum size of the pointer protection stack', PDF_OPTIONS)).toEqual(['\\--max-ppsize=N']);
    const code = (fact: string) =>
      decideRound(oneThread(), round([{ fact, url: 'https://x.org/r-exts.pdf', quote: 'For expert use only: set the initial trigger sizes for garbage collection of vector heap (in bytes)', confidence: 'PLAUSIBLE' }]), pageContext('R-intro', PDF_OPTIONS)).decision.warnings.filter((w) => /not in (its|their) quotes?/.test(w));
    expect(code('`--min-vsize=N` and `--min-nsize=N` set the initial trigger sizes for garbage collection.')).toEqual([]);
    expect(code('`--max-ppsize=N` sets the initial trigger sizes for garbage collection.')).toHaveLength(1);
  });

  // From the Logging HOWTO of the Python 3.11 documentation (PSF licence), as the store keeps it.
  const HOWTO = [
    'The behaviour of the logging package in these circumstances is dependent on the Python version.',
    '',
    'For versions of Python prior to 3.2, the behaviour is as follows:',
    '',
    '- If _logging.raiseExceptions_ is `False` (production mode), the event is silently dropped.',
    '',
    '- If _logging.raiseExceptions_ is `True` (development mode), a message ‘No handlers could be found for logger X.Y.Z’ is printed once.',
    '',
    'In Python 3.2 and later, the behaviour is as follows:',
    '',
    'The event is output using a handler of last resort, stored in `logging.lastResort`.',
  ].join('\n');

  it('a quote in a list item counts the lead-in line of its list, over the items before it', () => {
    expect(labelLinesAbove('a message ‘No handlers could be found for logger X.Y.Z’ is printed once', HOWTO)).toEqual(['For versions of Python prior to 3.2, the behaviour is as follows:']);
    expect(labelLinesAbove('the event is silently dropped', HOWTO)).toEqual(['For versions of Python prior to 3.2, the behaviour is as follows:']);
    // Not a list item: only the short label directly above counts, not a lead-in further up.
    expect(labelLinesAbove('stored in `logging.lastResort`', HOWTO)).toEqual(['In Python 3.2 and later, the behaviour is as follows:']);
    // A line above a list that does not end in a colon introduces nothing.
    expect(labelLinesAbove('is printed once', HOWTO.replace('is as follows:', 'varies.'))).toEqual([]);
  });

  it('record_round takes a version from the lead-in of the quote\'s list, and still warns for another', () => {
    const quote = 'If _logging.raiseExceptions_ is `True` (development mode), a message ‘No handlers could be found for logger X.Y.Z’ is printed once.';
    const warned = (fact: string) => numberWarnings('Logging HOWTO', HOWTO, fact, quote);
    expect(warned('Before Python 3.2, with raiseExceptions true, a "No handlers could be found" message was printed once.')).toEqual([]);
    expect(warned('Before Python 3.3, with raiseExceptions true, a "No handlers could be found" message was printed once.')).toHaveLength(1);
  });
});
