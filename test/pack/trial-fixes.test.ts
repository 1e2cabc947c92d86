// What the real-model trials of the merged pack misread: a number stated only in a heading, what
// verify_report's basis counts, and what to do after one clean critique sign-off.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './tool-names.js';
import { verifyReport } from '../../src/tools/verify-report.js';

const read = (rel: string) => readFileSync(path.join(REPO, rel), 'utf8');

describe('pack wording the trials needed', () => {
  it('a number may come from a heading or a label line above the quote, or the page title', () => {
    expect(read('skills/deep-research-method/references/reading-sources.md')).toContain(
      "- A number in the fact must appear in the quote, a heading above it (a changelog's version, a PDF's numbered section), a short label line just above it (an option's name, an entry's date), the line ending in a colon that introduces its list, or the page title.",
    );
  });

  it('basis counts cited facts, not pairs, in the schema and in the command', () => {
    expect((verifyReport.config.outputSchema?.basis as { description?: string } | undefined)?.description).toBe('Cited facts (not pairs) by basis.');
    expect(read('commands/deep-research.md')).toContain("from the last `verify_report`'s `basis` how many cited facts (not pairs) rest on");
  });

  it('after a clean sign-off that did not end the loop, the critic looks again instead of resending', () => {
    expect(read('commands/deep-research.md')).toContain("If it is false without a `next_target`, critique afresh: re-read the completion reports and list the gaps you see now, not the last critique's.");
  });
});
