// record_audit says which SUPPORTED pairs state a number their passage and its headings do not hold
// (trial 51: a version moved from 4.0.1 to 4.1.0 passed the writer's own audit and verify_report).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { connect, type Harness } from '../helpers/mcp.js';
import { brief, QUESTION, seedSource } from '../helpers/fixtures.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const CHECKLIST = '# Upgrading checklist\n\n## 10.17. Version 4.1.0\n\nThe Standards-Version field of a source package must be set.\n\n## 10.18. Version 4.0.1\n\nShared libraries must now invoke `ldconfig` by means of triggers, instead of maintscripts.\n';
const PASSAGE = 'Shared libraries must now invoke `ldconfig` by means of triggers, instead of maintscripts.';

it('lists a SUPPORTED pair whose number is in neither its passage nor a heading above it, and records the verdict', async () => {
  h = await connect();
  const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
  await seedSource(h.root, run_id, 'https://example.org/checklist', CHECKLIST, 'Checklist');
  const body = 'Since Policy 4.1.0 shared libraries invoke ldconfig by means of triggers [S1]. Since Policy 4.0.1 they no longer call it from maintainer scripts [S1].';
  fs.writeFileSync(path.join(h.root, run_id, 'report.md'), ['# Question', '', '## Findings', '', body, '', '## Sources', '', '- [S1] Checklist — https://example.org/checklist', ''].join('\n'));
  const page = await h.ok('audit_report', { run_id });
  const [wrong, right] = page.pairs;
  const r = await h.ok('record_audit', {
    run_id,
    verdicts: [
      { pair_id: wrong.pair_id, verdict: 'SUPPORTED', passage: PASSAGE },
      { pair_id: right.pair_id, verdict: 'SUPPORTED', passage: PASSAGE },
    ],
  });
  expect(r.recorded).toBe(2);
  expect(r.refused).toEqual([]);
  expect(r.check).toEqual([{ pair_id: wrong.pair_id, numbers: ['4.1.0'] }]);
  // The text channel is the same JSON.
  const raw = await h.call('record_audit', { run_id, verdicts: [{ pair_id: right.pair_id, verdict: 'SUPPORTED', passage: PASSAGE }] });
  // Nothing to check is said as an empty list, not left out (trials 54, 57 and 59 could not tell the two apart).
  const text = JSON.parse((raw.content[0] as { text: string }).text);
  expect(text.check).toEqual([]);
  expect(text.cite).toEqual([]);
});
