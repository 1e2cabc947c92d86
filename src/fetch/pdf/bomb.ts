// A decompression bomb is refused before pdf.js sees it. pdf.js inflates a stream into typed arrays that it
// doubles as they fill; for a small file whose stream inflates to a gibibyte the worker's RSS watch ends the
// parse, but the memory the worker's allocations took from the process's allocator was not all given back,
// and each bomb left the server about 30-200 MiB larger (issue 19). Here the main thread inflates each Flate
// stream that text extraction would decode (content, fonts, object streams; not images, which it never
// decodes), counting the bytes and keeping none, and stops at the first that passes the cap.
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
    if (!/\/Filter\s*(?:\[\s*)?\/(?:FlateDecode|Fl)\b/.test(dict) || /\/Subtype\s*\/Image\b/.test(dict)) continue;
    const start = at + m[0].length;
    const end = text.indexOf('endstream', start);
    total += await inflateCount(buf.subarray(start, end < 0 ? buf.length : end), cap - total);
    if (total > cap) return total;
  }
  return total;
}

/** Bytes a deflate stream inflates to, counted as they stream past; stops once over `limit`. */
function inflateCount(data: Buffer, limit: number): Promise<number> {
  return new Promise((resolve) => {
    let n = 0;
    let done = false;
    const z = zlib.createInflate({ chunkSize: 256 * 1024 });
    const finish = () => {
      if (done) return;
      done = true;
      z.removeAllListeners('data');
      z.destroy();
      resolve(n);
    };
    z.on('data', (chunk: Buffer) => {
      n += chunk.length;
      if (n > limit) finish();
    });
    // A damaged or non-zlib stream is pdf.js's to judge; what it decoded so far is what counts.
    z.on('error', finish);
    z.on('end', finish);
    z.on('close', finish);
    z.end(data);
  });
}
