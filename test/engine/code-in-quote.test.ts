import { describe, expect, it } from 'vitest';
import { codeNotInQuote, codeTerms } from '../../src/engine/code-in-quote.js';
import { decideRound, type RoundInput } from '../../src/engine/round.js';
import { oneThread, pageContext } from '../helpers/round-context.js';

describe('codeTerms', () => {
  it('takes code spans, then long and short options and paths written outside them', () => {
    expect(codeTerms('Run `update-rc.d foo defaults` or `` a`b `` with --purge, -f and /etc/init.d/foo.')).toEqual([
      'update-rc.d foo defaults',
      'a`b',
      '--purge',
      '-f',
      '/etc/init.d/foo',
    ]);
  });
  it('leaves the full stop or colon that ends a sentence out of an option with a value', () => {
    // Trial 36, from Debian Policy's upgrading checklist (GPL-2+): the fact's sentence ended on the option.
    const fact = 'When stripping shared libraries, also pass --remove-section=.comment --remove-section=.note.';
    expect(codeTerms(fact)).toEqual(['--remove-section=.comment', '--remove-section=.note']);
    expect(codeNotInQuote(fact, 'When stripping shared libraries with _strip(1)_, you should additionally pass `--remove-section=.comment --remove-section=.note` (as dh\\_strip already does).')).toEqual([]);
    expect(codeTerms('Set --jobs=4: then build.')).toEqual(['--jobs=4']);
    expect(codeTerms('Pass --sort=.name.')).toEqual(['--sort=.name']);
  });
  it('leaves out one-character spans, lone slashes, dashes inside words and numbers', () => {
    expect(codeTerms('Use `$` and/or a well-known name; -1 is an error; x-y too.')).toEqual([]);
  });
});

describe('codeNotInQuote', () => {
  const quote = 'Therefore, all `postrm` actions must only rely on essential packages.';
  it('names a command the fact states and its quote does not hold', () => {
    expect(codeNotInQuote('The postrm must call `dpkg-maintscript-helper rm_conffile` and rely only on essential packages.', quote)).toEqual([
      'dpkg-maintscript-helper rm_conffile',
    ]);
    expect(codeNotInQuote('Run `deluser --system foo` in postrm; see /usr/share/doc.', quote)).toEqual(['deluser --system foo', '/usr/share/doc']);
  });
  it('accepts a term the quote holds, in any case, with or without backticks or markdown escapes', () => {
    expect(codeNotInQuote('`postrm` actions must rely only on essential packages.', quote)).toEqual([]);
    expect(codeNotInQuote('The `POSTRM` script relies on essential packages.', quote)).toEqual([]);
    expect(codeNotInQuote('Use `new_version` with --force-all.', 'call it with new\\_version and `--force-all`')).toEqual([]);
    // A placeholder in italics, as a manual marks it.
    expect(codeNotInQuote('It is called as `old-postrm upgrade new-version`.', '`old-postrm` upgrade _new-version_')).toEqual([]);
    expect(codeNotInQuote('Use `rm_conffile`.', 'the rm_conffile command')).toEqual([]);
    expect(codeNotInQuote('Use `rm_conffile`.', 'the mv_conffile command')).toEqual(['rm_conffile']);
  });
  it("reads a PDF's dashes and line-break hyphens as the option they set, but not for short options", () => {
    // R-intro.pdf as pdftotext gives it: an en dash for "--", and a hyphen lost at a line break.
    expect(codeNotInQuote('Rscript takes `--default-packages`.', 'Rscript –default-packages=list')).toEqual([]);
    expect(codeNotInQuote('R --no-restore does not restore the workspace.', 'using --norestore at start-up')).toEqual([]);
    expect(codeNotInQuote('R --no-restore does not restore the workspace.', 'using --no-save at start-up')).toEqual(['--no-restore']);
    // Five letters or fewer without hyphens still need their hyphens: `-d` is not found in "dd".
    expect(codeNotInQuote('Use `-d`.', 'pass dd to it')).toEqual(['-d']);
    expect(codeNotInQuote('Use `--all`.', 'all of them')).toEqual(['--all']);
  });
  it('counts the headings above the quote, and says nothing without a quote', () => {
    expect(codeNotInQuote('`postinst configure` is called after unpacking.', 'Called after the package is unpacked.', ['6.5. Summary', 'postinst configure'])).toEqual([]);
    expect(codeNotInQuote('`postinst configure` is called after unpacking.', undefined)).toEqual([]);
  });
});

describe('record_round', () => {
  // As the trial's manual page is stored: a section on postrm, its requirement sentence under it.
  const PAGE = [
    '# Package maintainer scripts',
    '',
    '## Summary of ways maintainer scripts are called',
    '',
    '### `postrm`',
    '',
    'The `postrm` script is called after the package’s files have been removed or replaced. Therefore, all `postrm` actions must only rely on essential packages.',
  ].join('\n');
  const codeWarnings = (fact: string, quote: string) =>
    decideRound(oneThread(), round([{ fact, url: 'https://x.org/policy.html', quote, confidence: 'VERIFIED' }]), pageContext('Package maintainer scripts', PAGE)).decision.warnings.filter((w) =>
      w.includes('not in its quote or the headings'),
    );
  const round = (facts: RoundInput['facts']): RoundInput => ({ query: `q ${Math.random()}`, urls_visited: ['https://x.org/policy.html'], facts, summary: 's' });

  it('warns when a fact names a command its quote does not hold, as the number check does', () => {
    const quote = 'Therefore, all `postrm` actions must only rely on essential packages.';
    expect(codeWarnings('postrm must run `deluser --system foo` only when essential packages suffice.', quote)).toEqual([
      'fact 1: `deluser --system foo` is not in its quote or the headings above it (recorded as given); from the next round, quote the words that name it, or leave it out of the fact',
    ]);
    expect(codeWarnings('All `postrm` actions must only rely on essential packages.', quote)).toEqual([]);
  });

  it('takes the command from the heading above the quote', () => {
    expect(codeWarnings('`postrm` is called after the files are removed.', 'is called after the package’s files have been removed or replaced.')).toEqual([]);
  });

  it('says the advice once for all facts whose quotes lack their terms, naming each fact and its terms', () => {
    const quote = 'Therefore, all `postrm` actions must only rely on essential packages.';
    const url = 'https://x.org/policy.html';
    const facts = [
      { fact: 'postrm must run `deluser --system foo`.', url, quote, confidence: 'VERIFIED' as const },
      { fact: 'All `postrm` actions must only rely on essential packages.', url, quote, confidence: 'VERIFIED' as const },
      { fact: 'postrm may call `update-rc.d foo remove` and --purge.', url, quote, confidence: 'VERIFIED' as const },
    ];
    const warnings = decideRound(oneThread(), round(facts), pageContext('Package maintainer scripts', PAGE)).decision.warnings.filter((w) => w.includes('not in their quotes'));
    expect(warnings).toEqual([
      'facts 1 (`deluser --system foo`), 3 (`update-rc.d foo remove`, `--purge`): not in their quotes or the headings above them (recorded as given); from the next round, quote the words that name them, or leave them out of the facts',
    ]);
  });
});
