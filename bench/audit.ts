// What the claim audit costs the agent's context (issue 11, item 8): the tool output of a whole audit of a
// report of 60–70 claim–source pairs over real pages, against the reference of reading each pair's source
// page through fetch_source with a focus, which is what an auditor without audit_report would do.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import TurndownService from 'turndown';
import { RunStore } from '../src/store/run-store.js';
import { canonicalKey } from '../src/engine/canonical-url.js';
import { inProcess } from './in-process.js';
import type { Section } from './report.js';
import { CORPUS, corpusLabel } from './corpus.js';

const FIXTURES = path.join(CORPUS, 'readability');
const SOURCES = 20;
const PER_SOURCE = 3;
/** Every DOUBLE-th statement cites two sources, as synthesis often does. */
const DOUBLE = 12;
const PAGE_GOAL_TOKENS = 6000;

type Json = Record<string, unknown>;
const tok = (chars: number) => Math.round(chars / 4);
const int = (n: number) => Math.round(n).toLocaleString('en-US');

function replyText(r: Json): string {
  return ((r.content as { text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('');
}

/** Real pages: the readability fixtures' expected articles, as markdown, the longest prose first. */
function pages(): { url: string; title: string; markdown: string; sentences: string[] }[] {
  const td = new TurndownService({ headingStyle: 'atx' });
  const out: { url: string; title: string; markdown: string; sentences: string[] }[] = [];
  for (const dir of fs.readdirSync(FIXTURES).sort()) {
    const file = path.join(FIXTURES, dir, 'expected.html');
    if (!fs.existsSync(file)) continue;
    const markdown = td.turndown(fs.readFileSync(file, 'utf8'));
    const sentences = markdown
      .split(/\n\s*\n/)
      .filter((p) => !/^\s*(#|[-*+]\s|\||>|!\[|\d+\.)/.test(p))
      .flatMap((p) => p.replace(/\s+/g, ' ').split(/(?<=[.!?])\s+(?=[A-Z])/))
      .map((s) => s.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/["\[\]*_`\\]/g, '').trim())
      .filter((s) => s.length >= 60 && s.length <= 260 && /^[A-Z]/.test(s) && /[.!?]$/.test(s));
    if (sentences.length < PER_SOURCE || !/[a-z]{4} [a-z]{4}/.test(markdown)) continue;
    out.push({ url: `https://fixtures.example/${dir}`, title: dir, markdown, sentences });
    if (out.length === SOURCES) break;
  }
  return out;
}

export async function audit(): Promise<Section> {
  const section: Section = { name: 'audit', title: 'Claim audit cost', rows: [], notes: [] };
  if (!fs.existsSync(FIXTURES)) {
    section.rows.push({ figure: 'claim audit', ours: 'not measured', met: null, because: `no readability corpus at ${corpusLabel('readability')}` });
    return section;
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dr-bench-audit-'));
  const server = await inProcess({ root });
  try {
    const started = await server.callTool('start_run', {
      question: 'What do these pages say?',
      depth: 'quick',
      brief: { threads: [{ name: 'Pages', sub_questions: [{ id: 'SQ-1', question: 'What do the pages say?' }], subjects: [] }] },
    });
    const runId = String((started.structuredContent as Json).run_id);
    const store = new RunStore(root);
    const ps = pages();
    if (ps.length < SOURCES) throw new Error(`only ${ps.length} usable fixture pages in ${FIXTURES}`);
    for (const p of ps) await store.addSource(runId, { url: p.url, canonical_key: canonicalKey(p.url), title: p.title, markdown: p.markdown, fetched_at: '2026-01-01T00:00:00.000Z' });

    // The report: three claims per page, each a sentence of the page cut to its first 18 words.
    const lines: string[] = ['# What the pages say', '', '## Findings', ''];
    let n = 0;
    ps.forEach((p, i) => {
      for (const s of p.sentences.slice(0, PER_SOURCE)) {
        n += 1;
        const claim = s.split(/\s+/).slice(0, 18).join(' ').replace(/[.!?,;:]+$/, '');
        const ids = n % DOUBLE === 0 ? [`S${i + 1}`, `S${((i + 1) % ps.length) + 1}`] : [`S${i + 1}`];
        lines.push(`- ${claim} [${ids.join(', ')}].`);
      }
    });
    lines.push('', '## Methods', '', 'A benchmark report.', '', '## Sources', '', ...ps.map((p, i) => `- [S${i + 1}] ${p.title} — ${p.url}`), '');
    fs.writeFileSync(path.join(root, runId, 'report.md'), lines.join('\n'));

    // The audit's first pass, as the command has the auditor run it: every page, then record_audit.
    let auditChars = 0;
    let auditJson = 0;
    let recordChars = 0;
    let pagesRead = 0;
    let maxPage = 0;
    let pairs = 0;
    let withPassage = 0;
    const statements: { statement: string; url: string }[] = [];
    for (let offset: number | undefined = 0; offset !== undefined; ) {
      const r = await server.callTool('audit_report', { run_id: runId, offset });
      const sc = r.structuredContent as { pairs: { pair_id: string; statement: string; source_id: string; passages: string[] }[]; urls: Record<string, string>; next_offset?: number; total: number };
      const text = replyText(r);
      auditChars += text.length;
      auditJson += JSON.stringify(sc).length;
      maxPage = Math.max(maxPage, text.length);
      pagesRead += 1;
      pairs = sc.total;
      // A pair whose source has no passage for it (the second id of a group, citing another page) is UNSUPPORTED.
      const verdicts = sc.pairs.map((p) =>
        p.passages.length > 0 ? { pair_id: p.pair_id, verdict: 'SUPPORTED', passage: p.passages[0] } : { pair_id: p.pair_id, verdict: 'UNSUPPORTED', note: 'no passage of the source says this' },
      );
      withPassage += verdicts.filter((v) => v.verdict === 'SUPPORTED').length;
      for (const p of sc.pairs) statements.push({ statement: p.statement, url: sc.urls[p.source_id] ?? '' });
      const rec = await server.callTool('record_audit', { run_id: runId, verdicts });
      recordChars += replyText(rec).length;
      offset = sc.next_offset;
    }
    const verify = replyText(await server.callTool('verify_report', { run_id: runId }));

    // Reference: the same judgement made by reading each pair's page through fetch_source with a focus.
    let pageChars = 0;
    for (const s of statements) pageChars += replyText(await server.callTool('fetch_source', { run_id: runId, url: s.url, focus: s.statement })).length;

    const total = auditChars + recordChars + verify.length;
    section.rows.push(
      {
        figure: `claim audit, whole first pass: audit_report pages + record_audit + verify_report replies, ${pairs} pairs over ${ps.length} real pages ≈ tokens`,
        ours: `${int(tok(total))} tok (${int(tok(total) / pairs)} per pair)`,
        reference: `${int(tok(pageChars))} tok reading each pair's page (fetch_source, focus)`,
        goal: `${(total / pageChars).toFixed(2)} ×`,
      },
      {
        figure: `audit_report page of 20 pairs, largest of ${pagesRead} ≈ tokens`,
        ours: `${int(tok(maxPage))} tok`,
        reference: '—',
        goal: `goal ≤ ${int(PAGE_GOAL_TOKENS)} tok`,
        met: tok(maxPage) <= PAGE_GOAL_TOKENS,
        because: `${int(tok(maxPage))} > ${int(PAGE_GOAL_TOKENS)}`,
      },
    );
    section.notes.push(
      `Report: ${pairs} claim–source pairs (${n} statements, every ${DOUBLE}th citing two sources), each a sentence of one of ${ps.length} readability fixture pages (the corpus's readability/, converted with turndown) cut to 18 words. ` +
        `The auditor reads ${pagesRead} audit_report pages (${int(tok(auditChars))} tok of text; the structuredContent JSON a client may show instead is ${int(tok(auditJson))} tok), records ${pairs} verdicts, ${withPassage} SUPPORTED (${int(tok(recordChars))} tok of replies) and calls verify_report once (${int(tok(verify.length))} tok). ` +
        `Tokens are characters / 4. The reference reads, for every pair, fetch_source on its page with the statement as focus at the default max_chars.`,
    );
    const problems = /^problems: (.*)$/m.exec(verify)?.[1] ?? '';
    const unsupported = pairs - withPassage;
    if ((JSON.parse(problems || '[]') as unknown[]).length !== unsupported) section.notes.push(`verify_report after the audit did not name exactly the ${unsupported} UNSUPPORTED pairs: ${(JSON.parse(problems || '[]') as { message: string }[]).map((p) => p.message.slice(0, 120)).join(' | ')}`);
  } finally {
    await server.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
  return section;
}
