// Run by bench/pdf-bombs.ts in a process of its own: reads BOMBS generated PDF bombs of each filter kind
// in a row through the server's PDF path and prints the RSS after the first bomb and after each kind's
// last, as one JSON line.
import zlib from 'node:zlib';
import { readPdf } from '../src/fetch/pdf/read.js';
import { lzwZeros, makePdf, prose } from '../test/helpers/pdf.js';

const BOMBS = Number(process.argv[2] ?? 60);

/** About 1 MB on the wire that inflates to 1 GiB of zeros, deflated in slices so the GiB is never held. */
async function deflatedGiB(): Promise<Buffer> {
  const def = zlib.createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  def.on('data', (d: Buffer) => parts.push(d));
  const slice = Buffer.alloc(64 * 1024 * 1024);
  for (let i = 0; i < 16; i++) await new Promise<void>((r) => def.write(slice, () => r()));
  await new Promise<void>((r) => def.end(() => r()));
  return Buffer.concat(parts);
}

const gib = await deflatedGiB();
/** Each kind decodes to 1 GiB through its filter chain (issues 19 and 27). */
const KINDS: Record<string, Uint8Array> = {
  Flate: new Uint8Array(makePdf({ pages: [prose(1)], rawStream: gib })),
  'ASCIIHex+Flate': new Uint8Array(makePdf({ pages: [prose(1)], rawStream: gib, wrap: 'hex' })),
  'RunLength+Flate': new Uint8Array(makePdf({ pages: [prose(1)], rawStream: gib, wrap: 'runlength' })),
  'LZW+Flate': new Uint8Array(makePdf({ pages: [prose(1)], rawStream: gib, wrap: 'lzw' })),
  LZW: new Uint8Array(makePdf({ pages: [prose(1)], stream: { data: lzwZeros(1024), filter: '/LZWDecode' } })),
};
const rss = () => process.memoryUsage.rss() / 1048576;
let first = 0;
const kinds: { kind: string; bytes: number; refused: number; last: number; maxMs: number }[] = [];
for (const [kind, pdf] of Object.entries(KINDS)) {
  let refused = 0;
  let maxMs = 0;
  for (let i = 1; i <= BOMBS; i++) {
    const t0 = performance.now();
    const r = await readPdf(pdf, 'bomb');
    maxMs = Math.max(maxMs, performance.now() - t0);
    if (!r.ok && r.reason === 'too-complex') refused += 1;
    if (first === 0) first = rss();
  }
  kinds.push({ kind, bytes: pdf.length, refused, last: rss(), maxMs });
}
process.stdout.write(`${JSON.stringify({ bombs: BOMBS, first, kinds })}\n`);
process.exit(0);
