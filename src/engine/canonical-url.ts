// URL identity (SPEC 4.1): one key per document, however the URL was dressed up.
import { rangeOf, withoutRange, withRange } from './page-range.js';
import normalizeUrl from 'normalize-url';
import { InputError } from '../errors.js';
import { isLocalKey, localCanonicalKey } from './local-key.js';

/** Query parameters that only track the visitor; matched case-insensitively, never part of identity. */
export const TRACKING_PARAMS: readonly string[] = [
  'fbclid',
  'gclid',
  'gclsrc',
  'gbraid',
  'wbraid',
  'dclid',
  'msclkid',
  'yclid',
  'twclid',
  'ttclid',
  'li_fat_id',
  'mc_cid',
  'mc_eid',
  'igshid',
  'igsh',
  'ref',
  'ref_src',
  'ref_url',
  '_hsenc',
  '_hsmi',
  '__hstc',
  '__hssc',
  '__hsfp',
  'hsctatracking',
  'mkt_tok',
  'spm',
  'scm',
  '_ga',
  '_gl',
  'oly_anon_id',
  'oly_enc_id',
  'vero_id',
  'vero_conv',
  'wt_mc',
  's_cid',
];

/** Prefixes of tracking-parameter families (utm_source, utm_medium, …). */
export const TRACKING_PARAM_PREFIXES: readonly string[] = ['utm_'];

const TRACKING_SET = new Set(TRACKING_PARAMS);

export function isTrackingParam(name: string): boolean {
  const lower = name.toLowerCase();
  return TRACKING_SET.has(lower) || TRACKING_PARAM_PREFIXES.some((p) => lower.startsWith(p));
}

// Not preceded by a word character or a dot, so "2310.12345" (an arXiv id) is not read as a DOI.
const DOI_PATTERN = /(?<![\w.])10\.\d{4,9}\/[^\s?#]+/i;
const VALID_DOI = /^10\.\d{4,9}\/\S+$/;

// Publisher URLs put views of the article after the DOI; they are not part of it.
const DOI_VIEW_SUFFIX =
  /(?:\/(?:full|fulltext|full-text|pdf|epdf|pdfft|pdfdirect|abstract|summary|html|xml|meta|references|citedby|figures|tables|suppl|supplemental|supplementary|download|reader|view|epub)|\.(?:pdf|html?|xml|full|abstract|short|long|epub)|\/|;jsessionid=.*)$/;

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function decodesCleanly(path: string): boolean {
  try {
    decodeURI(path);
    return true;
  } catch {
    return false;
  }
}

function count(s: string, ch: string): number {
  let n = 0;
  for (const c of s) if (c === ch) n++;
  return n;
}

function cleanDoi(found: string): string {
  let doi = found.toLowerCase();
  for (;;) {
    let next = doi.replace(/[.,;:'"\]>]+$/, '');
    // A closing bracket belongs to the DOI only when it closes one opened inside it, as in (SICI)…
    while (next.endsWith(')') && count(next, ')') > count(next, '(')) next = next.slice(0, -1);
    const stripped = next.replace(DOI_VIEW_SUFFIX, '');
    if (VALID_DOI.test(stripped)) next = stripped;
    // Stop before a strip would leave no suffix: then what looked like a view name was the DOI.
    if (next === doi || !VALID_DOI.test(next)) return doi;
    doi = next;
  }
}

function findDoi(url: URL): string | undefined {
  const places = [safeDecode(url.pathname), ...[...url.searchParams.values()]];
  for (const place of places) {
    const m = DOI_PATTERN.exec(place);
    if (m) return cleanDoi(m[0]);
  }
  return undefined;
}

const ARXIV_NEW = /^(\d{4}\.\d{4,5})(?:v\d+)?$/i;
const ARXIV_OLD = /^([a-z-]+)(\.[a-z]{2})?\/(\d{7})(?:v\d+)?$/i;

/** The version-free arXiv id of `raw`, or undefined when it is not an arXiv id. */
function arxivId(raw: string): string | undefined {
  const id = raw.replace(/^arxiv:/i, '');
  const modern = ARXIV_NEW.exec(id);
  if (modern) return modern[1];
  const old = ARXIV_OLD.exec(id);
  if (old) return `${old[1]!.toLowerCase()}${(old[2] ?? '').toUpperCase()}/${old[3]}`;
  return undefined;
}

function findArxiv(url: URL): string | undefined {
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  if (host !== 'arxiv.org' && host !== 'export.arxiv.org') return undefined;
  const m = /^\/(?:abs|pdf|html|format|ps)\/(.+?)\/?$/.exec(safeDecode(url.pathname));
  if (!m) return undefined;
  return arxivId(m[1]!.replace(/\.pdf$/i, ''));
}

function parseHttpUrl(raw: string): URL {
  const trimmed = raw.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new InputError(
      `"${raw.slice(0, 200)}" is not a valid URL: send an absolute http(s) URL such as https://example.org/page`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InputError(
      `"${raw.slice(0, 200)}" uses the ${url.protocol} scheme: only http and https URLs can be sources`,
    );
  }
  if (!url.hostname) {
    throw new InputError(`"${raw.slice(0, 200)}" has no host name: send an absolute http(s) URL`);
  }
  return url;
}

/**
 * Canonical identity of a URL: `doi:<doi>`, `arxiv:<id>` or `host/path?sorted-params`.
 * Throws InputError for anything that is not an absolute http(s) URL.
 */
export function canonicalKey(raw: string): string {
  // A span of a PDF read as its own source keeps its range: a fact quoting it grounds in that source.
  const range = rangeOf(raw.trim());
  if (range) return withRange(canonicalKey(withoutRange(raw.trim())), range);
  if (isLocalKey(raw)) return localCanonicalKey(raw);
  const url = parseHttpUrl(raw);

  const arxiv = findArxiv(url);
  if (arxiv) return `arxiv:${arxiv}`;

  const doi = findDoi(url);
  if (doi) {
    // arXiv registers DOIs for its preprints; the same paper must not get two keys.
    const viaDoi = /^10\.48550\/arxiv\.(.+)$/.exec(doi);
    const id = viaDoi ? arxivId(viaDoi[1]!) : undefined;
    return id ? `arxiv:${id}` : `doi:${doi}`;
  }

  let key = genericKey(url);
  // normalize-url collapses duplicate slashes before it decodes, and the URL parser silently drops
  // some decoded characters (tab, newline), so one pass is not always a fixpoint; a key must be.
  for (let pass = 0; pass < 3; pass++) {
    const again = genericKey(new URL(`https://${key}`));
    if (again === key) break;
    key = again;
  }
  return key;
}

/** host/path?sorted-params for a parsed http(s) URL; mutates `url`. */
function genericKey(url: URL): string {
  const query = new URLSearchParams(url.search);
  url.search = '';
  url.hash = '';
  // normalize-url decodes the path with decodeURI (when that succeeds), which turns %25 into a bare
  // "%" and makes the next octet look like an escape; doubling it first keeps a literal "%" literal.
  if (decodesCleanly(url.pathname)) url.pathname = url.pathname.replace(/%25/gi, '%2525');

  const base = normalizeUrl(url.href, {
    stripProtocol: true,
    stripHash: true,
    stripWWW: true,
    removeTrailingSlash: true,
    removeSingleSlash: true,
    removeQueryParameters: true,
  });

  // The query is rebuilt here rather than by normalize-url, whose sorting decodes the whole query
  // string and so merges "q=a%26b" into two parameters; URLSearchParams round-trips exactly.
  const kept = new URLSearchParams();
  for (const [name, value] of query) if (!isTrackingParam(name)) kept.append(name, value);
  kept.sort();
  const search = kept.toString();
  return search ? `${base}?${search}` : base;
}
