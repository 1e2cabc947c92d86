// PDF reading, measured through the bundled server as a CLI runs it (fetch_source over stdio, the PDF on a
// local web), beside pdftotext (poppler-utils) on the same files in the same run:
// - recall: of 200 sentences sampled from each fixture's HTML edition, the share the grounding rule finds
//   in the stored text (ours) or in pdftotext's text (line-end hyphens joined); same matcher for both;
// - median ms per page (fetch_source end to end vs a pdftotext process), and its ratio;
// - a generated 200-page PDF stored end to end; the server's peak RSS (VmHWM) over the whole section.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseHTML } from 'linkedom';
import { projectForMatching, quoteFoundIn } from '../src/engine/grounding.js';
import { startServer } from '../test/fetch/helpers.js';
import { makePdf } from '../test/helpers/pdf.js';
import { goalRow, type Section } from './report.js';
import { median, ms, ratio } from './stats.js';
import { childEnv, StdioClient } from './stdio-client.js';
import { ourServer, REPO } from './targets.js';

const RUNS = Math.max(3, Number(process.env.BENCH_PDF_RUNS ?? 5));
const SAMPLE = 200;
const FIXTURES = path.resolve(REPO, '../shared/fixtures/pdf');

interface Fixture {
  name: string;
  pdf: string;
  html: string[];
}

const FIXTURE_LIST: Fixture[] = [
  { name: 'debian-policy', pdf: 'debian-policy/policy.pdf', html: [] },
  { name: 'r-data', pdf: 'r-data/R-data.pdf', html: ['r-data/R-data.html'] },
];

/**
 * The fixtures README's sampler: text of each <p>, <li> and <dd> that holds no other block (textContent,
 * so inline tags add no spaces), split at . ? ! before a space and a capital, sentences of 60–220
 * characters without ¶ { } < > = $, every k-th for `n` spread through the document.
 */
export function sampleSentences(htmlFiles: string[], n = SAMPLE): string[] {
  const all: string[] = [];
  for (const file of htmlFiles) {
    const { document } = parseHTML(fs.readFileSync(file, 'utf8'));
    for (const el of document.querySelectorAll('p, li, dd') as unknown as Array<{ querySelector(s: string): unknown; textContent: string | null }>) {
      if (el.querySelector('p, li, dd, div, ul, ol, dl, table, pre, blockquote, h1, h2, h3, h4, h5, h6')) continue;
      const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
      for (const s of text.split(/(?<=[.?!])\s+(?=[A-Z])/)) {
        if (s.length >= 60 && s.length <= 220 && !/[¶{}<>=$]/.test(s)) all.push(s);
      }
    }
  }
  const k = Math.max(1, Math.floor(all.length / n));
  return all.filter((_, i) => i % k === 0).slice(0, n);
}

function recall(sentences: string[], text: string): number {
  const projected = projectForMatching(text);
  return sentences.filter((s) => quoteFoundIn(s, projected)).length / sentences.length;
}

function pdftotext(file: string): { text: string; ms: number } {
  const t0 = performance.now();
  const out = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const elapsed = performance.now() - t0;
  return { text: out.replace(/(\p{L})-\n(\p{Ll})/gu, '$1$2'), ms: elapsed };
}

function peakRss(pid: number | undefined): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

export async function pdf(): Promise<Section> {
  const section: Section = { name: 'pdf', title: 'PDF reading', rows: [], notes: [] };
  const target = ourServer();
  let havePdftotext = true;
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
  } catch {
    havePdftotext = false;
  }
  const files = new Map<string, Buffer>();
  for (const f of FIXTURE_LIST) files.set(`/${f.name}.pdf`, fs.readFileSync(path.join(FIXTURES, f.pdf)));
  const big = makePdf({
    pages: Array.from({ length: 200 }, (_, p) =>
      Array.from({ length: 45 }, (_, l) => `Page ${p + 1}, line ${l + 1}: the trial measured output, hours and wellbeing across the firms.`),
    ),
  });
  files.set('/big.pdf', big);
  const web = await startServer((req, res) => {
    const body = files.get((req.url ?? '').split('?')[0] ?? '');
    res.statusCode = body ? 200 : 404;
    res.setHeader('content-type', 'application/pdf');
    res.end(body ?? '');
  });
  const root = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? '/tmp'), 'dr-bench-pdf-'));
  const client = new StdioClient(process.execPath, [target.entry], childEnv({ DEEP_RESEARCH_ARTIFACTS: root, DEEP_RESEARCH_LOG: 'off', DEEP_RESEARCH_ALLOW_HOSTS: web.hostPort }));
  try {
    await client.initialize();
    client.notify('notifications/initialized');
    const start = (await client.callTool('start_run', {
      question: 'How well are PDFs read?',
      depth: 'quick',
      brief: { threads: [{ name: 'T', sub_questions: [{ id: 'SQ-1', question: 'How well?' }], subjects: ['PDF'] }] },
    })) as { structuredContent?: { run_id: string }; content?: Array<{ text: string }> };
    const runId = start.structuredContent?.run_id;
    if (!runId) throw new Error(`start_run failed: ${JSON.stringify(start.content)}`);
    let n = 0;
    const fetchTimed = async (route: string): Promise<{ ms: number; id: string; pages: number }> => {
      const t0 = performance.now();
      const r = (await client.callTool('fetch_source', { run_id: runId, url: `${web.origin}${route}?run=${n++}` })) as {
        isError?: boolean;
        structuredContent?: { source_id: string; pages?: { stored: number } };
        content?: Array<{ text: string }>;
      };
      const elapsed = performance.now() - t0;
      if (r.isError || !r.structuredContent) throw new Error(`fetch_source ${route}: ${r.content?.[0]?.text.slice(0, 300)}`);
      return { ms: elapsed, id: r.structuredContent.source_id, pages: r.structuredContent.pages?.stored ?? 0 };
    };

    const perPageRatios: number[] = [];
    for (const f of FIXTURE_LIST) {
      const htmlFiles =
        f.html.length > 0
          ? f.html.map((h) => path.join(FIXTURES, h))
          : fs
              .readdirSync(path.join(FIXTURES, f.name, 'html'))
              .filter((x) => x.endsWith('.html'))
              .sort()
              .map((x) => path.join(FIXTURES, f.name, 'html', x));
      const sentences = sampleSentences(htmlFiles);
      const ours: number[] = [];
      let stored = '';
      let pages = 0;
      for (let i = 0; i < RUNS; i++) {
        const r = await fetchTimed(`/${f.name}.pdf`);
        ours.push(r.ms / r.pages);
        pages = r.pages;
        if (i === 0) stored = fs.readFileSync(path.join(root, runId, 'sources', `${r.id}.md`), 'utf8');
      }
      const ourRecall = recall(sentences, stored);
      const oursMs = median(ours);
      if (havePdftotext) {
        const theirs: number[] = [];
        let text = '';
        for (let i = 0; i < RUNS; i++) {
          const p = pdftotext(path.join(FIXTURES, f.pdf));
          theirs.push(p.ms / pages);
          text = p.text;
        }
        const refRecall = recall(sentences, text);
        const refMs = median(theirs);
        perPageRatios.push(oursMs / refMs);
        section.rows.push(
          goalRow(`PDF ${f.name}: recall of ${sentences.length} HTML-edition sentences (shortfall vs pdftotext)`, Math.max(0, refRecall - ourRecall), { max: 0, format: (x) => x.toFixed(3) }, {
            ours: ourRecall.toFixed(3),
            reference: `pdftotext ${refRecall.toFixed(3)}`,
            goalText: `${(ourRecall - refRecall).toFixed(3)} (goal ≥ 0)`,
          }),
          goalRow(`PDF ${f.name}: median ms per page (${pages} pages, ${RUNS} runs)`, oursMs / refMs, { max: 3, format: ratio }, {
            ours: ms(oursMs),
            reference: `pdftotext ${ms(refMs)}`,
            goalText: `${ratio(oursMs / refMs)} (goal ≤ 3×)`,
          }),
        );
      } else {
        section.rows.push({ figure: `PDF ${f.name}: recall and ms per page`, ours: `${ourRecall.toFixed(3)}, ${ms(oursMs)}/page`, reference: 'pdftotext not installed', met: null, because: 'apt-get install poppler-utils' });
      }
    }
    const bigTimes: number[] = [];
    for (let i = 0; i < 3; i++) bigTimes.push((await fetchTimed('/big.pdf')).ms);
    section.rows.push(goalRow('PDF: a generated 200-page PDF stored by fetch_source (median of 3)', median(bigTimes), { max: 5000, format: ms }, { goalText: '≤ 5 s' }));
    const rss = peakRss(client.child.pid);
    section.rows.push(goalRow('PDF: server peak RSS over this section (VmHWM)', rss, { max: 300, format: (x) => `${x.toFixed(0)} MiB` }, { goalText: '≤ 300 MiB' }));
    section.notes.push(
      `Method: ${target.label} over stdio; each fixture fetched ${RUNS} times under distinct URLs (a new source each time), so every figure includes HTTP on loopback, the parse worker's start, the layout pass and the store write. pdftotext is timed as a process on the same file. Recall uses the grounding rule (the one record_round applies) on both texts; sentences are sampled as the fixtures' README describes. Per-page ratios: ${perPageRatios.map(ratio).join(', ') || 'n/a'}.`,
    );
  } finally {
    await client.close();
    await web.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
  return section;
}
