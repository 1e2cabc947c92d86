/**
 * Light PDF rules the fetch path needs before (or without) loading the PDF reader: recognising a PDF, and
 * the arXiv rule that a paper's abstract or HTML page is read through its PDF (SPEC 4.1 "PDF text").
 */

export const PDF_TYPES: ReadonlySet<string> = new Set(['application/pdf', 'application/x-pdf', 'application/acrobat']);

/** Types servers send for "some file": read as a PDF when the bytes say so, refused otherwise. */
export const GENERIC_TYPES: ReadonlySet<string> = new Set([
  'application/octet-stream',
  'binary/octet-stream',
  'application/download',
  'application/x-download',
  'application/force-download',
  'application/unknown',
]);

/** `%PDF-` within the first 1024 bytes, where readers accept it. */
export function hasPdfSignature(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024));
  return head.indexOf('%PDF-', 0, 'latin1') !== -1;
}

/**
 * The URL to fetch for `url`, whose canonical key is `key`: an arXiv abstract or HTML page is replaced by
 * the paper's PDF on the same origin (any other form, such as arXiv's DOI, by the PDF on arxiv.org), so the one source stored under `arxiv:<id>` holds the full text
 * whichever form is fetched first. Any other URL is fetched as given.
 */
export function fullTextUrl(url: string, key: string): string {
  const m = /^arxiv:(.+)$/.exec(key);
  if (!m) return url;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  const host = u.hostname.toLowerCase().replace(/^www\./, '');
  // A DOI of arXiv (10.48550/arXiv.…) resolves to the abstract page; go to the PDF directly.
  if (host !== 'arxiv.org' && host !== 'export.arxiv.org') return `https://arxiv.org/pdf/${m[1]}`;
  if (/^\/pdf\//i.test(u.pathname)) return url;
  return `${u.origin}/pdf/${m[1]}`;
}
