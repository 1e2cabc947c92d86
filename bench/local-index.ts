// search_sources' index of a local folder (issue 25), in process, beside a plain extraction of the same
// files in the same run:
// - build: the first 1,000 HTML and PDF files (regular files, path order) of BENCH_LOCAL_DOCS (default
//   /usr/share/doc/python3.11/html, then /usr/share/doc/debian-policy, then the rest of /usr/share/doc, as
//   Debian's python3.11-doc and debian-policy packages install them), copied into one temporary root and
//   indexed cold, against `pdftotext` per PDF plus a plain HTML-to-text pass (linkedom, textContent) per page;
// - query: the median of 50 searches as search_sources runs them (the folder walked for changes, the
//   query, 8 snippets), two title words each;
// - size: the index file in the cache folder against the UTF-8 bytes of the text it holds.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseHTML } from 'linkedom';
import { RootIndex, closeIndexes } from '../src/local/index.js';
import { searchAll } from '../src/local/search.js';
import { goalRow, type Row, type Section } from './report.js';
import { median } from './stats.js';

const DOCS = 1_000;
const QUERIES = 50;
const DEFAULT_DIRS = ['/usr/share/doc/python3.11/html', '/usr/share/doc/debian-policy', '/usr/share/doc'];
const DIRS = process.env.BENCH_LOCAL_DOCS ? process.env.BENCH_LOCAL_DOCS.split(path.delimiter) : DEFAULT_DIRS;

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const visit = (d: string): void => {
    let names: string[];
    try {
      names = fs.readdirSync(d).sort();
    } catch {
      return;
    }
    for (const n of names) {
      const p = path.join(d, n);
      const st = fs.lstatSync(p);
      if (st.isDirectory()) visit(p);
      else if (st.isFile() && /\.(html?|pdf)$/i.test(n)) out.push(p);
    }
  };
  visit(dir);
  return out;
}

function corpus(): { files: string[]; base: string } {
  const seen = new Set<string>();
  const files: string[] = [];
  for (const d of DIRS) {
    for (const f of listFiles(d)) {
      if (files.length >= DOCS) break;
      if (seen.has(f)) continue;
      seen.add(f);
      files.push(f);
    }
  }
  let base = path.dirname(files[0] ?? '/');
  for (const f of files) while (!f.startsWith(base + path.sep) && base !== path.dirname(base)) base = path.dirname(base);
  return { files, base };
}

function reference(files: string[]): { ms: number; chars: number } {
  const t0 = performance.now();
  let chars = 0;
  for (const f of files) {
    if (f.toLowerCase().endsWith('.pdf')) {
      chars += execFileSync('pdftotext', ['-enc', 'UTF-8', f, '-'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }).length;
    } else {
      const { document } = parseHTML(fs.readFileSync(f, 'utf8'));
      chars += (document.body?.textContent ?? '').length;
    }
  }
  return { ms: performance.now() - t0, chars };
}

export async function localIndex(): Promise<Section> {
  const name = 'local-index';
  const title = 'Local folder index (search_sources)';
  const { files, base } = corpus();
  const hasPdftotext = (() => {
    try {
      execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  if (files.length < DOCS || !hasPdftotext) {
    const why = !hasPdftotext ? 'pdftotext (poppler-utils) is not installed' : `${files.length} of ${DOCS} HTML/PDF files under ${DIRS.join(', ')} (install python3.11-doc and debian-policy, or set BENCH_LOCAL_DOCS)`;
    return {
      name,
      title,
      rows: [{ figure: `index ${DOCS} local documents / pdftotext + HTML-to-text`, ours: '—', met: null, because: why }],
      notes: [`Not measured: ${why}.`],
    };
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dr-bench-local-'));
  const root = path.join(tmp, 'docs');
  const cache = path.join(tmp, 'cache');
  try {
    for (const f of files) {
      const to = path.join(root, path.relative(base, f));
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.copyFileSync(f, to);
    }
    const copies = files.map((f) => path.join(root, path.relative(base, f)));
    const pdfs = files.filter((f) => /\.pdf$/i.test(f)).length;
    const r = { name: 'docs', dir: fs.realpathSync(root) };

    // The reference first: the index, built second, pays for any garbage the first pass left.
    const ref = reference(copies);
    const t0 = performance.now();
    const idx = new RootIndex(r, cache);
    await idx.refresh();
    const oursMs = performance.now() - t0;

    const counts = idx.counts();
    const sizes = idx.sizes();
    const textBytes = Buffer.byteLength(
      // The text held, as UTF-8: what the index must not outgrow twice over.
      idx.allTexts().join('\n'),
    );

    // Queries: two title words of every 20th document, as search_sources runs them (walk, query, snippets).
    const titles = idx.titles();
    const queries: string[] = [];
    for (let i = 0; queries.length < QUERIES && i < titles.length * 4; i += 7) {
      const words = (titles[i % titles.length] ?? '').split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 4);
      if (words.length >= 1) queries.push(words.slice(0, 2).join(' '));
    }
    closeIndexes();
    const env = { DEEP_RESEARCH_CACHE: cache };
    await searchAll({ query: 'warm up', limit: 8, roots: [r], env }); // loads the index file once, as a server's first search does
    const times: number[] = [];
    let hits = 0;
    for (const q of queries) {
      const t = performance.now();
      const out = await searchAll({ query: q, limit: 8, roots: [r], env });
      times.push(performance.now() - t);
      if (out.results.length > 0) hits++;
    }
    const rows: Row[] = [
      goalRow(`index ${files.length} local documents (${pdfs} PDF) / pdftotext + HTML-to-text`, oursMs / ref.ms, { max: 2, format: (x) => x.toFixed(2) }, {
        ours: `${(oursMs / 1000).toFixed(1)} s`,
        reference: `${(ref.ms / 1000).toFixed(1)} s`,
        goalText: `${(oursMs / ref.ms).toFixed(2)} (goal ≤ 2.00)`,
      }),
      goalRow('search_sources median query (walk + query + 8 snippets)', median(times), { max: 50, format: (x) => `${x.toFixed(1)} ms` }),
      goalRow('index size / text it holds', sizes.bytes / textBytes, { max: 2, format: (x) => x.toFixed(2) }, {
        ours: `${(sizes.bytes / 1024 / 1024).toFixed(1)} MiB`,
        reference: `${(textBytes / 1024 / 1024).toFixed(1)} MiB of text`,
        goalText: `${(sizes.bytes / textBytes).toFixed(2)} (goal ≤ 2.00)`,
      }),
    ];
    return {
      name,
      title,
      rows,
      notes: [
        `Corpus: the first ${files.length} HTML and PDF files (regular files, path order) of ${DIRS.join(', ')}; ${counts.documents} indexed, ${counts.skipped} with no text to index.`,
        `Index: MiniSearch (BM25+) in one gzipped JSON file per folder in the cache folder; HTML is indexed from one htmlparser2 pass (no DOM), PDFs through the server's PDF reader. Reference: pdftotext per PDF and linkedom textContent per page, in the same process and run (${ref.chars} characters).`,
        `Queries: ${queries.length}, each two title words; ${hits} returned results. Median ${median(times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms.`,
      ],
    };
  } finally {
    closeIndexes();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
