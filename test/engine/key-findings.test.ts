import { describe, expect, it } from 'vitest';
import { namesSubject, subjectKeyFinding, subQuestionKeyFinding, type FindingFact } from '../../src/engine/key-findings.js';

const f = (fact: string, o: Partial<FindingFact> = {}): FindingFact => ({ round: 1, fact, confidence: 'PLAUSIBLE', grounded: true, sub_questions: ['SQ-1'], ...o });

describe('sub-question key finding', () => {
  it('takes a grounded fact linked to the sub-question, never the first fact of the thread', () => {
    const facts = [f('61 companies took part.', { sub_questions: [] }), f('Revenue rose 1.4%.')];
    expect(subQuestionKeyFinding('SQ-1', facts)?.fact).toBe('Revenue rose 1.4%.');
  });
  it('prefers higher confidence, then the latest', () => {
    const facts = [f('a', { confidence: 'VERIFIED' }), f('b', { round: 2 }), f('c', { round: 3, confidence: 'VERIFIED' }), f('d', { round: 3 })];
    expect(subQuestionKeyFinding('SQ-1', facts)?.fact).toBe('c');
    expect(subQuestionKeyFinding('SQ-1', [f('a'), f('b', { round: 2 }), f('c', { round: 2 })])?.fact).toBe('c');
  });
  it("among facts of the top confidence, takes the one closest to the investigator's key_finding, never its words", () => {
    // Three real runs showed the latest linked fact, a side detail, where the investigator had named the finding.
    const facts = [
      f('A merge commit records both branch tips as its parents.', { confidence: 'VERIFIED' }),
      f('git pull defaults to --ff-only in some configurations.', { round: 2, confidence: 'VERIFIED' }),
      f('Merge commits can be hidden with --first-parent.', { round: 3 }),
    ];
    expect(subQuestionKeyFinding('SQ-1', facts, 'merge keeps history: a merge commit with both tips as parents')?.fact).toBe(facts[0]!.fact);
    expect(subQuestionKeyFinding('SQ-1', facts)?.fact).toBe(facts[1]!.fact);
    expect(subQuestionKeyFinding('SQ-1', facts, 'they can be hidden')?.fact).toBe(facts[1]!.fact);
  });
  it('ignores ungrounded facts, UNVERIFIED included, and gives nothing without a grounded link', () => {
    expect(subQuestionKeyFinding('SQ-1', [f('a', { grounded: false, confidence: 'VERIFIED' })])).toBeUndefined();
    expect(subQuestionKeyFinding('SQ-2', [f('a')])).toBeUndefined();
  });
});

describe('subject key finding', () => {
  it('matches every content word of the subject, plural or not', () => {
    expect(namesSubject('Iceland trials', 'Iceland ran two large shorter-week trials.')).toBe(true);
    expect(namesSubject('Iceland trials', 'Workers in the Iceland trial reported less stress.')).toBe(true);
    expect(namesSubject('UK pilot', 'The 2022 UK pilot involved 61 companies.')).toBe(true);
    expect(namesSubject('Gothenburg', "Utah's four-day week ended in 2011.")).toBe(false);
    expect(namesSubject('UK pilot', 'Ukraine piloted a scheme.')).toBe(false);
  });
  it('credits a subject only with a grounded fact about it', () => {
    const facts = [f("Utah's week ended in 2011."), f('Gothenburg kept the six-hour day.', { grounded: false })];
    expect(subjectKeyFinding('Gothenburg', facts)).toBeUndefined();
    expect(subjectKeyFinding('Utah', facts)?.fact).toBe("Utah's week ended in 2011.");
  });
});

describe('issue 17, item 4', () => {
  it('among facts that tie on confidence, the one closest to key_finding wins, not the longest or the latest', () => {
    const facts = [
      f('Revenue stayed the same.'),
      f('Staff stayed longer, revenue rose in some firms and hours fell in the same firms over the whole trial.', { round: 2 }),
    ];
    expect(subQuestionKeyFinding('SQ-1', facts, 'revenue stayed the same')?.fact).toBe('Revenue stayed the same.');
  });

  it('a subject whose facts name it in part shows the fact naming most of it, closest to its evidence among equals, never a fact about something else', () => {
    const facts = [
      f('A checkpoint cannot finish while a reader holds an old snapshot.', { round: 2 }),
      f('Checkpoints run automatically at 1000 pages.', { round: 2 }),
      f('The WAL file grows without bound while checkpoints are blocked.', { round: 2 }),
      f('Readers see a snapshot of the database.', { round: 2 }),
    ];
    expect(subjectKeyFinding('WAL checkpoint starvation', facts)?.fact).toBe(facts[2]!.fact);
    expect(subjectKeyFinding('WAL checkpoint starvation', [...facts, f('WAL checkpoints can stall behind a reader holding an old snapshot.', { round: 1 })], { targetedRounds: [2], evidence: 'WAL grows while checkpoints are blocked' })?.fact).toBe(facts[2]!.fact);
    expect(subjectKeyFinding('WAL checkpoint starvation', [...facts, f('WAL checkpoints can stall behind a reader holding an old snapshot.', { round: 1 })], { targetedRounds: [1], evidence: 'a reader holding an old snapshot' })?.fact).toMatch(/^WAL checkpoints can stall/);
    expect(subjectKeyFinding('Svartedalen', facts, { targetedRounds: [2] })).toBeUndefined();
    expect(subjectKeyFinding('Svartedalen', facts)).toBeUndefined();
  });
});

describe('a subject shows a fact about it, not one that mentions it (trial 43)', () => {
  // The facts of trial 43's first thread, in record order, all VERIFIED and from one round.
  const subjects = ['Depends', 'Imports', 'Suggests', 'LinkingTo'];
  const facts = [
    'Depends lists packages this package depends on; they are attached before the current package when library or require is called.',
    'Imports lists packages whose namespaces are imported from (as specified in NAMESPACE) but which need not be attached.',
    'Version requirements in Imports are checked when the namespace is loaded; packages in Depends should not also be in Imports.',
    'Suggests uses the same syntax as Depends and lists packages not necessarily needed, such as those used only in examples, tests or vignettes.',
    'Version requirements for Suggests can be given but should be checked by the code that uses the package.',
    'A package using header files from other packages to compile C/C++ code declares them in LinkingTo.',
    'LinkingTo applies only to installation; packages whose headers are needed to compile code in tests or vignettes must be in Suggests or perhaps Depends.',
    'Listing a package in LinkingTo suffices for header-only or statically linked code; such packages usually should not be listed in Depends or Imports.',
    'Depends should nowadays be used rarely, only for packages meant to be put on the search path for the end user.',
  ].map((t) => f(t, { confidence: 'VERIFIED' }));
  const finding = (s: string, others: readonly string[] = subjects) => subjectKeyFinding(s, facts, { targetedRounds: [1], others })?.fact;

  it('prefers the fact that opens with the subject, then one that names no other subject', () => {
    expect(finding('Imports')).toMatch(/^Imports lists packages/);
    expect(finding('Suggests')).toMatch(/^Suggests uses the same syntax/);
    expect(finding('LinkingTo')).toMatch(/^LinkingTo applies only/);
    // Two facts open with Depends and name no other subject: the later one, as among any equals.
    expect(finding('Depends')).toMatch(/^Depends should nowadays/);
  });

  it('without the other subjects, a fact that opens with the subject still wins over a later mention', () => {
    expect(finding('Imports', [])).toMatch(/^Imports lists packages/);
  });

  it('confidence still comes first', () => {
    const mixed = [f('Imports lists packages whose namespaces are imported.'), f('Packages in Depends should not also be in Imports.', { confidence: 'VERIFIED' })];
    expect(subjectKeyFinding('Imports', mixed, { others: subjects })?.fact).toMatch(/^Packages in Depends/);
  });
});
