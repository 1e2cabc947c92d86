// A decompression bomb is refused before pdf.js sees it. pdf.js inflates a stream into typed arrays that it
// doubles as they fill; for a small file whose stream inflates to a gibibyte the worker's RSS watch ends the
// parse, but the memory the worker's allocations took from the process's allocator was not all given back,
// and each bomb left the server about 30-200 MiB larger (issue 19). Here the main thread inflates each Flate
// stream that text extraction would decode (content, fonts, object streams; not images, which it never
// decodes), counting the bytes and keeping none, and stops at the first that passes the cap. A filter chain
// is followed through its leading Flate, ASCIIHex and ASCII85 stages; a stream behind another filter is
// left to the worker, whose RSS watch still ends it.
import zlib from 'node:zlib';

/** Decoded bytes one PDF's text-bearing Flate streams may reach, together. */
export const MAX_INFLATED_BYTES = 256 * 1024 * 1024;

const STREAM = /stream\r?\n/g;

/** Decoded size of the text-bearing Flate streams, up to just past `cap`; more than cap means a bomb. */
export async function inflatedSize(pdf: Uint8Array, cap = MAX_INFLATED_BYTES): Promise<number> {
  const buf = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const text = buf.toString('latin1');
  let total = 0;
  for (const m of text.matchAll(STREAM)) {
    const at = m.index ?? 0;
    // `endstream` is a keyword of its own, not this one.
    if (at >= 3 && text.slice(at - 3, at) === 'end') continue;
    const dictStart = text.lastIndexOf('<<', at);
    if (dictStart < 0 || at - dictStart > 4096) continue;
    const dict = text.slice(dictStart, at);
    if (/\/Subtype\s*\/Image\b/.test(dict)) continue;
    const chain = filters(dict);
    if (!chain.includes('flate')) continue;
    const start = at + m[0].length;
    const end = text.indexOf('endstream', start);
    total += await decodedCount(buf.subarray(start, end < 0 ? buf.length : end), chain, cap - total);
    if (total > cap) return total;
  }
  return total;
}

type Stage = 'flate' | 'hex' | 'a85';
const STAGES: Record<string, Stage> = { FlateDecode: 'flate', Fl: 'flate', ASCIIHexDecode: 'hex', AHx: 'hex', ASCII85Decode: 'a85', A85: 'a85' };

/** The stream's filters in order, up to the first one this check does not decode. */
function filters(dict: string): Stage[] {
  const m = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/.exec(dict);
  if (!m) return [];
  const out: Stage[] = [];
  for (const name of m[1]!.match(/\/[A-Za-z0-9]+/g) ?? []) {
    const stage = STAGES[name.slice(1)];
    if (!stage) break;
    out.push(stage);
  }
  return out;
}

function unhex(data: Buffer): Buffer {
  const s = data.toString('latin1');
  const end = s.indexOf('>');
  const digits = (end < 0 ? s : s.slice(0, end)).replace(/[^0-9A-Fa-f]/g, '');
  return Buffer.from(digits.length % 2 ? `${digits}0` : digits, 'hex');
}

function unA85(data: Buffer): Buffer {
  const s = data.toString('latin1').replace(/^<~/, '');
  const end = s.indexOf('~>');
  const body = (end < 0 ? s : s.slice(0, end)).replace(/\s+/g, '');
  const out: number[] = [];
  let group: number[] = [];
  const flush = (g: number[], n: number) => {
    let v = 0;
    for (const c of g) v = v * 85 + c;
    for (let k = 0; k < n; k++) out.push((v >>> (24 - 8 * k)) & 0xff);
  };
  for (const ch of body) {
    if (ch === 'z' && group.length === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    const c = ch.charCodeAt(0) - 33;
    if (c < 0 || c > 84) continue;
    group.push(c);
    if (group.length === 5) {
      flush(group, 4);
      group = [];
    }
  }
  if (group.length > 1) {
    const n = group.length - 1;
    while (group.length < 5) group.push(84);
    flush(group, n);
  }
  return Buffer.from(out);
}

/**
 * Bytes the chain decodes `data` to, counted as they stream out of its last stage; stops once over
 * `limit`. Text stages run first on the raw bytes (they only shrink them); the Flate stages are piped.
 */
function decodedCount(data: Buffer, chain: Stage[], limit: number): Promise<number> {
  let input = data;
  let i = 0;
  for (; i < chain.length && chain[i] !== 'flate'; i++) input = chain[i] === 'hex' ? unhex(input) : unA85(input);
  let j = i;
  while (j < chain.length && chain[j] === 'flate') j++;
  const flates = j - i;
  return new Promise((resolve) => {
    let n = 0;
    let done = false;
    const stages = Array.from({ length: flates }, () => zlib.createInflate({ chunkSize: 256 * 1024 }));
    for (let k = 0; k + 1 < stages.length; k++) stages[k]!.pipe(stages[k + 1]!);
    const z = stages[stages.length - 1]!;
    const finish = () => {
      if (done) return;
      done = true;
      z.removeAllListeners('data');
      for (const st of stages) st.destroy();
      resolve(n);
    };
    for (const st of stages) st.on('error', finish);
    z.on('data', (chunk: Buffer) => {
      n += chunk.length;
      if (n > limit) finish();
    });
    // A damaged or non-zlib stream is pdf.js's to judge; what it decoded so far is what counts.
    z.on('end', finish);
    z.on('close', finish);
    stages[0]!.end(input);
  });
}
