// Run by bench/pdf-bombs.ts in a process of its own: reads BOMBS generated PDF bombs in a row through the
// server's PDF path and prints the RSS after the first and after the last, as one JSON line.
import zlib from 'node:zlib';
import { readPdf } from '../src/fetch/pdf/read.js';
import { makePdf, prose } from '../test/helpers/pdf.js';

const BOMBS = Number(process.argv[2] ?? 60);

/** About 1 MB on the wire that inflates to 1 GiB of zeros, deflated in slices so the GiB is never held. */
async function bomb(): Promise<Uint8Array> {
  const def = zlib.createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  def.on('data', (d: Buffer) => parts.push(d));
  const slice = Buffer.alloc(64 * 1024 * 1024);
  for (let i = 0; i < 16; i++) await new Promise<void>((r) => def.write(slice, () => r()));
  await new Promise<void>((r) => def.end(() => r()));
  return new Uint8Array(makePdf({ pages: [prose(1)], rawStream: Buffer.concat(parts) }));
}

const pdf = await bomb();
const rss = () => process.memoryUsage.rss() / 1048576;
let first = 0;
let refused = 0;
const times: number[] = [];
for (let i = 1; i <= BOMBS; i++) {
  const t0 = performance.now();
  const r = await readPdf(pdf, 'bomb');
  times.push(performance.now() - t0);
  if (!r.ok && r.reason === 'too-complex') refused += 1;
  if (i === 1) first = rss();
}
process.stdout.write(`${JSON.stringify({ bytes: pdf.length, bombs: BOMBS, refused, first, last: rss(), maxMs: Math.max(...times) })}\n`);
process.exit(0);
