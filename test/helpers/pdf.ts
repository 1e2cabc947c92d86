// Minimal PDFs written byte by byte, so each edge case (encrypted, no text layer, 400 pages, truncated,
// a bomb, hostile text) is generated in the test that needs it rather than stored as a binary.
import zlib from 'node:zlib';

export interface PdfSpec {
  /** Lines of text per page, drawn top-down in Helvetica 11 pt. */
  pages: string[][];
  /** Page content drawn instead of text: the PDF has no text layer. */
  imageOnly?: boolean;
  /** An /Encrypt dictionary whose user password is not empty. */
  encrypted?: boolean;
  /** Bookmarks: [title, page number]. */
  outline?: Array<[string, number]>;
  title?: string;
  /** Extra page-1 content stream, Flate-compressed as given (for bombs). */
  rawStream?: Buffer;
  /** rawStream under a first filter before its Flate: ASCIIHex, RunLength (literal runs), LZW, or Flate again. */
  wrap?: 'hex' | 'runlength' | 'flate' | 'lzw';
  /** Page 1's content stream as given, under the given /Filter value (overrides rawStream). */
  stream?: { data: Buffer; filter: string };
}

function esc(s: string): string {
  return s.replace(/[\\()]/g, (c) => `\\${c}`);
}

export function makePdf(spec: PdfSpec): Buffer {
  const objects: Array<string | Buffer> = [];
  const add = (body: string | Buffer): number => objects.push(body);
  const catalog = add('');
  const pagesObj = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const pageIds: number[] = [];
  spec.pages.forEach((lines, i) => {
    let content: Buffer;
    if (i === 0 && spec.stream) {
      const { data, filter } = spec.stream;
      content = Buffer.concat([Buffer.from(`<< /Length ${data.length} /Filter ${filter} >>\nstream\n`, 'latin1'), data, Buffer.from('\nendstream', 'latin1')]);
    } else if (i === 0 && spec.rawStream) {
      const raw = spec.rawStream;
      const data =
        spec.wrap === 'hex'
          ? Buffer.from(`${raw.toString('hex')}>`, 'latin1')
          : spec.wrap === 'runlength'
            ? Buffer.concat([...Array.from({ length: Math.ceil(raw.length / 128) }, (_, k) => { const part = raw.subarray(k * 128, k * 128 + 128); return Buffer.concat([Buffer.from([part.length - 1]), part]); }), Buffer.from([128])])
            : spec.wrap === 'flate'
              ? zlib.deflateSync(raw)
              : spec.wrap === 'lzw'
                ? lzw(raw)
                : raw;
      const filter = spec.wrap ? `[/${{ hex: 'ASCIIHexDecode', runlength: 'RunLengthDecode', flate: 'FlateDecode', lzw: 'LZWDecode' }[spec.wrap]} /FlateDecode]` : '/FlateDecode';
      content = Buffer.concat([Buffer.from(`<< /Length ${data.length} /Filter ${filter} >>\nstream\n`, 'latin1'), data, Buffer.from('\nendstream', 'latin1')]);
    } else {
      const ops = spec.imageOnly
        ? '0.2 0.4 0.8 rg 72 72 450 650 re f 1 1 1 rg 100 100 50 50 re f'
        : `BT /F1 11 Tf 14 TL 72 740 Td ${lines.map((l) => `(${esc(l)}) Tj T*`).join(' ')} ET`;
      content = Buffer.from(`<< /Length ${Buffer.byteLength(ops, 'latin1')} >>\nstream\n${ops}\nendstream`, 'latin1');
    }
    const c = add(content);
    pageIds.push(add(`<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${c} 0 R >>`));
  });
  objects[pagesObj - 1] = `<< /Type /Pages /Kids [${pageIds.map((p) => `${p} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;
  let outlines = '';
  if (spec.outline && spec.outline.length > 0) {
    const root = add('');
    const ids = spec.outline.map(() => add(''));
    spec.outline.forEach(([title, page], i) => {
      const links = `${i > 0 ? ` /Prev ${ids[i - 1]} 0 R` : ''}${i + 1 < ids.length ? ` /Next ${ids[i + 1]} 0 R` : ''}`;
      objects[ids[i]! - 1] = `<< /Title (${esc(title)}) /Parent ${root} 0 R /Dest [${pageIds[page - 1]} 0 R /Fit]${links} >>`;
    });
    objects[root - 1] = `<< /Type /Outlines /First ${ids[0]} 0 R /Last ${ids[ids.length - 1]} 0 R /Count ${ids.length} >>`;
    outlines = ` /Outlines ${root} 0 R`;
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R${outlines} >>`;
  const info = add(`<< /Title (${esc(spec.title ?? '')}) /Producer (deep-research tests) >>`);
  let encrypt = '';
  if (spec.encrypted) {
    const hex = (n: number) => Buffer.alloc(32, n).toString('hex');
    const e = add(`<< /Filter /Standard /V 1 /R 2 /Length 40 /O <${hex(0x41)}> /U <${hex(0x42)}> /P -4 >>`);
    encrypt = ` /Encrypt ${e} 0 R`;
  }
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((body, i) => {
    offsets.push(length);
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, 'latin1'), typeof body === 'string' ? Buffer.from(body, 'latin1') : body, Buffer.from('\nendobj\n', 'latin1')]);
    parts.push(chunk);
    length += chunk.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  const id = '<00112233445566778899aabbccddeeff>';
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R /Info ${info} 0 R${encrypt} /ID [${id} ${id}] >>\nstartxref\n${length}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

/** Sentences enough for a page to pass the 200-character "not a source" floor. */
export function prose(page: number, lines = 6): string[] {
  return Array.from({ length: lines }, (_, i) => `Page ${page} line ${i + 1} reports that the measured output of the trial stayed level over time.`);
}

/** A content stream that inflates to `mib` MiB of zeros from about a thousandth of that on the wire. */
export function zeroBomb(mib: number): Buffer {
  const d = zlib.deflateSync(Buffer.alloc(mib * 1024 * 1024), { level: 9 });
  return d;
}

/** MSB-first bit packing for LZW codes. */
class Bits {
  private bytes: number[] = [];
  private acc = 0;
  private n = 0;
  put(code: number, width: number): void {
    this.acc = (this.acc << width) | code;
    this.n += width;
    while (this.n >= 8) {
      this.bytes.push((this.acc >>> (this.n - 8)) & 0xff);
      this.n -= 8;
    }
    this.acc &= (1 << this.n) - 1;
  }
  end(): Buffer {
    if (this.n > 0) this.bytes.push((this.acc << (8 - this.n)) & 0xff);
    return Buffer.from(this.bytes);
  }
}

/** The width of the j-th code after a clear, as a PDF reader with EarlyChange 1 reads it. */
const lzwWidth = (j: number): number => {
  const x = 258 + j;
  return j === 0 ? 9 : x >= 2048 ? 12 : x >= 1024 ? 11 : x >= 512 ? 10 : 9;
};

/** PDF LZW (EarlyChange 1), clearing the table before it fills: a test encoder for real data. */
export function lzw(data: Buffer): Buffer {
  const out = new Bits();
  let dict = new Map<number, number>();
  let j = 0;
  out.put(256, 9);
  let w = -1;
  const emit = (code: number) => out.put(code, lzwWidth(j++));
  for (const b of data) {
    if (w < 0) {
      w = b;
      continue;
    }
    const key = w * 256 + b;
    const hit = dict.get(key);
    if (hit !== undefined) {
      w = hit;
      continue;
    }
    emit(w);
    if (258 + dict.size < 4094) dict.set(key, 258 + dict.size);
    else {
      emit(256);
      dict = new Map();
      j = 0;
    }
    w = b;
  }
  if (w >= 0) emit(w);
  emit(257);
  return out.end();
}

/**
 * An LZW stream of `mib` MiB of zeros (about 1,300 to 1 on the wire), written code by code: zeros encode
 * as 0, 258, 259, … each code one zero longer than the last, so nothing of the size is ever held.
 */
export function lzwZeros(mib: number): Buffer {
  const out = new Bits();
  let left = mib * 1024 * 1024;
  let j = 0;
  out.put(256, 9);
  while (left > 0) {
    out.put(0, lzwWidth(j++));
    left -= 1;
    for (let code = 258; code < 4094 && left > 0; code++) {
      out.put(code, lzwWidth(j++));
      left -= code - 256;
    }
    out.put(256, lzwWidth(j));
    j = 0;
  }
  out.put(257, lzwWidth(j));
  return out.end();
}
