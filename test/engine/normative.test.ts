// Hints for a thread that reads a specification, manual or standard, or a local folder (issue 25 trial:
// a policy-manual thread was told to look for "databases, registries and datasets").
import { describe, expect, it } from 'vitest';
import { localQuery, NORMATIVE_FETCH_PROMPTS, readsNormativeText } from '../../src/engine/normative.js';
import { nextDirectives } from '../../src/engine/directives.js';
import { newThreadState, type ThreadState } from '../../src/engine/thread-state.js';
import type { ThreadDefinition } from '../../src/engine/types.js';

const DEF: ThreadDefinition = {
  name: 'Maintainer scripts',
  sub_questions: [
    { id: 'SQ-1', question: 'What does the Debian Policy manual say the postrm script must rely on?' },
    { id: 'SQ-2', question: 'When is preinst called?' },
  ],
  subjects: ['postrm', 'preinst'],
};
const thread = (def: Partial<ThreadDefinition> = {}, runSourceHints?: ThreadState['run_source_hints']): ThreadState => {
  const s = newThreadState({ definition: { ...DEF, ...def }, slug: 'm', critic: false, roundBudget: 5, resultsPerRound: 5, ...(runSourceHints ? { runSourceHints } : {}) });
  return { ...s, phase: 'EXTRACT' };
};

describe('readsNormativeText', () => {
  it('holds for a local folder and for source hints that name a specification, manual or standard', () => {
    expect(readsNormativeText({ primaryOrigins: ['local:debian-policy'] })).toBe(true);
    expect(readsNormativeText({ hints: { VERIFY: ['the RFC text itself'] } })).toBe(true);
    expect(readsNormativeText({ runHints: { SURVEY: ['the reference manual'] } })).toBe(true);
    expect(readsNormativeText({ primaryOrigins: ['debian.org'], hints: { EXTRACT: ['labour statistics tables'] } })).toBe(false);
    expect(readsNormativeText({})).toBe(false);
  });
});

describe('localQuery', () => {
  it('joins the subject and the content words of the first open sub-question, without words that speak of sources', () => {
    const s = thread();
    expect(localQuery(s)).toBe('postrm debian policy script rely');
    expect(localQuery(s, 'preinst')).toBe('preinst debian policy postrm script rely');
    const answered = { ...s, sub_questions: s.sub_questions.map((q, i) => (i === 0 ? { ...q, status: 'ANSWERED' as const } : q)) };
    expect(localQuery(answered)).toBe('postrm preinst called');
  });
});

describe('nextDirectives on a thread reading normative text', () => {
  it('a local thread gets requirement hints, a query to try and the requirement fetch prompt', () => {
    const d = nextDirectives(thread({ primary_origins: ['local:debian-policy'] }));
    expect(d.query_hints[0]).toMatch(/^this thread's sources are local \(local:debian-policy\): search_sources first.*a query to try: "postrm debian policy script rely"$/);
    expect(d.query_hints.join(' ')).toContain('modal verb (must, should, may)');
    expect(d.query_hints.join(' ')).not.toMatch(/registr|dataset/);
    expect(d.fetch_prompt).toBe(NORMATIVE_FETCH_PROMPTS.EXTRACT);
  });

  it('a web thread whose hints name a standard keeps its own hints and gets the requirement fetch prompt', () => {
    const d = nextDirectives(thread({ source_hints: { EXTRACT: ['the W3C specification'] } }));
    expect(d.query_hints).toEqual(['the W3C specification']);
    expect(d.fetch_prompt).toBe(NORMATIVE_FETCH_PROMPTS.EXTRACT);
    // Hints given only for another phase, or run-wide, still say what the thread reads.
    expect(nextDirectives(thread({}, { SURVEY: ['ISO standards'] })).query_hints.join(' ')).toContain('modal verb');
  });

  it('any other thread keeps the generic hints and fetch prompt', () => {
    const d = nextDirectives(thread());
    expect(d.query_hints.join(' ')).toContain('registries and datasets');
    expect(d.fetch_prompt).toMatch(/^Extract figures with units/);
  });
});
