// Replies that carry each thing once (SPEC 11.1, reply economy; issue 23 item 2): a source's outline on a
// reader's first read only, as one fenced block, surviving a server restart; a re-read names its sections
// and leaves out passages the reader has; audit_report one passage per pair unless the first is weak.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type Harness } from '../helpers/mcp.js';
import { brief, QUESTION, seedSource } from '../helpers/fixtures.js';
import { expectWholeReply } from '../helpers/fenced.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const T = 'untrusted';
const URL_ = 'https://example.org/manual';
const section = (name: string, words: string) => `## ${name}\n\n${Array.from({ length: 12 }, (_, i) => `${words} sentence ${i} of the ${name.toLowerCase()} section.`).join(' ')}\n`;
const PAGE = ['# Manual', '', 'An opening paragraph about the manual.', '', section('Merging', 'Merging joins two histories'), section('Rebasing', 'Rebasing rewrites commits'), section('Cherry picking', 'Cherry picking copies one commit')].join('\n');

async function fetchAs(args: Record<string, unknown>) {
  const r = await h!.call('fetch_source', { url: URL_, ...args });
  expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
  expectWholeReply(r);
  return r.structuredContent as Record<string, any>;
}

describe('fetch_source outline', () => {
  it('comes on the first read only, as one fenced block with offsets; a re-read names its section instead', async () => {
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
    await seedSource(h.root, run_id, URL_, PAGE, 'Manual');
    const first = await fetchAs({ run_id, focus: 'merging histories', max_chars: 900 });
    expect(first.outline).toHaveLength(1);
    expect(first.outline[0]).toMatch(new RegExp(`^<${T}>Manual @0\\n  Merging @\\d+\\n  Rebasing @\\d+\\n  Cherry picking @\\d+</${T}>$`));
    const again = await fetchAs({ run_id, focus: 'rebasing rewrites commits', max_chars: 900 });
    expect(again.outline).toBeUndefined();
    expect(again.sections).toBe(`<${T}>Rebasing</${T}>`);
    expect(again.content).toContain('Rebasing rewrites commits');
  });

  it('is shown once to each thread, and once in the run to reads without a thread, across a server restart', async () => {
    h = await connect();
    const root = h.root;
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
    await seedSource(root, run_id, URL_, PAGE, 'Manual');
    // max_chars below the page's length: a reply holding the whole page has no outline to give.
    expect((await fetchAs({ run_id, thread: 'Trials and output', focus: 'merging', max_chars: 900 })).outline).toHaveLength(1);
    await h.close();
    // Each call may be a fresh server process (the trial bridge spawns one per call): the reads are in the run's state.
    h = await connect({ root });
    expect((await fetchAs({ run_id, thread: 'Trials and output', focus: 'rebasing' })).outline).toBeUndefined();
    expect((await fetchAs({ run_id, thread: 'Counter-evidence', focus: 'rebasing', max_chars: 900 })).outline).toHaveLength(1);
    // Without a thread: the first read in the run, which has happened.
    expect((await fetchAs({ run_id, focus: 'merging' })).outline).toBeUndefined();
    expect(await h.refused('fetch_source', { run_id, url: URL_, thread: 'No such thread' })).toMatch(/not a thread of this run/);
  });

  it('leaves out on a re-read the passages this reader was shown, and says how many', async () => {
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
    await seedSource(h.root, run_id, URL_, PAGE, 'Manual');
    const first = await fetchAs({ run_id, thread: 'Trials and output', focus: 'cherry picking copies one commit', max_chars: 900 });
    expect(first.content).toContain('Cherry picking copies one commit');
    const again = await fetchAs({ run_id, thread: 'Trials and output', focus: 'cherry picking copies one commit', max_chars: 900 });
    expect(again.already_shown).toBeGreaterThan(0);
    expect(again.content).not.toContain('Cherry picking copies one commit sentence 0');
    // Asked until nothing new matches: the reply says so and where to go, not an empty block (trial 22).
    let last = again;
    for (let i = 0; i < 12 && !(last.more ?? '').startsWith('Every passage'); i++) last = await fetchAs({ run_id, thread: 'Trials and output', focus: 'cherry picking copies one commit', max_chars: 900 });
    expect(last.more).toMatch(/^Every passage matching this focus was shown to this reader before \(already_shown\), so none is repeated: they start at @\d+/);
    expect(last.already_shown).toBeGreaterThan(0);
    // A page read in order in the same round leaves it out too (the next test shows it again after record_round).
    const at = PAGE.indexOf('## Cherry picking');
    const paged = await fetchAs({ run_id, thread: 'Trials and output', start_index: at, max_chars: 900 });
    expect(paged.content).toMatch(/\[… @\d+: \d+ characters shown to you earlier in this round …\]/);
    expect(paged.already_shown).toBeGreaterThan(0);
  });

  it('a read without a thread leaves nothing out: such reads come from several contexts (a fresh auditor among them)', async () => {
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
    await seedSource(h.root, run_id, URL_, PAGE, 'Manual');
    for (let i = 0; i < 2; i++) {
      const r = await fetchAs({ run_id, focus: 'cherry picking copies one commit', max_chars: 900 });
      expect(r.content).toContain('Cherry picking copies one commit sentence 0');
      expect(r.already_shown).toBeUndefined();
    }
    const at = PAGE.indexOf('## Cherry picking');
    expect((await fetchAs({ run_id, start_index: at, max_chars: 900 })).content).toContain('Cherry picking copies one commit sentence 0');
  });

  it('a page read in order leaves out what this thread was shown in its current round, and shows it whole after record_round', async () => {
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
    const thread = 'Trials and output';
    await h.ok('start_thread', { run_id, thread });
    await seedSource(h.root, run_id, URL_, PAGE, 'Manual');
    const focused = await fetchAs({ run_id, thread, focus: 'rebasing rewrites commits', max_chars: 900 });
    expect(focused.content).toContain('Rebasing rewrites commits sentence 0');
    const at = PAGE.indexOf('## Rebasing');
    const size = PAGE.indexOf('## Cherry picking') - at + 200;
    const inRound = await fetchAs({ run_id, thread, start_index: at, max_chars: size });
    expect(inRound.content).not.toContain('Rebasing rewrites commits sentence 0');
    expect(inRound.content).toMatch(/\[… @\d+: \d+ characters shown to you earlier in this round …\]/);
    expect(inRound.already_shown).toBeGreaterThan(0);
    // The section is still named, from the page itself.
    expect(inRound.sections).toContain('Rebasing');
    // The offsets are the stored text's: the next page goes on where this one ended.
    expect(inRound.next_start_index).toBeGreaterThan(at);
    // Another thread in the same run is shown all of it.
    expect((await fetchAs({ run_id, thread: 'Counter-evidence', start_index: at, max_chars: size })).content).toContain('Rebasing rewrites commits sentence 0');
    await h.ok('record_round', { run_id, thread, query: 'rebasing', search_results: [URL_], urls_visited: [URL_], facts: [], summary: 's' });
    const nextRound = await fetchAs({ run_id, thread, start_index: at, max_chars: size });
    expect(nextRound.content).toContain('Rebasing rewrites commits sentence 0');
    expect(nextRound.already_shown).toBeUndefined();
  });

  it('a focused read leaves out what this reader was shown by a page read in order; paging shows it again', async () => {
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
    await seedSource(h.root, run_id, URL_, PAGE, 'Manual');
    const thread = 'Trials and output';
    const at = PAGE.indexOf('## Rebasing');
    const paged = await fetchAs({ run_id, thread, start_index: at, max_chars: PAGE.indexOf('## Cherry picking') - at });
    expect(paged.content).toContain('Rebasing rewrites commits sentence 11');
    const focused = await fetchAs({ run_id, thread, focus: 'rebasing rewrites commits', max_chars: 900 });
    expect(focused.content).not.toContain('Rebasing rewrites commits sentence');
    expect(focused.already_shown).toBeGreaterThan(0);
    // Another thread was shown nothing of it.
    expect((await fetchAs({ run_id, thread: 'Counter-evidence', focus: 'rebasing rewrites commits', max_chars: 900 })).content).toContain('Rebasing rewrites commits sentence');
    // Paging again in the same round leaves it out too: this reader has it.
    expect((await fetchAs({ run_id, thread, start_index: at, max_chars: 900 })).content).not.toContain('Rebasing rewrites commits sentence 0');
  });

  it('a first read without focus shows the outline and the opening, and where to go on', async () => {
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
    const long = [PAGE, ...Array.from({ length: 12 }, (_, i) => section(`Part ${i}`, `Part ${i} explains more`))].join('\n');
    await seedSource(h.root, run_id, URL_, long, 'Manual');
    const first = await fetchAs({ run_id });
    expect(first.outline[0]).toContain('Part 11 @');
    expect(first.content.length).toBeLessThan(3_600);
    expect(first.next_start_index).toBeGreaterThan(2_000);
  });

  it('shows a long outline to the depth that fits, over the whole page; fewer levels beside a focus', async () => {
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
    // 8 chapters of 3 topics each: 1 + 8 + 24 headings.
    const chapters = Array.from({ length: 8 }, (_, c) => [`## Chapter ${c}\n\nChapter ${c} opens here.\n`, ...Array.from({ length: 3 }, (_, s) => `### Topic ${c}.${s}\n\nTopic ${c}.${s} is explained in this paragraph about merging.\n`)].join('\n'));
    await seedSource(h.root, run_id, URL_, ['# Manual', '', 'Opening.', '', ...chapters].join('\n'), 'Manual');
    const lines = (r: Record<string, any>) => (r.outline[0] as string).replace(`<${T}>`, '').replace(`</${T}>`, '').split('\n');
    const whole = lines(await fetchAs({ run_id, thread: 'Trials and output' }));
    expect(whole).toHaveLength(33);
    expect(whole).toContain('    Topic 7.2 @' + whole.at(-1)!.split('@')[1]);
    const focused = lines(await fetchAs({ run_id, thread: 'Counter-evidence', focus: 'topic merging' }));
    // Every chapter, the last one too, and no topic: a head cut would show chapters 0 to 4 in detail instead.
    expect(focused.filter((l) => /^ {2}Chapter \d+ @\d+$/.test(l))).toHaveLength(8);
    expect(focused.some((l) => l.includes('Topic'))).toBe(false);
    expect(focused.at(-1)).toBe('… 24 deeper entries not shown');
  });
});

describe('audit_report passages', () => {
  const setup = async (sentence: string) => {
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
    const md = '# Trial\n\n## Hours\n\nThe Iceland trial cut hours to 35 a week and kept output the same.\n\n## Output\n\nOther trials measured output weekly in many offices across the country.\n\n## Stress\n\nStaff in the Iceland offices reported less stress.\n';
    await seedSource(h.root, run_id, 'https://example.org/trial', md, 'Trial');
    const report = ['# Question', '', '## Findings', '', `${sentence} [S1]`, '', '## Sources', '', '- [S1] Trial — https://example.org/trial', ''].join('\n');
    fs.writeFileSync(path.join(h.root, run_id, 'report.md'), report);
    return run_id;
  };

  it('gives one passage when the first is strong, two when asked', async () => {
    const run_id = await setup('The Iceland trial cut hours to 35 a week and kept output the same.');
    const one = await h!.ok('audit_report', { run_id });
    expect(one.pairs[0].passages).toHaveLength(1);
    expect(one.pairs[0].passages[0]).toContain('cut hours to 35');
    // The first passage was shown by this pair already: it is pointed to, and the second is added.
    const two = await h!.ok('audit_report', { run_id, passages: 2 });
    expect(two.pairs[0].passages).toHaveLength(1);
    expect(two.pairs[0].shown_before).toBe(true);
    expect((await h!.ok('audit_report', { run_id, passages: 2, reshow: true })).pairs[0].passages).toHaveLength(2);
  });

  it("adds a second passage when the first is weak by the ranker's score", async () => {
    const run_id = await setup('Offices in Iceland measured stress, output and hours while weekly reports were collected by unions.');
    const r = await h!.ok('audit_report', { run_id });
    expect(r.pairs[0].passages).toHaveLength(2);
  });
});
