// No reply hides data (SPEC 7, issue 19 item 1): a reply over the size one reply may carry is never cut in
// the middle; it ends with the untrusted block closed and says where it continues, and what follows is
// reachable from there, in the text and in structuredContent alike.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connect, type Harness } from '../helpers/mcp.js';
import { brief, QUESTION, seedSource, supportAll } from '../helpers/fixtures.js';
import { CLOSE, expectWholeReply } from '../helpers/fenced.js';

let h: Harness;
afterEach(async () => h?.close());

/** A page of 320 paragraphs, 38,499 characters with its final newline, as in the soak. */
function page(): string {
  const paras = Array.from({ length: 320 }, (_, i) => `Paragraph ${String(i).padStart(3, '0')} says what the trial measured in week ${i}, and how.`);
  let md = `# Long page\n\n${paras.join('\n\n')}\n`;
  const pad = 38_499 - md.length;
  expect(pad).toBeGreaterThan(0);
  md = md.replace('# Long page\n\n', `# Long page\n\n${'Intro words. '.repeat(Math.ceil(pad / 13)).slice(0, pad - 2)}\n\n`);
  expect(md.length).toBe(38_499);
  return md;
}

/** The page text inside a reply's content block. */
function inner(content: string): string {
  const lines = content.split('\n');
  expect(lines.at(-1)).toBe(CLOSE);
  return lines.slice(2, -1).join('\n');
}

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const r = await h.call(name, args);
  expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
  expectWholeReply(r);
  return r;
}

describe('fetch_source with max_chars 40000 on a 38,499-character page', () => {
  it.each([{}, { start_index: 0 }])('returns a part ending with the closing tag and a next_start_index from which the rest follows (%o)', async (extra) => {
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
    const md = page();
    await seedSource(h.root, run_id, 'https://example.org/long', md, 'Long page');
    let seen = '';
    let args: Record<string, unknown> = { run_id, url: 'https://example.org/long', max_chars: 40_000, ...extra };
    for (let i = 0; i < 10; i++) {
      const r = await call('fetch_source', args);
      const s = r.structuredContent as { content: string; next_start_index?: number; more?: string };
      seen += inner(s.content);
      if (s.next_start_index === undefined) break;
      expect(seen.length).toBe(s.next_start_index);
      // Cut below the 40000 asked for: the reply says so, and where to go on (trial 36 was not told).
      expect(s.more).toMatch(/^Cut to \d+ characters to fit one reply \(about 24000 at most, whatever max_chars asks\): go on from next_start_index\.$/);
      args = { run_id, url: 'https://example.org/long', max_chars: 40_000, start_index: s.next_start_index };
    }
    expect(seen).toBe(md);
  });
});

describe('fetch_source on a last page shorter than max_chars (issue 27, item 6)', () => {
  it('stays under the cap when the page is short of max_chars but its JSON is not', async () => {
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
    // Quotes and line breaks double in JSON: 22,000 characters of this page show as about 31,000.
    const line = (i: number) => `Row ${String(i).padStart(4, '0')} said "yes" and "no" and "maybe" to "it".`;
    const md = `# Quotes\n\n${Array.from({ length: 600 }, (_, i) => line(i)).join('\n')}\n`;
    await seedSource(h.root, run_id, 'https://example.org/quotes', md, 'Quotes');
    const start = md.length - 22_000;
    let seen = '';
    let args: Record<string, unknown> = { run_id, url: 'https://example.org/quotes', max_chars: 40_000, start_index: start };
    for (let i = 0; i < 10; i++) {
      const r = await call('fetch_source', args);
      const s = r.structuredContent as { content: string; next_start_index?: number };
      seen += inner(s.content);
      if (s.next_start_index === undefined) break;
      args = { ...args, start_index: s.next_start_index };
    }
    expect(seen).toBe(md.slice(start));
  });
});

describe('audit_report with a report sentence of 30,000 characters (issue 27, item 6)', () => {
  it('keeps the page under the cap', async () => {
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
    await seedSource(h.root, run_id, 'https://example.org/study', '# Study\n\nThe trial kept output steady while hours fell.\n', 'Study');
    const long = `The trial kept output steady ${'while hours fell across many teams and sites '.repeat(650)}[S1]`;
    const report = ['# Question', '', '## Findings', '', long, '', 'The trial kept output steady. [S1]', '', '## Sources', '', '- [S1] Study — https://example.org/study', ''].join('\n');
    fs.writeFileSync(path.join(h.root, run_id, 'report.md'), report);
    const r = await call('audit_report', { run_id });
    expect((r.structuredContent as { pairs: unknown[] }).pairs.length).toBeGreaterThan(0);
  });
});

describe('audit_report with limit 50', () => {
  it('shows every pair up to its next_offset, paging by size as well as count', async () => {
    h = await connect();
    const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
    // Enough pairs that pages are cut by size, not by count, now that a context made of the page's own
    // statements is left out.
    const sentences = Array.from({ length: 90 }, (_, i) => `Finding ${i} about the trial is that workplace ${i} kept its output steady while hours fell by a fifth in the study period and staff ${i} stayed.`);
    // Each paragraph's own words: a passage shown before is only pointed to, and would not fill a page.
    const para = (i: number) => `${sentences[i]} ${Array.from({ length: 5 }, (_, k) => `Output and hours were measured weekly across team ${i}-${k}. `).join('')}`;
    const md = `# Study\n\n${sentences.map((_, i) => para(i)).join('\n\n')}\n`;
    await seedSource(h.root, run_id, 'https://example.org/study', md, 'Study');
    const findings = sentences.map((s) => `${s} [S1]`);
    const report = ['# Question', '', '## Findings', '', ...findings.flatMap((f) => [f, '']), '## Sources', '', '- [S1] Study — https://example.org/study', ''].join('\n');
    fs.writeFileSync(path.join(h.root, run_id, 'report.md'), report);
    const ids: string[] = [];
    let offset: number | undefined = 0;
    let pages = 0;
    while (offset !== undefined) {
      const r = await call('audit_report', { run_id, offset, limit: 50 });
      const s = r.structuredContent as { total: number; pairs: { pair_id: string; passages: string[] }[]; next_offset?: number };
      expect(s.total).toBe(90);
      expect(s.pairs.length).toBeGreaterThan(0);
      ids.push(...s.pairs.map((p) => p.pair_id));
      if (s.next_offset !== undefined) expect(s.next_offset).toBe(offset + s.pairs.length);
      offset = s.next_offset;
      pages += 1;
    }
    expect(pages).toBeGreaterThan(2);
    expect(new Set(ids).size).toBe(90);
    // The passages as structuredContent shows them, fence and all, ground in record_audit.
    expect(await supportAll(h, run_id)).toBe(90);
  });
});
