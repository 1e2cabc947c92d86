// PDF reading, measured through the bundled server as a CLI runs it (fetch_source over stdio, the PDF on a
// local web), beside pdftotext (poppler-utils) on the same files in the same run:
// - recall: of 200 sentences sampled from each fixture's HTML edition, the share the grounding rule finds
//   in the stored text (ours) or in pdftotext's text (line-end hyphens joined); same matcher for both;
// - median ms per page (fetch_source end to end vs a pdftotext process), and its ratio, twice: with the
//   server's parse worker warm (it has read another PDF before) and for the first PDF after server start
//   (the worker starts and pdf.js loads and is optimised during that parse);
// - a generated 200-page PDF stored end to end; the server's peak RSS (VmHWM) over the warm session.
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
import { CORPUS, corpusLabel } from './corpus.js';
import { ourServer } from './targets.js';

const RUNS = Math.max(3, Number(process.env.BENCH_PDF_RUNS ?? 5));
const COLD_RUNS = Math.max(1, Number(process.env.BENCH_PDF_COLD_RUNS ?? 3));
const SAMPLE = 200;
const FIXTURES = path.join(CORPUS, 'pdf');

interface Fixture {
  name: string;
  pdf: string;
  html: string[];
}

const FIXTURE_LIST: Fixture[] = [
  { name: 'debian-policy', pdf: 'debian-policy/policy.pdf', html: [] },
  { name: 'r-data', pdf: 'r-data/R-data.pdf', html: ['r-data/R-data.html'] },
];

/** Page chrome of the HTML editions (Texinfo's Next/Previous/Up bars, Sphinx's related bar and sidebar): not text of the document. */
const NAVIGATION = 'nav, [role="navigation"], div.header, div.nav-panel, div.related, div.sphinxsidebar, div.footer';

/** Candidate sentences of an HTML edition, in document order (see sampleSentences). */
export function candidateSentences(htmlFiles: string[]): string[] {
  const all: string[] = [];
  for (const file of htmlFiles) {
    const { document } = parseHTML(fs.readFileSync(file, 'utf8'));
    for (const el of document.querySelectorAll('p, li, dd') as unknown as Array<{ querySelector(s: string): unknown; closest(s: string): unknown; textContent: string | null }>) {
      if (el.querySelector('p, li, dd, div, ul, ol, dl, table, pre, blockquote, h1, h2, h3, h4, h5, h6')) continue;
      if (el.closest(NAVIGATION)) continue;
      const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
      for (const s of text.split(/(?<=[.?!])\s+(?=[A-Z])/)) {
        if (s.length >= 60 && s.length <= 220 && !/[¶{}<>=$]/.test(s)) all.push(s);
      }
    }
  }
  return all;
}

/**
 * The fixtures README's sampler: text of each <p>, <li> and <dd> that holds no other block (textContent,
 * so inline tags add no spaces), split at . ? ! before a space and a capital, sentences of 60–220
 * characters without ¶ { } < > = $, every k-th for `n` spread through the document. k is the candidates
 * over `n`, fractional: rounded down to a whole step it is 1 for any document under 2n candidates (R-data
 * has 347), and the sample would be the first 200, not spread. Navigation bars are left out: they are not
 * sentences of the document, and no PDF edition has them (Texinfo repeats one before every node).
 */
export function sampleSentences(htmlFiles: string[], n = SAMPLE): string[] {
  const all = candidateSentences(htmlFiles);
  if (all.length <= n) return all;
  return Array.from({ length: n }, (_, i) => all[Math.floor((i * all.length) / n)]!);
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

/** Across sessions too: the server's fetch cache outlives a run, and a cached response would skip the read. */
let fetches = 0;

/** DEEP_RESEARCH_PDF_THREADS: unset (the default, 'auto'), or one or two threads forced. */
type Threads = 'auto' | '1' | '2';
const VARIANTS = ['1', '2'] as const;

interface Session {
  client: StdioClient;
  runId: string;
  fetchTimed(route: string): Promise<{ ms: number; id: string; pages: number }>;
}

async function openSession(entry: string, root: string, hostPort: string, origin: string, threads: Threads): Promise<Session> {
  const client = new StdioClient(
    process.execPath,
    [entry],
    childEnv({ DEEP_RESEARCH_ARTIFACTS: root, DEEP_RESEARCH_LOG: 'off', DEEP_RESEARCH_ALLOW_HOSTS: hostPort, DEEP_RESEARCH_PDF_THREADS: threads === 'auto' ? '' : threads }),
  );
  await client.initialize();
  client.notify('notifications/initialized');
  const start = (await client.callTool('start_run', {
    question: 'How well are PDFs read?',
    depth: 'quick',
    brief: { threads: [{ name: 'T', sub_questions: [{ id: 'SQ-1', question: 'How well?' }], subjects: ['PDF'] }] },
  })) as { structuredContent?: { run_id: string }; content?: Array<{ text: string }> };
  const runId = start.structuredContent?.run_id;
  if (!runId) throw new Error(`start_run failed: ${JSON.stringify(start.content)}`);
  return {
    client,
    runId,
    async fetchTimed(route) {
      const t0 = performance.now();
      // A distinct URL each time: a new source, so every call reads and stores the PDF.
      const r = (await client.callTool('fetch_source', { run_id: runId, url: `${origin}${route}?run=${fetches++}` })) as {
        isError?: boolean;
        structuredContent?: { source_id: string; pages?: { stored: number } };
        content?: Array<{ text: string }>;
      };
      const elapsed = performance.now() - t0;
      if (r.isError || !r.structuredContent) throw new Error(`fetch_source ${route}: ${r.content?.[0]?.text.slice(0, 300)}`);
      return { ms: elapsed, id: r.structuredContent.source_id, pages: r.structuredContent.pages?.stored ?? 0 };
    },
  };
}

function htmlFilesOf(f: Fixture): string[] {
  if (f.html.length > 0) return f.html.map((h) => path.join(FIXTURES, h));
  return fs
    .readdirSync(path.join(FIXTURES, f.name, 'html'))
    .filter((x) => x.endsWith('.html'))
    .sort()
    .map((x) => path.join(FIXTURES, f.name, 'html', x));
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
  const missing = FIXTURE_LIST.filter((f) => !fs.existsSync(path.join(FIXTURES, f.pdf)));
  if (missing.length > 0) {
    section.rows.push({ figure: 'PDF reading', ours: 'not measured', met: null, because: `no PDF corpus at ${corpusLabel('pdf')}` });
    return section;
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
  const sessions: Session[] = [];
  const open = async (threads: Threads = 'auto'): Promise<Session> => {
    const s = await openSession(target.entry, root, web.hostPort, web.origin, threads);
    sessions.push(s);
    return s;
  };
  try {
    // Cold: the first PDF a fresh server reads (worker start, pdf.js load and its first, unoptimised run).
    // The default and each forced thread count, alternated, so load on the machine falls on all alike.
    const coldBy = new Map<string, number[]>();
    for (const f of FIXTURE_LIST) {
      for (let i = 0; i < COLD_RUNS; i++) {
        for (const threads of ['auto', ...VARIANTS] as const) {
          const s = await open(threads);
          const r = await s.fetchTimed(`/${f.name}.pdf`);
          const k = `${f.name} ${threads}`;
          coldBy.set(k, [...(coldBy.get(k) ?? []), r.ms / r.pages]);
          await s.client.close();
        }
      }
    }
    const cold = new Map(FIXTURE_LIST.map((f) => [f.name, coldBy.get(`${f.name} auto`) ?? []]));

    // Warm: one long-lived server whose worker has already read a PDF (the generated one, not a fixture).
    const warm = await open();
    await warm.fetchTimed('/big.pdf');
    // The same with each forced thread count, fetched alternately with the default server.
    const forced = new Map<string, Session>();
    for (const v of VARIANTS) {
      const s = await open(v);
      await s.fetchTimed('/big.pdf');
      forced.set(v, s);
    }
    const perPage: Array<{ name: string; warm: number; cold: number; forced: string }> = [];
    const population: string[] = [];
    for (const f of FIXTURE_LIST) {
      const htmlFiles = htmlFilesOf(f);
      const candidates = candidateSentences(htmlFiles);
      const sentences = sampleSentences(htmlFiles);
      const ours: number[] = [];
      const oursBy = new Map<string, number[]>(VARIANTS.map((v) => [v, []]));
      let stored = '';
      let pages = 0;
      for (let i = 0; i < RUNS; i++) {
        const r = await warm.fetchTimed(`/${f.name}.pdf`);
        ours.push(r.ms / r.pages);
        pages = r.pages;
        if (i === 0) stored = fs.readFileSync(path.join(root, warm.runId, 'sources', `${r.id}.md`), 'utf8');
        for (const v of VARIANTS) oursBy.get(v)!.push((await forced.get(v)!.fetchTimed(`/${f.name}.pdf`)).ms / r.pages);
      }
      const ourRecall = recall(sentences, stored);
      const oursMs = median(ours);
      const coldMs = median(cold.get(f.name) ?? []);
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
        perPage.push({
          name: f.name,
          warm: oursMs / refMs,
          cold: coldMs / refMs,
          forced: VARIANTS.map((v) => `${v} thread${v === '1' ? '' : 's'} ${ratio(median(oursBy.get(v)!) / refMs)} / ${ratio(median(coldBy.get(`${f.name} ${v}`) ?? []) / refMs)}`).join(', '),
        });
        population.push(`${f.name} ${recall(candidates, stored).toFixed(3)} vs pdftotext ${recall(candidates, text).toFixed(3)} over all ${candidates.length}`);
        section.rows.push(
          goalRow(`PDF ${f.name}: recall of ${sentences.length} HTML-edition sentences (shortfall vs pdftotext)`, Math.max(0, refRecall - ourRecall), { max: 0, format: (x) => x.toFixed(3) }, {
            ours: ourRecall.toFixed(3),
            reference: `pdftotext ${refRecall.toFixed(3)}`,
            goalText: `${(ourRecall - refRecall).toFixed(3)} (goal ≥ 0)`,
          }),
          goalRow(`PDF ${f.name}: median ms per page, worker warm (${pages} pages, ${RUNS} runs)`, oursMs / refMs, { max: 3, format: ratio }, {
            ours: ms(oursMs),
            reference: `pdftotext ${ms(refMs)}`,
            goalText: `${ratio(oursMs / refMs)} (goal ≤ 3×)`,
          }),
          goalRow(`PDF ${f.name}: ms per page, first PDF after server start, worker cold (median of ${COLD_RUNS} servers)`, coldMs / refMs, { max: 3, format: ratio }, {
            ours: ms(coldMs),
            reference: `pdftotext ${ms(refMs)}`,
            goalText: `${ratio(coldMs / refMs)} (goal ≤ 3×)`,
          }),
        );
      } else {
        section.rows.push({
          figure: `PDF ${f.name}: recall and ms per page`,
          ours: `${ourRecall.toFixed(3)}, ${ms(oursMs)}/page warm, ${ms(coldMs)}/page cold`,
          reference: 'pdftotext not installed',
          met: null,
          because: 'apt-get install poppler-utils',
        });
      }
    }
    const bigTimes: number[] = [];
    for (let i = 0; i < 3; i++) bigTimes.push((await warm.fetchTimed('/big.pdf')).ms);
    section.rows.push(goalRow('PDF: a generated 200-page PDF stored by fetch_source, worker warm (median of 3)', median(bigTimes), { max: 5000, format: ms }, { goalText: '≤ 5 s' }));
    const rss = peakRss(warm.client.child.pid);
    section.rows.push(goalRow('PDF: server peak RSS over the warm session (VmHWM)', rss, { max: 300, format: (x) => `${x.toFixed(0)} MiB` }, { goalText: '≤ 300 MiB' }));
    const forcedRss = VARIANTS.map((v) => `${v} thread${v === '1' ? '' : 's'} ${peakRss(forced.get(v)!.client.child.pid).toFixed(0)} MiB`).join(', ');
    section.notes.push(
      `Method: ${target.label} over stdio; every figure is fetch_source end to end (HTTP on loopback, the parse in the server's worker thread, the layout pass, the store write), each call under a distinct URL so each stores a new source. ` +
        `Warm: one server whose worker has already read one PDF (the generated one), each fixture fetched ${RUNS} times. ` +
        `Cold: the first PDF of a freshly started server, so the figure includes starting the worker thread, loading pdf.js and its first unoptimised run; ${COLD_RUNS} servers per fixture. ` +
        `pdftotext is a new process per run on the same file (there is no warm pdftotext). ` +
        `Per-page ratios warm / cold: ${perPage.map((p) => `${p.name} ${ratio(p.warm)} / ${ratio(p.cold)}`).join(', ') || 'n/a'}. ` +
        `By default a PDF of 64 pages or more is parsed by two threads on a machine with two cores; forced with DEEP_RESEARCH_PDF_THREADS, same run, alternated with the default (warm / cold): ${perPage.map((p) => `${p.name} ${p.forced}`).join('; ') || 'n/a'}; peak RSS ${forcedRss}.`,
      `Recall uses the grounding rule (the one record_round applies) on both texts. Sentences are sampled as the fixtures' README describes, spread through the whole document (k fractional) and leaving out the HTML editions' navigation bars. Over every candidate sentence rather than 200: ${population.join('; ') || 'n/a'}.`,
    );
  } finally {
    for (const s of sessions) await s.client.close().catch(() => undefined);
    await web.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
  return section;
}
