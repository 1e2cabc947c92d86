// The commands carry what revision 2 asks a model to do with the new replies (SPEC 9); each check names
// the reply field or input the prose must mention, so a rewrite cannot drop one silently.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UNANSWERABLE } from '../../src/engine/critic.js';
import { REPO } from './tool-names.js';

const read = (rel: string) => readFileSync(path.join(REPO, rel), 'utf8');

describe('commands follow the revision-2 replies', () => {
  it('the orchestrator defines unanswerable exactly as the server does', () => {
    expect(read('commands/deep-research.md')).toContain(UNANSWERABLE);
  });

  it('the orchestrator acts on plan warnings, tiers, run_dir, source hints and next_definition, and has a path without subagents', () => {
    const text = read('commands/deep-research.md');
    for (const s of ['warning', '`tiers`', '`run_dir`', '`source_hints`', '`next_definition`', '`critic_threads_left`', 'Without a subagent tool, do this yourself']) {
      expect(text, s).toContain(s);
    }
  });

  it('the investigator sends search_results and queries and reads phase_reason and the sub-question echo', () => {
    const text = read('commands/deep-research-investigate.md');
    for (const s of ['`search_results`', '`queries`', '`phase_reason`', '`sub_questions`', 'ADVANCE_PHASE']) expect(text, s).toContain(s);
  });

  it('the status command shows each phase\'s allowance', () => {
    expect(read('commands/deep-research-status.md')).toMatch(/`phases`/);
  });
});
