import { describe, expect, it } from 'vitest';
import { numbersOutsidePassage } from '../../src/engine/audit-numbers.js';

// Shaped as Debian Policy's upgrading checklist (trial 51): each version's entries under its heading.
const CHECKLIST = [
  '# Upgrading checklist',
  '',
  '## 10.17. Version 4.1.0',
  '',
  'Released August, 2017.',
  '',
  '4.9',
  '',
  'The Standards-Version field of a source package must be set.',
  '',
  '## 10.18. Version 4.0.1',
  '',
  'Released August, 2017.',
  '',
  '8.1.1',
  '',
  'Shared libraries must now invoke `ldconfig` by means of triggers, instead of maintscripts.',
  '',
].join('\n');
const PASSAGE = 'Shared libraries must now invoke `ldconfig` by means of triggers, instead of maintscripts.';

describe('numbersOutsidePassage', () => {
  it('names a number that neither the passage nor a heading above it holds (trial 51)', () => {
    expect(numbersOutsidePassage('Since Policy 4.1.0, ldconfig is invoked by means of triggers', PASSAGE, { markdown: CHECKLIST })).toEqual(['4.1.0']);
  });
  it('takes a number from the heading the passage stands under, the page title, or the passage', () => {
    expect(numbersOutsidePassage('Since Policy 4.0.1, ldconfig is invoked by means of triggers', PASSAGE, { markdown: CHECKLIST })).toEqual([]);
    expect(numbersOutsidePassage('Checklist 2.0 says shared libraries invoke ldconfig by triggers', PASSAGE, { markdown: CHECKLIST, title: 'Checklist 2.0' })).toEqual([]);
    expect(numbersOutsidePassage('Shared libraries invoke ldconfig by triggers', PASSAGE, { markdown: CHECKLIST })).toEqual([]);
  });
});
