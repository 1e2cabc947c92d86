// A page's title is shown beside its text but is not stored text: a passage quoted from it is refused with
// a reason that says so (trial 57's auditor was told only that the passage was not in the source).
import { expect, it } from 'vitest';
import { applyVerdicts, emptyAudit } from '../../src/engine/audit.js';
import { parseReport } from '../../src/engine/statements.js';

const BODY = 'The run-time shared library must be placed in a package whose name changes whenever the SONAME changes.';
const TITLE = '8. Shared libraries — Debian Policy Manual v4.6.2.0';

it('refuses a passage taken from the title, saying it is the title', () => {
  const { pairs } = parseReport('# T\n\nThe manual is version 4.6.2.0 [S1].\n');
  const id = pairs[0]!.pair_id;
  const r = applyVerdicts(emptyAudit(), [{ pair_id: id, verdict: 'SUPPORTED', passage: 'Debian Policy Manual v4.6.2.0' }], pairs, () => BODY, undefined, () => TITLE);
  expect(r.recorded).toEqual([]);
  expect(r.refused[0]?.why).toMatch(/^the passage is S1's title, which is not part of its stored text/);
  // Without the title, or for a passage in neither, the reason stays the general one.
  const other = applyVerdicts(emptyAudit(), [{ pair_id: id, verdict: 'SUPPORTED', passage: 'a sentence no page holds at all' }], pairs, () => BODY, undefined, () => TITLE);
  expect(other.refused[0]?.why).toMatch(/^the passage is not in the stored text of S1/);
  const untitled = applyVerdicts(emptyAudit(), [{ pair_id: id, verdict: 'SUPPORTED', passage: 'Debian Policy Manual v4.6.2.0' }], pairs, () => BODY);
  expect(untitled.refused[0]?.why).toMatch(/^the passage is not in the stored text of S1/);
});
