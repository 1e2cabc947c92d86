// The micro-report and the completion report, rendered from a hand-built state: what a reviewer checks
// from the file alone (quotes, linked source ids), and key findings that answer what they stand beside.
import { describe, expect, it } from 'vitest';
import { newThreadState, type RoundRecord, type StoredFact, type ThreadState } from '../../src/engine/thread-state.js';
import { renderMicroReport } from '../../src/reports/micro-report.js';
import { renderCompletionReport } from '../../src/reports/completion.js';
import { lintArtifact } from '../../src/reports/lint.js';

const fact = (o: Partial<StoredFact> & { fact: string }): StoredFact => ({
  round: 1,
  url: 'https://example.org/uk',
  canonical_key: 'example.org/uk',
  source_id: 'S5',
  source_title: 'UK pilot',
  quote: 'a quote',
  confidence: 'PLAUSIBLE',
  sub_questions: [],
  is_new: true,
  grounded: true,
  origins: ['example.org'],
  primary: false,
  ...o,
});

function state(): ThreadState {
  const s = newThreadState({
    definition: {
      name: 'Trials',
      sub_questions: [
        { id: 'SQ-1', question: 'How many companies took part?' },
        { id: 'SQ-2', question: 'What happened to company revenue?' },
      ],
      subjects: ['UK pilot', 'Gothenburg'],
    },
    slug: 'trials-abc123',
    critic: false,
    roundBudget: 5,
    resultsPerRound: 3,
  });
  const round: RoundRecord = {
    round: 1,
    timestamp: '2026-01-15T09:00:00.000Z',
    query: 'uk pilot revenue',
    phase: 'SURVEY',
    urls: ['https://example.org/uk', 'https://example.org/a(b)|c'],
    keys: ['example.org/uk', 'example.org/a(b)|c'],
    summary: 'One round.',
    new_facts: 3,
    confirming_facts: 0,
    saturation: 'MEDIUM',
    url_overlap: 0,
    plateau_level: 0,
    action: 'STOP',
    next_phase: 'SURVEY',
    phase_reason: 'criteria met',
    targeted_subjects: ['Gothenburg'],
    subject_changes: [],
    disambiguation_updates: [],
    contradiction_ids: [],
    next_focus: 'revenue after the pilot',
    warnings: [],
    converged: true,
    convergence_reason: 'CRITERIA_MET',
    remaining_gaps: [],
  };
  s.rounds = [round];
  s.facts = [
    fact({ fact: 'The UK pilot involved 61 companies.', quote: '61 companies took | part', sub_questions: ['SQ-1'] }),
    fact({ fact: 'Revenue stayed about the same, up 1.4%.', quote: 'rising by 1.4 percent', sub_questions: ['SQ-2'] }),
    fact({ fact: 'Odd page fact.', url: 'https://example.org/a(b)|c', canonical_key: 'example.org/a(b)|c', source_id: 'S2', source_title: 'A', quote: 'odd', origins: ['example.org', 'other.net'] }),
    fact({ fact: 'Revenue stayed about the same, up 1.4%', round: 2, is_new: false, quote: 'rising by 1.4 percent', sub_questions: ['SQ-2'] }),
    fact({ fact: 'Revenue fell in one firm.', confidence: 'UNVERIFIED', grounded: false, sub_questions: ['SQ-2'] }),
  ];
  s.subjects = s.subjects.map((x) => (x.name === 'Gothenburg' ? { ...x, rounds: 1, status: 'COVERED', evidence: '3 facts in round 1' } : x));
  return s;
}

const lookup = (key: string) => (key === 'example.org/uk' ? { id: 'S5', title: 'UK pilot' } : key.startsWith('example.org/a') ? { id: 'S2', title: 'A' } : undefined);

describe('micro-report', () => {
  it("shows each fact's quote and its source id linked to the URL, and lints clean", () => {
    const text = renderMicroReport(state(), 1);
    expect(text).toContain('| # | Fact | Quote | Source | Confidence | Origins | Notes |');
    expect(text).toContain('| 1 | The UK pilot involved 61 companies. | "61 companies took \\| part" | [S5](sources/S5.md) <https://example.org/uk> | PLAUSIBLE | 1: example.org |');
    // A parenthesis or a pipe in the address cannot end the link or the cell.
    expect(text).toContain('| [S2](sources/S2.md) <https://example.org/a%28b%29%7Cc> |');
    expect(lintArtifact('micro-report-trials-abc123-round-1.md', text)).toEqual([]);
  });

  it('gives no suggested focus when the round stops the thread', () => {
    const s = state();
    expect(renderMicroReport(s, 1)).not.toContain('Suggested focus');
    s.rounds[0] = { ...s.rounds[0]!, converged: false, action: 'CONTINUE' };
    expect(renderMicroReport(s, 1)).toContain('- Suggested focus: revenue after the pilot');
  });
});

describe('completion report', () => {
  const text = renderCompletionReport(state(), 'CRITERIA_MET', [], lookup);

  it('key findings answer their own sub-question, from grounded facts only', () => {
    expect(text).toContain('| SQ-1 | How many companies took part? | OPEN | — | The UK pilot involved 61 companies. [S5](sources/S5.md) |');
    expect(text).toContain('| SQ-2 | What happened to company revenue? | OPEN | — | Revenue stayed about the same, up 1.4% [S5](sources/S5.md) |');
  });

  it("credits a subject only with a fact that names it, never with the round's count", () => {
    expect(text).toContain('| Gothenburg | 1 | COVERED | — |');
    expect(text).toContain('| UK pilot | 0 | UNCOVERED | The UK pilot involved 61 companies. [S5](sources/S5.md) |');
    expect(text).not.toContain('facts in round');
  });

  it('lists every grounded fact under its sub-question with its source id and round, without the quote its micro-report shows, a restated one once', () => {
    const facts = text.slice(text.indexOf('## Facts\n'), text.indexOf('## All Sources Consulted'));
    expect(facts).toBe(
      [
        '## Facts',
        '',
        "Each fact's verbatim quote is in the micro-report of the round that found it, linked above.",
        '',
        '**SQ-1: How many companies took part?**',
        '',
        '- The UK pilot involved 61 companies. [S5](sources/S5.md) <https://example.org/uk> (PLAUSIBLE, origins 1: example.org, round 1)',
        '',
        '**SQ-2: What happened to company revenue?**',
        '',
        '- Revenue stayed about the same, up 1.4%. [S5](sources/S5.md) <https://example.org/uk> (PLAUSIBLE, origins 1: example.org, rounds 1, 2)',
        '',
        '**Not linked to a sub-question**',
        '',
        '- Odd page fact. [S2](sources/S2.md) <https://example.org/a%28b%29%7Cc> (PLAUSIBLE, origins 2: example.org, other.net, round 1)',
        '',
        '',
      ].join('\n'),
    );
  });

  it('counts grounded facts by basis and lists ANSWERED sub-questions without a VERIFIED fact', () => {
    expect(text).toContain('Facts by basis: 0 primary source, 1 two origins, 2 neither\n');
    expect(text).toContain('Unverified answers: none\n');
    const s = state();
    s.sub_questions[0] = { ...s.sub_questions[0]!, status: 'ANSWERED', confidence: 'PLAUSIBLE' };
    expect(renderCompletionReport(s, 'CRITERIA_MET', [], lookup)).toContain('Unverified answers: SQ-1 (rests on example.org)\n');
  });

  it('numbers the sources table by source id', () => {
    expect(text).toContain('| Source | URL | Source Title | Rounds Used In | Value |');
    const rows = text.split('\n').filter((l) => /^\| \[S\d+\]/.test(l));
    expect(rows.map((r) => r.split(' | ')[0])).toEqual(['| [S2](sources/S2.md)', '| [S5](sources/S5.md)']);
    expect(rows[1]).toBe('| [S5](sources/S5.md) | https://example.org/uk | UK pilot | 1, 2 | HIGH |');
    expect(lintArtifact('thread-completion-trials-abc123.md', text)).toEqual([]);
  });
});
