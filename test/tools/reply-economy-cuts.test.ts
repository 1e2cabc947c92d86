// Replies that carry each thing once, second pass (issue 23): a focused read shows its best passages and
// says how to get more; audit_report points to a passage
// it showed before instead of repeating it, and leaves out a context its pairs already show.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type Harness } from '../helpers/mcp.js';
import { brief, QUESTION, seedSource } from '../helpers/fixtures.js';
import { expectWholeReply, fencedAround } from '../helpers/fenced.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const URL_ = 'https://example.org/manual';
const section = (name: string, words: string) => `## ${name}\n\n${Array.from({ length: 12 }, (_, i) => `${words} sentence ${i} of the ${name.toLowerCase()} section.`).join(' ')}\n`;
// Every section matches the focus "commits": more of them than a focused read shows.
const LONG = ['# Manual', '', 'An opening paragraph.', '', ...Array.from({ length: 10 }, (_, i) => section(`Part ${i}`, `Part ${i} rewrites commits`))].join('\n');

async function call(name: string, args: Record<string, unknown>) {
  const r = await h!.call(name, args);
  expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
  expectWholeReply(r);
  return r.structuredContent as Record<string, any>;
}

describe('fetch_source focused read', () => {
  it('without max_chars shows the best passages only and says how to get more; with max_chars fills it', async () => {
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
    await seedSource(h.root, run_id, URL_, LONG, 'Manual');
    const capped = await call('fetch_source', { run_id, url: URL_, focus: 'rewrites commits' });
    const parts = (capped.content.match(/Part \d+ rewrites commits sentence 0/g) ?? []).length;
    expect(parts).toBeGreaterThan(0);
    expect(parts).toBeLessThanOrEqual(4);
    expect(capped.more).toMatch(/max_chars/);
    const asked = await call('fetch_source', { run_id, url: URL_, focus: 'rewrites commits', max_chars: 8000 });
    expect(asked.more).toBeUndefined();
    // The passages shown before are left out; the rest of the 8000 asked for is filled with the others.
    expect(asked.content.length).toBeGreaterThan(capped.content.length);
  });
});

describe('audit_report repeats', () => {
  const PASSAGE = 'The Iceland trial cut hours to 35 a week and kept output the same.';
  const setup = async (body: string) => {
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
    const md = `# Trial\n\n## Hours\n\n${PASSAGE}\n\n## Stress\n\nStaff in the offices reported less stress after the change.\n`;
    await seedSource(h.root, run_id, 'https://example.org/trial', md, 'Trial');
    const report = ['# Question', '', '## Findings', '', body, '', '## Sources', '', '- [S1] Trial — https://example.org/trial', ''].join('\n');
    fs.writeFileSync(path.join(h.root, run_id, 'report.md'), report);
    return run_id;
  };

  it('points to the pair that showed a passage, on the page and on a later page, and reshow repeats it', async () => {
    const run_id = await setup('The Iceland trial cut hours to 35 a week [S1], and it kept output the same [S1].');
    const page = await call('audit_report', { run_id });
    const [a, b] = page.pairs;
    expect(a.passages).toHaveLength(1);
    expect(fencedAround(a.passages[0], 'cut hours to 35')).toBe(true);
    expect(b.passages).toEqual([]);
    expect(b.same_passage_as).toEqual([a.pair_id]);
    expect(page.note).toMatch(/same_passage_as/);
    expect(page.note).not.toMatch(/no passages/);
    // Both statements make up the sentence: its context would only repeat them.
    expect(a.context).toBeUndefined();
    expect(b.context).toBeUndefined();
    // A re-page of the same pairs, in a fresh server process: pointers, from the run's state.
    await h!.close();
    h = await connect({ root: h!.root });
    const again = await call('audit_report', { run_id });
    expect(again.pairs[0].passages).toEqual([]);
    // The pair that showed it is told so, not pointed at itself (trial 13 read that as a loop).
    expect(again.pairs[0].same_passage_as).toBeUndefined();
    expect(again.pairs[0].shown_before).toBe(true);
    expect(again.note).toMatch(/shown_before: .*reshow: true/);
    expect(again.note).not.toMatch(/no passages/);
    expect(again.pairs[1].same_passage_as).toEqual([a.pair_id]);
    // The pairs cost less; a page's note is a fixed line, longer than this fixture's one short passage.
    expect(JSON.stringify(again.pairs).length).toBeLessThan(JSON.stringify(page.pairs).length);
    const shown = await call('audit_report', { run_id, reshow: true });
    expect(shown.pairs[0].passages).toEqual(a.passages);
    expect(shown.pairs[1].same_passage_as).toEqual([a.pair_id]);
  });

  it('lists the pointer before a weaker second passage when the best-ranked passage is one another pair showed (trial 50)', async () => {
    const run_id = await setup('The Iceland trial cut hours to 35 a week [S1]. Read precisely, offices in the Iceland trial cut hours to 35 under arrangements negotiated by unions and managers [S1].');
    const page = await call('audit_report', { run_id });
    const [a, b] = page.pairs;
    expect(fencedAround(a.passages[0], 'cut hours to 35')).toBe(true);
    expect(b.same_passage_as).toEqual([a.pair_id]);
    expect(b.passages).toHaveLength(1);
    expect(fencedAround(b.passages[0], 'reported less stress')).toBe(true);
    const keys = Object.keys(b);
    expect(keys.indexOf('same_passage_as')).toBeLessThan(keys.indexOf('passages'));
    expect(page.note).toMatch(/before passages when it ranks first/);
    // A pointer that ranks second keeps its place after the pair's own passage.
    expect(Object.keys(a).includes('same_passage_as')).toBe(false);
  });

  it('keeps a context that says more than the pairs on the page', async () => {
    const run_id = await setup('Staff reported less stress, by their own account in interviews after the change [S1].');
    const page = await call('audit_report', { run_id });
    // One pair, the whole sentence: the context is the sentence itself and is not repeated.
    expect(page.pairs[0].context).toBeUndefined();
    await h!.close();
    const run2 = await setup('Many people wondered about that. Staff reported less stress [S1].');
    const two = await call('audit_report', { run_id: run2 });
    // The sentence before is not a statement on the page: the context keeps it.
    expect(two.pairs).toHaveLength(1);
    expect(two.pairs[0].context).toContain('Many people wondered');
  });
});
