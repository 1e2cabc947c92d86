/**
 * Bytes → text with the charset a browser would pick. `Response.text()` always assumes UTF-8 and Node 20's
 * TextDecoder maps windows-1252 to latin1 (smart quotes come out as C1 controls), so decoding goes through
 * the WHATWG sniffing algorithm (html-encoding-sniffer) and iconv-lite.
 */
import sniffHTMLEncoding from 'html-encoding-sniffer';
import iconv from 'iconv-lite';

/** Parsed `Content-Type`: lower-cased media type and the raw charset parameter, if any. */
export interface MediaType {
  type: string;
  charset?: string;
}

export function parseContentType(header: string | undefined): MediaType | undefined {
  if (!header) return undefined;
  const [head, ...params] = header.split(';');
  const type = (head ?? '').trim().toLowerCase();
  if (!type) return undefined;
  const out: MediaType = { type };
  for (const p of params) {
    const m = /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p);
    if (m?.[1]) out.charset = m[1];
  }
  return out;
}

// A label no real encoding uses: tells "nothing declared" apart from "declared windows-1252".
const UNDECLARED = 'x-deep-research-undeclared';

/**
 * Decodes a response body. HTML follows the WHATWG order (BOM, header charset, <meta> prescan); when
 * nothing is declared, valid UTF-8 is read as UTF-8 and anything else as windows-1252, the web's legacy
 * default. Plain text and markdown skip the <meta> prescan.
 */
export function decodeBody(bytes: Uint8Array, media: MediaType | undefined, isHtml: boolean): { text: string; encoding: string } {
  let encoding: string;
  if (isHtml) {
    encoding = sniffHTMLEncoding(bytes, {
      ...(media?.charset ? { transportLayerEncodingLabel: media.charset } : {}),
      defaultEncoding: UNDECLARED,
    });
  } else {
    encoding = bomEncoding(bytes) ?? (media?.charset ? labelOrUndeclared(media.charset) : UNDECLARED);
  }
  if (encoding === UNDECLARED) encoding = isValidUtf8(bytes) ? 'UTF-8' : 'windows-1252';
  // "replacement" is the WHATWG answer for labels that are dangerous to honour (e.g. ISO-2022-KR):
  // reading the bytes as UTF-8 loses less than emitting a single U+FFFD.
  if (encoding === 'replacement' || encoding === 'x-user-defined' || !iconv.encodingExists(encoding)) encoding = 'UTF-8';
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // iconv-lite strips a BOM matching the encoding by default.
  return { text: iconv.decode(buf, encoding), encoding };
}

function bomEncoding(b: Uint8Array): string | undefined {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return 'UTF-8';
  if (b[0] === 0xfe && b[1] === 0xff) return 'UTF-16BE';
  if (b[0] === 0xff && b[1] === 0xfe) return 'UTF-16LE';
  return undefined;
}

function labelOrUndeclared(label: string): string {
  // Reuse the sniffer's WHATWG label table by giving it an otherwise empty buffer.
  return sniffHTMLEncoding(new Uint8Array(0), { transportLayerEncodingLabel: label, defaultEncoding: UNDECLARED });
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}
