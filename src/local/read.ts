// A file of an allowed root as a source: the same extraction, completeness, PDF and readable-length rules
// as a fetched page (src/fetch/pipeline.ts), from bytes read on disk instead of over the network.
import path from 'node:path';
import { gzipped, type LocalRef } from './open.js';
import type { PageRange } from '../engine/page-range.js';
import type { ReadText } from '../fetch/pipeline.js';

export type LocalFormat = 'pdf' | 'html' | 'markdown' | 'text' | 'docx';

const FORMATS: Record<string, LocalFormat> = {
  '.pdf': 'pdf',
  '.html': 'html',
  '.htm': 'html',
  '.xhtml': 'html',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.txt': 'text',
  '.text': 'text',
  '.rst': 'text',
  '.yaml': 'text',
  '.yml': 'text',
  '.docx': 'docx',
};

export const READ_FORMATS = 'PDF, HTML, Markdown, plain text (.txt, .rst, .yaml) and DOCX, each also gzipped (.gz)';

/**
 * The format a file is read as, by its extension; undefined for any other file. A gzipped file is read
 * as what its name is without `.gz`: Debian compresses most of a package's documentation
 * (/usr/share/doc/debian-policy holds 13 such files, Policy's list of virtual package names among them,
 * which trial 70 was refused).
 */
export function formatOf(rel: string): LocalFormat | undefined {
  return FORMATS[path.posix.extname(gzipped(rel) ? rel.slice(0, -3) : rel).toLowerCase()];
}

export interface LocalReadOk extends ReadText {
  ok: true;
}

export type LocalRead = LocalReadOk | { ok: false; message: string };

/** Extracts a local file's readable text as markdown, sanitised; refuses one with too little text. */
export async function readLocalSource(ref: LocalRef, bytes: Uint8Array, o: { full?: boolean; pages?: PageRange } = {}): Promise<LocalRead> {
  const format = formatOf(ref.rel);
  if (format === undefined) return { ok: false, message: `${ref.key} is not a file this server reads (${READ_FORMATS})` };
  const pipeline = await import('../fetch/pipeline.js');
  const { sanitizeText } = await import('../fetch/untrusted.js');
  const fileName = path.posix.basename(ref.rel);
  const short = (readable: number, what: string) => ({
    ok: false as const,
    message: `${ref.key} has only ${readable} characters of readable text (under ${pipeline.MIN_READABLE_CHARS})${what}: it cannot be used as a source. Read another file`,
  });
  if (o.pages && format !== 'pdf') return { ok: false, message: `${ref.key} is not a PDF, and pages reads a span of a PDF: leave pages out` };
  if (format === 'pdf') {
    const { readPdf } = await import('../fetch/pdf/read.js');
    const pdf = await readPdf(bytes, ref.key, pipeline.rangeRead(o.pages));
    if (!pdf.ok) return { ok: false, message: pdf.message };
    const markdown = sanitizeText(pdf.markdown);
    const readable = pipeline.readableLength(markdown.replace(/^<!-- page \d+ -->$/gm, ''));
    if (readable < pipeline.MIN_READABLE_CHARS) return short(readable, '; it has no text layer (scanned pages or images)');
    return {
      ok: true,
      title: sanitizeText(pdf.title).trim() || fileName,
      markdown,
      kind: 'pdf',
      ...pipeline.pdfFields(pdf, sanitizeText),
    };
  }
  const { decodeBody } = await import('../fetch/decode.js');
  let body: string;
  let type: string;
  let whole = o.full === true;
  if (format === 'docx') {
    const mammoth = (await import('mammoth')).default;
    try {
      body = (await mammoth.convertToHtml({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) })).value;
    } catch {
      return { ok: false, message: `${ref.key} is not a readable DOCX file (damaged, encrypted or another format under a .docx name)` };
    }
    type = 'text/html';
    // A document is all content, no navigation to leave out: it is read whole.
    whole = true;
  } else {
    type = format === 'html' ? 'text/html' : format === 'markdown' ? 'text/markdown' : 'text/plain';
    body = decodeBody(bytes, { type }, format === 'html').text;
  }
  // On the extraction thread, as a fetched page is: a large local page holds no other call meanwhile.
  const extracted = await pipeline.extractOffThread({ body, contentType: type, url: ref.key, ...(whole ? { full: true } : {}) });
  const markdown = sanitizeText(extracted.markdown);
  const readable = pipeline.readableLength(markdown);
  if (readable < pipeline.MIN_READABLE_CHARS) return short(readable, '');
  const title = sanitizeText(extracted.title).trim();
  return {
    ok: true,
    title: title === '' || title === ref.key ? fileName : title,
    markdown,
    kind: format === 'html' || format === 'docx' ? 'html' : 'text',
    ...(extracted.kept !== undefined ? { kept: extracted.kept, leftOut: (extracted.leftOut ?? []).map((h) => sanitizeText(h)) } : {}),
    ...(o.full === true && format === 'html' ? { full: true } : {}),
  };
}
