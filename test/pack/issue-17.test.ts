// The commands carry what issue 17 asks of the model: uncited sentences in the audit and Methods, when
// thread_status is not needed, that critic threads are outside the thread limit, and that a fact's quote
// holds every number the fact states.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './tool-names.js';

const read = (rel: string) => readFileSync(path.join(REPO, rel), 'utf8');

describe('commands follow issue 17', () => {
  const orchestrator = read('commands/deep-research.md');
  const investigator = read('commands/deep-research-investigate.md');

  it('the auditor judges uncited sentences with a source_id, the writer adds `cite`, and Methods counts them', () => {
    expect(orchestrator).toContain('`source_id: null`');
    expect(orchestrator).toMatch(/SUPPORTED only with the `source_id`/);
    expect(orchestrator).toMatch(/add each citation in `cite`/);
    expect(orchestrator).toMatch(/how many uncited sentences were found and how each was resolved/);
  });

  it('says when thread_status is not needed (item 6)', () => {
    expect(investigator).toMatch(/`complete_thread`[^\n]*Its reply is final: no `thread_status` after it/);
    expect(orchestrator).toMatch(/Skip `thread_status` for a thread whose investigator reported its completion report path/);
  });

  it('says critic threads do not count against the thread limit (item 7)', () => {
    expect(orchestrator).toMatch(/`critic_threads` come on top of the thread limit/);
    expect(orchestrator).toMatch(/they do not count against the thread limit/);
  });

  it('says, with an example, that the quote holds every number the fact states (item 8)', () => {
    expect(investigator).toMatch(/holding every number the fact states \("30 redirects since 2\.4" needs both numbers in the quote/);
  });
});
