// A decompression bomb is refused before pdf.js sees it. pdf.js decodes a stream into typed arrays that it
// doubles as they fill; for a small file whose stream decodes to a gibibyte the worker's RSS watch ends the
// parse, but the memory the worker's allocations took from the process's allocator was not all given back,
// and each bomb left the server about 30-200 MiB larger (issues 19 and 27). Here the main thread decodes
// each stream that text extraction would decode (content, fonts, object streams; not images, which it
// never decodes) through every filter pdf.js applies that can grow data (Flate, LZW, RunLength; ASCIIHex
// and ASCII85 on the way), counting the bytes and keeping none, and stops at the first that passes the cap.
// The stages are pulled one small piece at a time, so the check itself holds a few hundred KiB whatever
// the chain. A chain is followed up to its first filter that is not one of these (an image codec), whose
// input is what counts.
//
// Hand-written decoders: zlib is Node's, but no maintained npm package decodes PDF's LZW (EarlyChange) and
// RunLength as pull streams, and pdf.js's own decoders are not exported by unpdf.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';

/** Decoded bytes one PDF's text-bearing streams may reach, together. */
export const MAX_INFLATED_BYTES = 256 * 1024 * 1024;

const STREAM = /stream\r?\n/g;
/** The most one decoder hands on at once: what bounds the check's own memory. */
const PIECE = 64 * 1024;

/** Decoded size of the text-bearing streams, up to just past `cap`; more than cap means a bomb. */
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
    if (!chain.some((s) => GROWS.has(s))) continue;
    const start = at + m[0].length;
    const end = text.indexOf('endstream', start);
    total += await decodedCount(buf.subarray(start, end < 0 ? buf.length : end), chain, cap - total, !/\/EarlyChange\s+0\b/.test(dict));
    if (total > cap) return total;
  }
  return total;
}

type Stage = 'flate' | 'lzw' | 'rl' | 'hex' | 'a85';
const STAGES: Record<string, Stage> = {
  FlateDecode: 'flate',
  Fl: 'flate',
  LZWDecode: 'lzw',
  LZW: 'lzw',
  RunLengthDecode: 'rl',
  RL: 'rl',
  ASCIIHexDecode: 'hex',
  AHx: 'hex',
  ASCII85Decode: 'a85',
  A85: 'a85',
};
const GROWS = new Set<Stage>(['flate', 'lzw', 'rl']);

/** The stream's filters in order, up to the first one this check does not decode. */
export function filters(dict: string): Stage[] {
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

/** A stateful decoder fed its input piece by piece; it yields its output in pieces of at most PIECE bytes. */
interface Decoder {
  feed(chunk: Buffer): Generator<Buffer>;
  /** Output held back until the input ended (an ASCII85 group's tail). */
  flush(): Generator<Buffer>;
}

/**
 * Collects a decoder's bytes; the decoder hands on a piece once `full` (what one input byte decodes to,
 * at most two LZW strings of 4 KiB, may run past PIECE).
 */
class Out {
  readonly buf = Buffer.allocUnsafe(PIECE + 8192);
  n = 0;
  /**
   * Last in the chain, only the lengths of its pieces are read: LZW then skips writing its strings (a
   * bomb's cost becomes its codes, not its output), and pieces are views of one buffer, not copies.
   */
  constructor(readonly countOnly: boolean) {}
  get full(): boolean {
    return this.n >= PIECE;
  }
  *take(): Generator<Buffer> {
    if (this.n === 0) return;
    const piece = this.countOnly ? this.buf.subarray(0, this.n) : Buffer.from(this.buf.subarray(0, this.n));
    this.n = 0;
    yield piece;
  }
}

function hexDecoder(countOnly: boolean): Decoder {
  const out = new Out(countOnly);
  let high = -1;
  let ended = false;
  return {
    *feed(chunk) {
      for (const c of chunk) {
        if (ended) return;
        if (c === 0x3e) {
          ended = true;
          break;
        }
        const v = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 55 : c >= 0x61 && c <= 0x66 ? c - 87 : -1;
        if (v < 0) continue;
        if (high < 0) high = v;
        else {
          out.buf[out.n++] = high * 16 + v;
          high = -1;
          if (out.full) yield* out.take();
        }
      }
      yield* out.take();
    },
    *flush() {
      if (high >= 0 && !ended) out.buf[out.n++] = high * 16;
      yield* out.take();
    },
  };
}

function a85Decoder(countOnly: boolean): Decoder {
  const out = new Out(countOnly);
  let group: number[] = [];
  let ended = false;
  let start = true;
  let prev = 0;
  const emit = (g: number[], n: number): void => {
    let v = 0;
    for (const c of g) v = v * 85 + c;
    for (let k = 0; k < n; k++) out.buf[out.n++] = (v >>> (24 - 8 * k)) & 0xff;
  };
  return {
    *feed(chunk) {
      for (const ch of chunk) {
        if (ended) break;
        // A leading `<~` is allowed and skipped.
        if (start && (ch === 0x3c || (ch === 0x7e && prev === 0x3c))) {
          prev = ch;
          continue;
        }
        start = false;
        if (ch === 0x7e) {
          ended = true;
          break;
        }
        prev = ch;
        if (ch === 0x7a && group.length === 0) {
          out.buf.fill(0, out.n, out.n + 4);
          out.n += 4;
        } else {
          const c = ch - 33;
          if (c < 0 || c > 84) continue;
          group.push(c);
          if (group.length === 5) {
            emit(group, 4);
            group = [];
          }
        }
        if (out.full) yield* out.take();
      }
      yield* out.take();
    },
    *flush() {
      if (group.length > 1) {
        const n = group.length - 1;
        while (group.length < 5) group.push(84);
        emit(group, n);
      }
      group = [];
      yield* out.take();
    },
  };
}

function runLengthDecoder(countOnly: boolean): Decoder {
  const out = new Out(countOnly);
  // literal > 0: bytes still to copy; repeat: the next byte is repeated this many times.
  let literal = 0;
  let repeat = 0;
  let ended = false;
  return {
    *feed(chunk) {
      for (const b of chunk) {
        if (ended) break;
        if (literal > 0) {
          literal--;
          out.buf[out.n++] = b;
        } else if (repeat > 0) {
          out.buf.fill(b, out.n, out.n + repeat);
          out.n += repeat;
          repeat = 0;
        } else if (b === 128) ended = true;
        else if (b < 128) literal = b + 1;
        else repeat = 257 - b;
        if (out.full) yield* out.take();
      }
      yield* out.take();
    },
    *flush() {
      yield* out.take();
    },
  };
}

/** PDF's LZW (ISO 32000-1, 7.4.4): 9- to 12-bit codes, MSB first, 256 clears, 257 ends. */
function lzwDecoder(earlyChange: boolean, countOnly: boolean): Decoder {
  const out = new Out(countOnly);
  const prefix = new Int32Array(4096);
  const suffix = new Uint8Array(4096);
  // Each string's first byte, kept so that defining an entry costs O(1), not a walk down its prefixes.
  const head = new Uint8Array(4096);
  const length = new Uint16Array(4096);
  for (let i = 0; i < 256; i++) {
    prefix[i] = -1;
    suffix[i] = i;
    head[i] = i;
    length[i] = 1;
  }
  let next = 258;
  let width = 9;
  let prev = -1;
  let bits = 0;
  let nbits = 0;
  let ended = false;
  const write = (code: number): void => {
    const n = length[code]!;
    if (!out.countOnly) for (let c = code, i = out.n + n - 1; i >= out.n; i--, c = prefix[c]!) out.buf[i] = suffix[c]!;
    out.n += n;
  };
  /** Decodes from chunk[from] until the chunk ends or a piece is full; returns where it stopped. */
  const step = (chunk: Buffer, from: number): number => {
    let at = from;
    while (at < chunk.length && !ended && !out.full) {
      bits = ((bits << 8) | chunk[at++]!) & 0xffffff;
      nbits += 8;
      while (nbits >= width && !ended) {
        const code = (bits >>> (nbits - width)) & ((1 << width) - 1);
        nbits -= width;
        if (code === 256) {
          next = 258;
          width = 9;
          prev = -1;
        } else if (code === 257 || (prev < 0 && code > 255) || code > next) {
          // The end, or a code not yet defined (damaged data, where pdf.js stops too).
          ended = true;
        } else if (prev < 0) {
          write(code);
          prev = code;
        } else {
          if (next < 4096) {
            prefix[next] = prev;
            suffix[next] = code < next ? head[code]! : head[prev]!;
            head[next] = head[prev]!;
            length[next] = length[prev]! + 1;
            next++;
          }
          // Defined by now: either before, or just above (a code that names the entry it defines).
          write(code);
          prev = code;
          const grow = next + (earlyChange ? 1 : 0);
          width = grow >= 2048 ? 12 : grow >= 1024 ? 11 : grow >= 512 ? 10 : 9;
        }
      }
    }
    return at;
  };
  return {
    *feed(chunk) {
      for (let at = 0; at < chunk.length && !ended; ) {
        at = step(chunk, at);
        if (out.full) yield* out.take();
      }
      yield* out.take();
    },
    *flush() {
      yield* out.take();
    },
  };
}

type Transform = (source: AsyncIterable<Buffer>) => AsyncGenerator<Buffer>;

function pulled(make: () => Decoder): Transform {
  return async function* (source) {
    const d = make();
    for await (const chunk of source) yield* d.feed(chunk);
    yield* d.flush();
  };
}

class OverLimit extends Error {}

/**
 * Bytes the chain decodes `data` to, counted as they leave its last stage; stops once over `limit`.
 * Each stage pulls from the one before only when the next asks, so no stage holds more than a piece.
 */
async function decodedCount(data: Buffer, chain: Stage[], limit: number, earlyChange: boolean): Promise<number> {
  let n = 0;
  const stages = chain.map((s, i) => {
    const last = i === chain.length - 1;
    if (s === 'flate') return zlib.createInflate({ chunkSize: 4 * PIECE });
    if (s === 'lzw') return pulled(() => lzwDecoder(earlyChange, last));
    if (s === 'rl') return pulled(() => runLengthDecoder(last));
    return pulled(() => (s === 'hex' ? hexDecoder(last) : a85Decoder(last)));
  });
  const slices = function* (): Generator<Buffer> {
    for (let i = 0; i < data.length; i += 16 * 1024) yield data.subarray(i, i + 16 * 1024);
  };
  try {
    // The variadic form mixes streams and generator functions, which its overloads do not type.
    await (pipeline as (...parts: unknown[]) => Promise<void>)(Readable.from(slices(), { objectMode: false, highWaterMark: 1 }), ...stages, async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) {
        n += chunk.length;
        if (n > limit) throw new OverLimit();
      }
    });
  } catch {
    // Over the limit, or a damaged stream, which is pdf.js's to judge: what decoded so far is what counts.
  }
  return n;
}
