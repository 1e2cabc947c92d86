// check_drift's version signal through a real MCP client (SPEC 11.1 drift, measured; issue 24 item 4):
// the question names Python 3.11, and the page stored is the 3.4 release notes.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type Harness } from '../helpers/mcp.js';
import { seedSource } from '../helpers/fixtures.js';

let h: Harness;
afterEach(async () => h?.close());

const page = (name: string) => fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'drift', `${name}.md`), 'utf8');
const split = (text: string) => {
  const [title = '', ...rest] = text.split('\n');
  return { title, markdown: rest.join('\n') };
};

describe('check_drift: another release', () => {
  it('flags the 3.4 release notes for a question on Python 3.11, and not a page of the 3.11 docs', async () => {
    h = await connect();
    const brief = {
      threads: [{ name: 'asyncio', sub_questions: [{ id: 'SQ-1', question: 'What changed in asyncio?' }], subjects: ['asyncio'] }],
      disambiguation: { include: ['Python 3.11'], exclude: [] },
    };
    const { run_id } = await h.ok('start_run', { question: 'What changed in asyncio in Python 3.11?', brief });
    await h.ok('start_thread', { run_id, thread: 'asyncio' });
    const old = split(page('py-whatsnew-3.4'));
    const now = split(page('py-asyncio-task'));
    await seedSource(h.root, run_id, 'https://docs.python.org/3/whatsnew/3.4.html', old.markdown, old.title);
    await seedSource(h.root, run_id, 'https://docs.python.org/3.11/library/asyncio-task.html', now.markdown, now.title);
    const flagged = await h.ok('check_drift', { run_id, thread: 'asyncio', source_id: 'S1' });
    expect(flagged).toMatchObject({ drift: true, signals: ['version'], action: 'skip' });
    // It says which release the page is about (page text, fenced) and which the run names, and what to do
    // when every reachable page is of another release (a real run skipped all of its docs without knowing why).
    expect(flagged.why).toMatch(/^the page is about release <untrusted>python 3\.4<\/untrusted>; the question or brief names python 3\.11\. If every reachable page is of another release/);
    const fine = await h.ok('check_drift', { run_id, thread: 'asyncio', source_id: 'S2' });
    expect(fine).toMatchObject({ drift: false, signals: [], action: 'extract' });
    expect(fine.why).toBeUndefined();
  });

  it("takes no release from the brief's known facts: a fact's history is not the run's scope (trial 19)", async () => {
    // Trial 19: the known fact "memory.limit() ... no longer supported from R 4.2.0" made every page of the
    // R 4.2.2 manuals a skip. Here a known fact dates a change to 3.4; the 3.11 docs are still in scope.
    h = await connect();
    const brief = {
      threads: [{ name: 'asyncio', sub_questions: [{ id: 'SQ-1', question: 'How do asyncio timeouts work?' }], subjects: ['asyncio'] }],
      known_facts: [{ fact: 'asyncio was added to the standard library in Python 3.4', confidence: 'HIGH' }],
    };
    const { run_id } = await h.ok('start_run', { question: 'How do timeouts work in asyncio?', brief });
    await h.ok('start_thread', { run_id, thread: 'asyncio' });
    const now = split(page('py-asyncio-task'));
    await seedSource(h.root, run_id, 'https://docs.python.org/3.11/library/asyncio-task.html', now.markdown, now.title);
    expect(await h.ok('check_drift', { run_id, thread: 'asyncio', source_id: 'S1' })).toMatchObject({ drift: false, action: 'extract' });
  });

  it('takes no release from a sub-question, nor a product from "releases 3.11-3.13" (trial 23)', async () => {
    // Trial 23: the assumptions said "current releases 3.11-3.13" and one sub-question asked how a function
    // changed in Python 3.12; check_drift then told the thread to skip the Python 3.11 docs, the only ones
    // reachable, which the other thread was reading.
    h = await connect();
    const brief = {
      assumptions: ["CPython's standard-library asyncio, current releases 3.11-3.13"],
      threads: [{ name: 'wait_for', sub_questions: [{ id: 'SQ-1', question: 'What happens to the task when wait_for times out, and how did it change in Python 3.12?' }], subjects: ['asyncio'] }],
    };
    const { run_id } = await h.ok('start_run', { question: 'How do timeouts work in asyncio?', brief });
    await h.ok('start_thread', { run_id, thread: 'wait_for' });
    const now = split(page('py-asyncio-task'));
    await seedSource(h.root, run_id, 'https://docs.python.org/3.11/library/asyncio-task.html', now.markdown, now.title);
    expect(await h.ok('check_drift', { run_id, thread: 'wait_for', source_id: 'S1' })).toMatchObject({ drift: false, signals: [], action: 'extract' });
  });
});
