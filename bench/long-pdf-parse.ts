// What reading more of a long PDF at once would cost: one parse of refman.pdf's first N pages in the PDF
// worker at today's limits (time limit as given, heap and RSS-growth limits as in src/fetch/pdf/read.ts),
// with the worker warm first as after a PDF response's headers. Prints the time, pages a second, the
// markdown's size and the process's RSS growth, or the limit that ended the parse. Not a timed test.
// `npx tsx bench/long-pdf-parse.ts [pages] [time limit ms] [file]`; DEEP_RESEARCH_PDF_THREADS=1|2 as the server.
import * as fs from 'node:fs';
import { prewarmPdf, readPdf } from '../src/fetch/pdf/read.js';

async function main(): Promise<void> {
  const maxPages = Number(process.argv[2] ?? 300);
  const timeoutMs = Number(process.argv[3] ?? 20_000);
  const file = process.argv[4] ?? '/usr/share/doc/r-doc-pdf/manual/refman.pdf';
  const bytes = new Uint8Array(fs.readFileSync(file));
  prewarmPdf();
  await new Promise((r) => setTimeout(r, 3_000));
  const rss0 = process.memoryUsage.rss();
  let peak = rss0;
  const watch = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  const t0 = performance.now();
  const r = await readPdf(bytes, file, { maxPages, timeoutMs });
  const ms = Math.round(performance.now() - t0);
  clearInterval(watch);
  const growth = Math.round((peak - rss0) / 1048576);
  if (r.ok) console.log(JSON.stringify({ maxPages, ms, pages: r.pages, notRead: r.notRead, markdownChars: r.markdown.length, pagesPerSecond: +(r.pages / (ms / 1000)).toFixed(1), rssGrowthMiB: growth, outlinePastCap: r.pastCap.length }));
  else console.log(JSON.stringify({ maxPages, ms, failed: r.reason, rssGrowthMiB: growth }));
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
