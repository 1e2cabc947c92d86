// A thread and a round context over one stored page, for engine tests that call decideRound directly.
import type { RoundContext } from '../../src/engine/round.js';
import { newThreadState, type ThreadState } from '../../src/engine/thread-state.js';
import { InputError } from '../../src/errors.js';

export function oneThread(question = 'What does the page say?'): ThreadState {
  return newThreadState({
    definition: { name: 'T', sub_questions: [{ id: 'SQ-1', question }], subjects: [], primary_origins: ['x.org'] },
    slug: 't-000000',
    critic: false,
    roundBudget: 10,
    resultsPerRound: 5,
  });
}

export function pageContext(title: string, markdown: string): RoundContext {
  return {
    grounding: true,
    timestamp: '2026-01-01T00:00:00.000Z',
    canonicalKey: (u) => {
      if (!/^https?:\/\//.test(u)) throw new InputError('not an http(s) URL');
      return u.replace(/^https?:\/\//, '');
    },
    storedText: () => ({ source_id: 'S1', title, markdown }),
  };
}
