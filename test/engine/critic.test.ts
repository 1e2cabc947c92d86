import { describe, expect, it } from 'vitest';
import { applyCritique, emptyCriticState, type CriticGap } from '../../src/engine/critic.js';

const gap = (over: Partial<CriticGap>): CriticGap => ({
  kind: 'modality',
  description: 'd',
  query: 'q',
  priority: 1,
  material: true,
  ...over,
});

describe('applyCritique', () => {
  it('counts clean sign-offs and stops at 2', () => {
    const first = applyCritique(emptyCriticState(), { gaps: [], signoff: true }, 5);
    expect(first).toMatchObject({ clean: true, stop: false, open_material_gaps: 0 });
    expect(first.state).toEqual({ rounds: 1, clean_signoffs: 1, open_questions: [] });
    const second = applyCritique(first.state, { gaps: [gap({ material: false })], signoff: true }, 5);
    expect(second).toMatchObject({ clean: true, stop: true });
    expect(second.state.clean_signoffs).toBe(2);
  });

  it('a sign-off that still lists material gaps is not clean and resets the count', () => {
    const r = applyCritique({ rounds: 1, clean_signoffs: 1, open_questions: [] }, { gaps: [gap({})], signoff: true }, 5);
    expect(r).toMatchObject({ clean: false, stop: false, open_material_gaps: 1, next_target: 'q' });
    expect(r.state.clean_signoffs).toBe(0);
  });

  it('no sign-off is not clean even without gaps', () => {
    const r = applyCritique({ rounds: 1, clean_signoffs: 1, open_questions: [] }, { gaps: [], signoff: false }, 5);
    expect(r.clean).toBe(false);
    expect(r.state.clean_signoffs).toBe(0);
    expect(r.next_target).toBeUndefined();
  });

  it('stops when the critic rounds are spent, and keeps counting past them', () => {
    const r = applyCritique({ rounds: 1, clean_signoffs: 0, open_questions: [] }, { gaps: [gap({})], signoff: false }, 2);
    expect(r).toMatchObject({ stop: true, open_material_gaps: 1 });
    expect(r.next_target).toBeUndefined();
    const again = applyCritique(r.state, { gaps: [gap({})], signoff: false }, 2);
    expect(again.state.rounds).toBe(3);
    expect(again.stop).toBe(true);
  });

  it('keeps the material gaps the critic rounds ran out on as open questions (a real run got open_questions: [] with 3 gaps open)', () => {
    const r = applyCritique(
      { rounds: 1, clean_signoffs: 0, open_questions: ['Long-run effects?'] },
      { gaps: [gap({ description: 'No benchmark of threads vs asyncio.' }), gap({ description: 'long-run effects', unanswerable: true }), gap({ description: 'Minor', material: false })], signoff: false },
      2,
    );
    expect(r.stop).toBe(true);
    expect(r.state.open_questions).toEqual(['Long-run effects?', 'No benchmark of threads vs asyncio.']);
    const going = applyCritique(emptyCriticState(), { gaps: [gap({ description: 'Still chasing.' })], signoff: false }, 3);
    expect(going.state.open_questions).toEqual([]);
  });

  it('targets the material gap with the largest priority, the first on ties', () => {
    const r = applyCritique(
      emptyCriticState(),
      {
        gaps: [
          gap({ query: 'low', priority: 1 }),
          gap({ query: 'immaterial', priority: 99, material: false }),
          gap({ query: 'top-a', priority: 5 }),
          gap({ query: 'top-b', priority: 5 }),
          gap({ query: 'unanswerable', priority: 100, unanswerable: true }),
        ],
        signoff: false,
      },
      3,
    );
    expect(r.next_target).toBe('top-a');
    expect(r.open_material_gaps).toBe(3);
  });

  it('sends unanswerable gaps to open questions, deduplicated, and leaves them out of the rest', () => {
    const state = { rounds: 0, clean_signoffs: 1, open_questions: ['Q old'] };
    const r = applyCritique(
      state,
      {
        gaps: [
          gap({ description: 'Q new', unanswerable: true }),
          gap({ description: 'Q old', unanswerable: true }),
          gap({ description: 'Q new', unanswerable: true }),
        ],
        signoff: true,
      },
      5,
    );
    expect(r.state.open_questions).toEqual(['Q old', 'Q new']);
    expect(r).toMatchObject({ clean: true, open_material_gaps: 0, stop: true });
    expect(state.open_questions).toEqual(['Q old']);
  });
});

describe('issue 17: next_definition names and open questions by meaning', () => {
  it('names the critic thread in a few words of the gap, deterministically, and asks a question', async () => {
    const { nextDefinition, shortName, asQuestion } = await import('../../src/engine/critic.js');
    const gap = {
      description: 'No source read says whether WAL checkpoints can starve when readers never stop.',
      query: 'sqlite "checkpoint starvation" WAL readers never release site:sqlite.org -forum OR wal2 documentation of checkpoint behaviour under constant read load',
    };
    const d = nextDefinition(gap, [], 1);
    expect(d.name).toBe('Critic 1: sqlite checkpoint starvation WAL');
    expect(d.name.length).toBeLessThanOrEqual(50);
    expect(nextDefinition(gap, [], 1)).toEqual(d);
    expect(nextDefinition(gap, [d.name], 1).name).toBe('Critic 1: sqlite checkpoint starvation WAL (2)');
    expect(d.sub_questions[0]?.question).toMatch(/\?/);
    expect(shortName({ description: 'Costs.', query: 'the of and' })).toBe('Costs');
    expect(asQuestion({ description: 'Which versions changed the default? Two pages disagree.', query: 'q' })).toBe('Which versions changed the default?');
    expect(asQuestion({ description: 'How the default changed in 3.12.', query: 'q' })).toBe('How the default changed in 3.12?');
    expect(asQuestion({ description: 'Whether the pilot firms kept the four-day week.', query: 'q' })).toBe('Is it true that the pilot firms kept the four-day week?');
    expect(asQuestion({ description: 'Extra staff cost unknown.', query: 'svartedalen nurses cost' })).toBe('What do the sources say about svartedalen nurses cost? (Extra staff cost unknown)');
  });

  it('names the thread with the whole of a short query, and asks one sentence of the description, not several', async () => {
    const { nextDefinition, asQuestion } = await import('../../src/engine/critic.js');
    const modes = { description: 'Which wal_checkpoint modes block readers.', query: 'SQLite wal_checkpoint modes PASSIVE FULL RESTART TRUNCATE blocking' };
    expect(nextDefinition(modes, [], 1).name).toBe('Critic 1: SQLite wal_checkpoint modes PASSIVE FULL RESTART TRUNCATE blocking');
    expect(nextDefinition({ description: 'd', query: 'four-day week extra staff cost' }, [], 2).name).toBe('Critic 2: four-day week extra staff cost');
    // A description written as lines, without full stops, is several sentences: the question is the first.
    expect(asQuestion({ description: 'How do PASSIVE and FULL checkpoints differ\nWhat blocks a RESTART\nNo page covers TRUNCATE', query: 'q' })).toBe(
      'How do PASSIVE and FULL checkpoints differ?',
    );
    // An abbreviation's full stop ends no sentence.
    expect(asQuestion({ description: 'Which modes, e.g. FULL vs. RESTART, wait for readers. Two pages disagree.', query: 'q' })).toBe(
      'Which modes, e.g. FULL vs. RESTART, wait for readers?',
    );
  });

  it('keeps one open question per gap across rounds when a later critic rewords it, and keeps different gaps apart', async () => {
    const { applyCritique, emptyCriticState, sameQuestion } = await import('../../src/engine/critic.js');
    const g = (description: string) => ({ kind: 'unread-source' as const, description, query: 'q', priority: 1, material: false, unanswerable: true });
    const r1 = applyCritique(emptyCriticState(), { gaps: [g('Is WAL checkpoint starvation documented for long-running readers?'), g('What does the UK pilot say about revenue after 2023?')], signoff: false }, 3);
    const r2 = applyCritique(r1.state, { gaps: [g('Whether checkpoint starvation under long-running readers in WAL mode is documented.'), g('What does the UK pilot say about staff turnover after 2023?')], signoff: false }, 3);
    expect(r2.state.open_questions).toEqual([
      'Is WAL checkpoint starvation documented for long-running readers?',
      'What does the UK pilot say about revenue after 2023?',
      'What does the UK pilot say about staff turnover after 2023?',
    ]);
    expect(sameQuestion('Does any source document how Git orders includeIf conditions?', 'No source documents the order in which Git evaluates includeIf conditions.')).toBe(true);
    expect(sameQuestion('Is WAL checkpoint starvation documented?', 'Does PostgreSQL document serializable anomalies?')).toBe(false);
    // A real run's second critique restated a gap with its search notes cut (both reached open_questions).
    const long = "Maximum nesting depth of include.path; searched in 'include and includeIf' rounds 2 and 5 (depth limit, config.c source) with nothing bearing on it; git-config(1) only says files may be included 'directly or indirectly'.";
    expect(sameQuestion(long, "Maximum nesting depth of include.path: searched in 'include and includeIf' rounds 2 and 5 with nothing bearing on it.")).toBe(true);
    expect(sameQuestion(long, 'Whether files included from global config count as protected configuration.')).toBe(false);
  });
});

describe('uncovered gaps (issue 24)', () => {
  it('are the writer\'s: they open no thread, keep no sign-off from being clean and do not count as open material gaps', () => {
    const uncovered = { kind: 'uncovered' as const, description: 'The report leaves out the 1000-page checkpoint threshold.', query: 'wal_autocheckpoint', priority: 9, material: true, source_id: 'S4' };
    const other = { kind: 'modality' as const, description: 'No benchmark data.', query: 'sqlite wal benchmark', priority: 1, material: true };
    const alone = applyCritique(emptyCriticState(), { gaps: [uncovered], signoff: true }, 3);
    expect(alone).toMatchObject({ clean: true, open_material_gaps: 0 });
    expect(alone.next_target).toBeUndefined();
    const both = applyCritique(emptyCriticState(), { gaps: [uncovered, other], signoff: false }, 3);
    expect(both).toMatchObject({ clean: false, open_material_gaps: 1, next_target: 'sqlite wal benchmark' });
  });
});
