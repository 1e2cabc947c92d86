// The coverage audit's selection (SPEC 11.1): which ranked passages the critic is shown.
import { describe, expect, it } from 'vitest';
import { COVERAGE_LIMITS, isStated, reportQuotes, takenPassages, reportStems, uncoveredPassages, type CoverageCandidate, isRequirement, coverageWeight, REQUIREMENT_WEIGHT } from '../../src/engine/coverage-audit.js';

// From SQLite's PRAGMA documentation (public domain).
const DELETE_MODE = 'The DELETE journaling mode is the normal behavior. In the DELETE mode, the rollback journal is deleted at the conclusion of each transaction.';

const cand = (o: Partial<CoverageCandidate> & { passage: string }): CoverageCandidate => ({ source_id: 'S1', score: 10, share: 1, unit: o.passage.slice(0, 20), ...o });

describe('isStated', () => {
  // From a real run: the report quoted the passage's first sentence word for word, and the passage window
  // also carried two sentences on platform availability, so by sentences it counted as one of three stated.
  const THREADING =
    'However, threading is still an appropriate model if you want to run multiple I/O-bound tasks simultaneously. Availability: not Emscripten, not WASI. This module does not work or is not available on WebAssembly platforms `wasm32-emscripten` and `wasm32-wasi`.';
  it('counts a passage the report quotes (six words or more) as stated, whatever else its window holds', () => {
    const report = 'For I/O-bound work, the docs say threading "is still an appropriate model if you want to run multiple I/O-bound tasks simultaneously" [S1].';
    expect(isStated(THREADING, reportStems([report]))).toBe(false);
    expect(isStated(THREADING, reportStems([report]), reportQuotes(report))).toBe(true);
    // A short quoted term is not a quotation of the passage.
    const term = 'The module is called "threading" and it is "still" there [S1].';
    expect(reportQuotes(term)).toEqual([]);
    expect(isStated(THREADING, reportStems([term]), reportQuotes(term))).toBe(false);
  });

  it('a sentence holding most of each passage sentence states it; a paraphrase summing both sentences counts', () => {
    expect(isStated(DELETE_MODE, reportStems(['In SQLite the default journal mode is DELETE, which deletes the rollback journal at the end of each transaction.']))).toBe(true);
  });
  it('a short generic sentence on the subject does not hide the passage', () => {
    expect(isStated(DELETE_MODE, reportStems(['SQLite keeps a journal in several modes.', 'WAL mode suits busy web apps.']))).toBe(false);
  });
  it('nothing is stated by an empty report', () => {
    expect(isStated(DELETE_MODE, [])).toBe(false);
  });
  it('a sentence inside a passage the audit took as support for a report statement is stated, however paraphrased', () => {
    // Trial 12: the report cited this sentence of Debian Policy in its own words; the auditor recorded it
    // as the support of a SUPPORTED pair; coverage_report still listed it as left out.
    const conflicts = 'When one binary package declares a conflict with another using a `Conflicts` field, `dpkg` will refuse to allow them to be unpacked on the system at the same time.';
    const report = reportStems(['Two packages that conflict cannot both be unpacked [S1].']);
    expect(isStated(conflicts, report)).toBe(false);
    const taken = takenPassages([
      { verdict: 'SUPPORTED', passage: `${conflicts} This is a strong restriction.` },
      { verdict: 'UNSUPPORTED', passage: DELETE_MODE },
    ]);
    expect(taken).toHaveLength(1);
    expect(isStated(conflicts, report, [], taken)).toBe(true);
    // An UNSUPPORTED verdict's passage took nothing up.
    expect(isStated(DELETE_MODE, [], [], taken)).toBe(false);
  });
});

describe('uncoveredPassages', () => {
  const q = (candidates: CoverageCandidate[], sub_question = 'SQ-1') => ({ thread: 'T', sub_question, candidates });

  it(`shows at most ${COVERAGE_LIMITS.perQuestion} a sub-question, and none below the share or the relative score`, () => {
    const out = uncoveredPassages(
      [q([cand({ passage: 'one alpha beta gamma.' }), cand({ passage: 'two alpha beta gamma.' }), cand({ passage: 'three alpha beta gamma.' })]),
       q([cand({ passage: 'weak share words.', share: COVERAGE_LIMITS.minShare - 0.01 }), cand({ passage: 'top words.', score: 10 })], 'SQ-2'),
       q([cand({ passage: 'best words.', score: 10 }), cand({ passage: 'far below words.', score: 10 * COVERAGE_LIMITS.minRelative - 0.1 })], 'SQ-3')],
      [],
    );
    expect(out.map((i) => `${i.sub_question} ${i.passage}`)).toEqual(['SQ-1 one alpha beta gamma.', 'SQ-1 two alpha beta gamma.', 'SQ-2 top words.', 'SQ-3 best words.']);
  });

  it('shows a unit, or the same text from a copy of the page, once; leaves out what the report states', () => {
    const shared = cand({ passage: 'Same passage here.', unit: 'S1@0' });
    const copy = cand({ passage: 'Same  passage here.', unit: 'S4@0', source_id: 'S4' });
    const stated = cand({ passage: DELETE_MODE, unit: 'S2@5', source_id: 'S2' });
    const out = uncoveredPassages([q([shared, stated]), q([copy, shared], 'SQ-2')], reportStems(['The default journal mode is DELETE: the rollback journal is deleted at the end of each transaction.']));
    expect(out).toEqual([{ thread: 'T', sub_question: 'SQ-1', source_id: 'S1', passage: 'Same passage here.' }]);
  });

  it('shows a passage once when another edition of the document (a Sphinx page and its .rst.txt) gives it with other markup', () => {
    // Debian Policy 8.1.1 (GPL-2+), as the HTML page and its reST source store it: trial 30 was listed both.
    const html = cand({ passage: 'Any package installing shared libraries in a directory that’s listed in /etc/ld.so.conf or in one of the default library directories of ld.so must use ldconfig triggers.', unit: 'S1@40', source_id: 'S1' });
    const rst = cand({ passage: 'Any package installing shared libraries in a directory that\'s listed in ``/etc/ld.so.conf`` or in one of the default library directories of ``ld.so`` must use ``ldconfig`` triggers.', unit: 'S7@12', source_id: 'S7' });
    const other = cand({ passage: 'The development package should contain a symlink for the associated shared library without a version number.', unit: 'S1@90', source_id: 'S1' });
    const out = uncoveredPassages([q([html, other]), q([rst], 'SQ-2')], []);
    expect(out.map((i) => `${i.sub_question} ${i.source_id}@${i.passage.slice(0, 20)}`)).toEqual(['SQ-1 S1@Any package installi', 'SQ-1 S1@The development pack']);
  });
});

describe('requirements in the coverage audit (issue 25 trial: a policy manual)', () => {
  const report = reportStems(['The postrm script is called after the package files have been removed or replaced.']);
  const CALLED = 'The postrm script is called after the package files have been removed or replaced.';
  const MUST = 'Therefore, all postrm actions must only rely on essential packages.';

  it('tells a requirement from other sentences; "may" alone is not one', () => {
    expect(isRequirement(MUST)).toBe(true);
    expect(isRequirement('Packages shall not ship a /usr/local directory.')).toBe(true);
    expect(isRequirement(CALLED)).toBe(false);
    expect(isRequirement('The postrm script may be called in the following ways.')).toBe(false);
  });

  it('a passage holding an unstated requirement is not stated, though half of its sentences are', () => {
    expect(isStated(`${CALLED} ${MUST}`, report)).toBe(false);
    expect(isStated(`${CALLED} It is run by dpkg at the end of removal.`, report)).toBe(true);
    expect(isStated(`${CALLED} ${MUST}`, [...report, ...reportStems(['All postrm actions must only rely on essential packages.'])])).toBe(true);
  });

  it('weighs out a sentence the report states or quotes, and weighs up a requirement', () => {
    const weigh = coverageWeight(report, reportQuotes('As the manual puts it, "the package whose postrm is being called may have been deconfigured".'));
    expect(weigh(CALLED)).toBe(0);
    expect(weigh('The package whose postrm is being called may have been deconfigured.')).toBe(0);
    expect(weigh(MUST)).toBe(REQUIREMENT_WEIGHT);
    expect(weigh('Pre-dependencies will have been configured at least once.')).toBe(1);
  });
});
