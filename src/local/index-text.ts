// What the search index holds of a file: its words, not its markdown. HTML takes one streaming parse
// (html-text.ts) instead of Readability and turndown, which cost far more and only shape text the index
// does not show; fetch_source still reads the file through the full pipeline.
// PDFs go through the server's PDF reader, DOCX through mammoth's raw text (both loaded on first need).
import path from 'node:path';
import { decodeBody } from '../fetch/decode.js';
import { sanitizeText } from '../fetch/untrusted.js';
import { htmlText, TooDeep } from './html-text.js';
import type { LocalRef } from './open.js';
import { formatOf } from './read.js';

export interface IndexText {
  title: string;
  text?: string;
  skipped?: string;
}

export async function indexText(ref: LocalRef, bytes: Uint8Array): Promise<IndexText> {
  const format = formatOf(ref.rel);
  const fileName = path.posix.basename(ref.rel);
  const done = (title: string, raw: string): IndexText => {
    const text = sanitizeText(raw).replace(/[ \t]+/g, ' ').replace(/\s*\n\s*/g, '\n').trim();
    return text.length < 20 ? { title: fileName, skipped: `${ref.key} holds no text to index` } : { title: sanitizeText(title).trim() || fileName, text };
  };
  if (format === 'pdf') {
    const { readPdf } = await import('../fetch/pdf/read.js');
    const pdf = await readPdf(bytes, ref.key);
    if (!pdf.ok) return { title: fileName, skipped: pdf.message };
    return done(pdf.title, pdf.markdown.replace(/^<!-- page \d+ -->$/gm, ''));
  }
  if (format === 'docx') {
    const mammoth = (await import('mammoth')).default;
    try {
      const raw = (await mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) })).value;
      return done(raw.split('\n').find((l) => l.trim() !== '') ?? fileName, raw);
    } catch {
      return { title: fileName, skipped: `${ref.key} is not a readable DOCX file` };
    }
  }
  const html = format === 'html';
  const body = decodeBody(bytes, { type: html ? 'text/html' : 'text/plain' }, html).text;
  if (!html) return done(/^#\s+(.+)$/m.exec(body)?.[1] ?? fileName, body);
  try {
    const page = htmlText(body);
    return done(page.title ?? fileName, page.text);
  } catch (err) {
    return { title: fileName, skipped: `${ref.key} ${err instanceof TooDeep ? `has ${err.message}: it is not indexed` : 'could not be parsed as HTML'}` };
  }
}
