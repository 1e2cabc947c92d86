/**
 * One guarded HTTP GET for fetch_source: address policy on every hop and every resolved address, manual
 * redirects, a total deadline per attempt, a cap on decoded bytes, content-type allow-list, charset
 * decoding, and retries of transient failures. It never throws for anything a server or URL can do.
 */
import dns from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { STATUS_CODES } from 'node:http';
import { Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { Agent, request } from 'undici';
import { decodeBody, parseContentType } from './decode.js';
import { GENERIC_TYPES, PDF_TYPES, hasPdfSignature } from './pdf/detect.js';
import { checkAddress, checkUrl, effectivePort, isAllowListed } from './url-guard.js';
import { fenceServerValue } from './untrusted.js';

export type LookupFunction = (
  hostname: string,
  options: LookupOptions,
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

export interface FetchOptions {
  /** `host:port` entries that bypass the address policy; see url-guard.ts for how they match. */
  allowHosts: ReadonlySet<string>;
  /** Deadline for one attempt, redirects and body included (ms). Default 20 000. */
  timeoutMs?: number;
  /** Deadline for the whole call, every attempt and wait included (ms). Default 45 000. */
  totalTimeoutMs?: number;
  /** Cap on the decoded (decompressed) body (bytes). Default 5 MiB. */
  maxBytes?: number;
  /** Cap for a body served as a PDF (bytes). Default 32 MiB, never below maxBytes. */
  maxPdfBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  /** Extra attempts after a transient failure. Default 2. */
  retries?: number;
  /** First backoff delay (ms); doubles per retry, with jitter. Default 500. */
  baseDelayMs?: number;
  /** DNS resolver, `dns.lookup`-shaped; every address it returns is checked. Default `dns.lookup`. */
  lookup?: LookupFunction;
  /** Wall-clock limit for parsing one PDF (ms); see pdf/read.ts. */
  pdfTimeoutMs?: number;
  onProgress?: (message: string) => void;
  signal?: AbortSignal;
}

export interface FetchOk {
  ok: true;
  finalUrl: string;
  /** How a message names finalUrl: clipped, and fenced when a redirect chose it (SPEC 7). */
  shownUrl: string;
  status: number;
  /** Media type without parameters, e.g. `text/html`. */
  contentType: string;
  /** Decoded text; empty for a PDF, whose bytes are in `raw`. */
  body: string;
  /** The body's bytes, for a PDF (`contentType` is then `application/pdf`). */
  raw?: Uint8Array;
  /** Decoded size in bytes. */
  bytes: number;
  attempts: number;
}

export type FetchFailKind = 'refused' | 'network' | 'timeout' | 'http' | 'content-type' | 'too-large';

export interface FetchFail {
  ok: false;
  kind: FetchFailKind;
  /** What happened and what to do next; never contains page text. */
  message: string;
  status?: number;
  attempts: number;
  /** False for address-policy refusals and caller cancellations (neither counts toward degraded mode). */
  reachedNetwork: boolean;
}

export const DEFAULT_TIMEOUT_MS = 20_000;
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
/**
 * A PDF may be larger: a reference manual runs to thousands of pages (R's refman.pdf is 6.2 MiB, and a real
 * run lost the very pages its question needed to the page cap). Its parse has limits of its own (pages read,
 * the bomb pre-check, the parse worker's memory and time), so only the body's own size is capped here.
 */
export const PDF_MAX_BYTES = 32 * 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 5;
export const DEFAULT_RETRIES = 2;
export const DEFAULT_BASE_DELAY_MS = 500;
/**
 * One fetch_source call, retries and a PDF's parse included, ends well inside the MCP SDK's 60 s request
 * timeout, after which a client gives up and never sees the answer.
 */
export const DEFAULT_TOTAL_TIMEOUT_MS = 45_000;
/** Longest Retry-After honoured; a server asking for more is not retried at all. */
export const MAX_RETRY_AFTER_MS = 10_000;

const READABLE_TYPES = new Set(['text/html', 'application/xhtml+xml', 'text/plain', 'text/markdown', 'text/x-markdown']);
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ECONNABORTED',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);
const HEADERS = {
  'user-agent': 'Mozilla/5.0 (compatible; deep-research/0.1; research fetcher)',
  accept: 'text/html,application/xhtml+xml;q=0.9,text/markdown;q=0.8,text/plain;q=0.8,application/pdf;q=0.8,*/*;q=0.1',
  'accept-encoding': 'gzip, deflate, br',
  'accept-language': 'en;q=1.0, *;q=0.5',
};
const NO_ALLOW: ReadonlySet<string> = new Set();

type Attempt =
  | (Omit<FetchOk, 'attempts'>)
  | (Omit<FetchFail, 'attempts'> & { transient: boolean; retryAfterMs?: number; /** What went wrong, in a few words, for the account of a call's time. */ why?: string });

/**
 * How long the next attempt may take, so that it ends by the call's deadline: at most one attempt's own
 * limit, and none at all (undefined) when too little is left after the wait to be worth a try.
 */
export function nextAttemptMs(elapsedMs: number, waitMs: number, totalMs: number, perAttemptMs: number): number | undefined {
  const left = totalMs - elapsedMs - waitMs;
  return left < Math.min(2_000, totalMs / 10) ? undefined : Math.min(perAttemptMs, left);
}

/**
 * What the call keeps of its deadline for the rest of its work once fetching has failed (the refusal, the
 * run's tally): fetching stops this much before the deadline, so the whole call answers inside it.
 */
export function replyReserveMs(totalMs: number): number {
  return Math.min(1_000, totalMs / 20);
}

export async function fetchPage(url: string, opts: FetchOptions): Promise<FetchOk | FetchFail> {
  const retries = Math.max(0, opts.retries ?? DEFAULT_RETRIES);
  const baseDelay = Math.max(0, opts.baseDelayMs ?? DEFAULT_BASE_DELAY_MS);
  const perAttempt = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const total = opts.totalTimeoutMs ?? DEFAULT_TOTAL_TIMEOUT_MS;
  const spendable = total - replyReserveMs(total);
  const started = Date.now();
  let attemptMs = Math.min(perAttempt, spendable);
  // What the call's time went on, attempt by attempt: a refusal after retries says all of it.
  const spent: string[] = [];
  for (let attempt = 1; ; attempt++) {
    opts.onProgress?.(`Fetching ${clip(url)} (attempt ${attempt} of ${retries + 1})`);
    const t0 = Date.now();
    const r = await attemptOnce(url, { ...opts, timeoutMs: attemptMs });
    if (r.ok) return { ...r, attempts: attempt };
    const { transient, retryAfterMs, why, ...fail } = r;
    spent.push(`attempt ${attempt} ${why ?? 'failed'} after ${secs(Date.now() - t0)}`);
    const account = () =>
      attempt === 1 ? '' : ` The call spent ${secs(Date.now() - started)} of its ${secs(total)} limit on it: ${spent.join(', ')}.`;
    if (!transient || attempt > retries) {
      const message = transient ? `${fail.message}${account()} Tried ${attempt} time${attempt === 1 ? '' : 's'}: skip this result or try again later.` : fail.message;
      return { ...fail, message, attempts: attempt };
    }
    if (retryAfterMs !== undefined && retryAfterMs > MAX_RETRY_AFTER_MS) {
      return {
        ...fail,
        message: `${fail.message}${account()} The server asked to wait ${Math.ceil(retryAfterMs / 1000)} s before retrying, longer than the ${MAX_RETRY_AFTER_MS / 1000} s this tool waits: skip it for now.`,
        attempts: attempt,
      };
    }
    const backoff = baseDelay * 2 ** (attempt - 1) * (0.5 + Math.random() * 0.5);
    const wait = Math.round(Math.max(backoff, retryAfterMs ?? 0));
    const next = nextAttemptMs(Date.now() - started, wait, spendable, perAttempt);
    if (next === undefined) {
      return {
        ...fail,
        message: `${fail.message}${account()} Tried ${attempt} time${attempt === 1 ? '' : 's'}; the ${secs(total)} limit of one fetch_source call cut the retries: skip this result or try again later.`,
        attempts: attempt,
      };
    }
    attemptMs = next;
    spent.push(`a wait of ${secs(wait)}`);
    opts.onProgress?.(`${fail.message} Retrying in ${(wait / 1000).toFixed(1)} s.`);
    if (!(await sleep(wait, opts.signal))) {
      return { ok: false, kind: 'network', message: 'The fetch was cancelled by the caller.', attempts: attempt, reachedNetwork: false };
    }
  }
}

function secs(ms: number): string {
  return ms >= 10_000 || Number.isInteger(ms / 1000) ? `${Math.round(ms / 1000)} s` : `${(ms / 1000).toFixed(1)} s`;
}

class TooLargeError extends Error {}
class UnsupportedCodingError extends Error {}
class AddressPolicyError extends Error {
  readonly code = 'EDEEPRESEARCHREFUSED';
}

async function attemptOnce(startUrl: string, opts: FetchOptions): Promise<Attempt> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const deadline = new AbortController();
  // A total deadline, not an idle one: undici's bodyTimeout resets on every byte, so a trickle never trips it.
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  const signal = opts.signal ? AbortSignal.any([deadline.signal, opts.signal]) : deadline.signal;
  let current = startUrl;
  let host = '';
  try {
    for (let hop = 0; ; hop++) {
      const check = checkUrl(current, opts.allowHosts);
      if (!check.ok) {
        // Past the first hop the URL is a redirect's target, the server's choice, and so is what the reason quotes of it.
        if (hop === 0) return refused(`Refused ${clip(current)}: ${check.reason} Skip this result.`);
        return refused(`Refused ${fenceServerValue(current)} (reached through redirect ${hop}): ${fenceServerValue(check.reason, 300)} Skip this result.`);
      }
      const target = check.url;
      // How messages name this hop: a redirect's target is quoted fenced, like every value the server chose.
      const shown: Shown = hop === 0 ? { url: clip(target.href), host: target.host } : { url: fenceServerValue(target.href), host: fenceServerValue(target.host) };
      host = shown.host;
      const hopState: { refusal?: string } = {};
      const agent = new Agent({
        connect: {
          lookup: guardedLookup(opts.lookup ?? (dns.lookup as LookupFunction), effectivePort(target), isAllowListed(current, target, opts.allowHosts), hopState, hop > 0),
          timeout: Math.min(10_000, timeoutMs),
        },
      });
      try {
        let res: Awaited<ReturnType<typeof request>>;
        try {
          res = await request(target, { dispatcher: agent, method: 'GET', headers: HEADERS, signal });
        } catch (err) {
          return classifyError(err, hopState, deadline.signal, opts.signal, shown, timeoutMs);
        }
        const status = res.statusCode;
        if (REDIRECTS.has(status)) {
          discard(res.body);
          const location = utf8Header(header(res.headers, 'location'));
          if (!location) return httpFail(status, `HTTP ${status} redirect from ${shown.url} has no Location header. Skip this result.`, false);
          if (hop >= maxRedirects) {
            return httpFail(status, `Gave up on ${clip(startUrl)} after ${maxRedirects} redirects (last one to ${fenceServerValue(location)}): it redirects in a loop or too far. Skip this result.`, false);
          }
          const next = nextHop(location, target);
          if (next === undefined) {
            return refused(`Refused the redirect from ${shown.url} to ${fenceServerValue(location)}: its address is ambiguous. Skip this result.`);
          }
          opts.onProgress?.(`Redirect ${hop + 1} (HTTP ${status}) to ${fenceServerValue(next)}`);
          current = next;
          continue;
        }
        if (status === 429 || status >= 500) {
          discard(res.body);
          const retryAfterMs = parseRetryAfter(header(res.headers, 'retry-after'));
          return {
            ...httpFail(status, `HTTP ${status} ${STATUS_CODES[status] ?? ''} from ${host}.`.replace(' .', '.'), true),
            why: `got HTTP ${status}`,
            ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
          };
        }
        if (status < 200 || status >= 300) {
          discard(res.body);
          return httpFail(status, `HTTP ${status} ${STATUS_CODES[status] ?? ''} from ${shown.url}: the page is missing or not public. Skip this result.`.replace(' :', ':'), false);
        }
        const media = parseContentType(header(res.headers, 'content-type'));
        if (media && !READABLE_TYPES.has(media.type) && !PDF_TYPES.has(media.type) && !GENERIC_TYPES.has(media.type)) {
          discard(res.body);
          return {
            ok: false,
            kind: 'content-type',
            message: `${shown.url} is of type ${fenceServerValue(media.type)}, which fetch_source cannot read (it reads HTML, XHTML, plain text, markdown and PDF). Skip it or look for an HTML version.`,
            status,
            reachedNetwork: true,
            transient: false,
          };
        }
        // The parse threads start and load pdf.js while the body downloads (lazily: only a PDF loads them).
        if (media && PDF_TYPES.has(media.type)) import('./pdf/read.js').then((m) => m.prewarmPdf(), () => undefined);
        const declared = Number(header(res.headers, 'content-length'));
        const coding = header(res.headers, 'content-encoding');
        const cap = media && PDF_TYPES.has(media.type) ? Math.max(maxBytes, opts.maxPdfBytes ?? PDF_MAX_BYTES) : maxBytes;
        if (Number.isFinite(declared) && declared > cap && !coding) {
          discard(res.body);
          return tooLarge(shown, cap);
        }
        let bytes: Buffer;
        try {
          bytes = await readCapped(res.body, coding, cap);
        } catch (err) {
          if (err instanceof TooLargeError) return tooLarge(shown, cap);
          if (err instanceof UnsupportedCodingError) {
            return { ok: false, kind: 'content-type', message: `${shown.url} was sent with content encoding ${fenceServerValue(coding ?? '')}, which fetch_source cannot decode. Skip this result.`, status, reachedNetwork: true, transient: false };
          }
          return classifyError(err, hopState, deadline.signal, opts.signal, shown, timeoutMs);
        }
        // A PDF by its type, or by its signature when the type is generic or missing (SPEC 4.1).
        if ((media && PDF_TYPES.has(media.type)) || ((!media || GENERIC_TYPES.has(media.type)) && hasPdfSignature(bytes))) {
          return { ok: true, finalUrl: target.href, shownUrl: shown.url, status, contentType: 'application/pdf', body: '', raw: bytes, bytes: bytes.byteLength };
        }
        if (media && GENERIC_TYPES.has(media.type)) {
          return { ok: false, kind: 'content-type', message: `${shown.url} is ${media.type} and not a PDF; fetch_source reads HTML, XHTML, plain text, markdown and PDF. Skip it or look for an HTML version.`, status, reachedNetwork: true, transient: false };
        }
        let type = media?.type;
        if (type === undefined) {
          type = sniffType(bytes);
          if (type === undefined) {
            return { ok: false, kind: 'content-type', message: `${shown.url} has no content type and looks binary; fetch_source reads only HTML, XHTML, plain text, markdown and PDF. Skip it.`, status, reachedNetwork: true, transient: false };
          }
        }
        const { text } = decodeBody(bytes, media, HTML_TYPES.has(type));
        return { ok: true, finalUrl: target.href, shownUrl: shown.url, status, contentType: type, body: text, bytes: bytes.byteLength };
      } finally {
        agent.destroy().catch(() => undefined);
      }
    }
  } finally {
    clearTimeout(timer);
  }

  function refused(message: string): Attempt {
    return { ok: false, kind: 'refused', message, reachedNetwork: false, transient: false };
  }
}

/**
 * Wraps the resolver so every address it returns is checked before Node connects. One bad address
 * refuses the whole name: a DNS answer that mixes public and private addresses is a rebinding attempt.
 */
function guardedLookup(base: LookupFunction, port: number, listed: boolean, state: { refusal?: string }, redirected: boolean): LookupFunction {
  return (hostname, options, callback) => {
    base(hostname, { ...options, all: true }, (err, address, family) => {
      if (err) return callback(err, '');
      const list: LookupAddress[] = Array.isArray(address)
        ? address
        : [{ address, family: family ?? (address.includes(':') ? 6 : 4) }];
      if (list.length === 0) {
        return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
      }
      if (!listed) {
        for (const a of list) {
          const reason = checkAddress(a.address, port, NO_ALLOW);
          if (reason !== undefined) {
            state.refusal = `${redirected ? fenceServerValue(hostname) : hostname} resolves to ${a.address}: ${reason}`;
            return callback(new AddressPolicyError(state.refusal), '');
          }
        }
      }
      if (options.all) return callback(null, list);
      const first = list[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}

/** How a message names the URL being fetched and its host (fenced when a redirect chose them). */
interface Shown {
  url: string;
  host: string;
}

function classifyError(err: unknown, hop: { refusal?: string }, deadline: AbortSignal, caller: AbortSignal | undefined, target: Shown, timeoutMs: number): Attempt {
  if (hop.refusal !== undefined) {
    return { ok: false, kind: 'refused', message: `Refused ${target.url}: ${hop.refusal} Skip this result.`, reachedNetwork: false, transient: false };
  }
  if (deadline.aborted) {
    return {
      ok: false,
      kind: 'timeout',
      message: `${target.host} did not deliver the page within ${(timeoutMs / 1000).toFixed(1)} s.`,
      reachedNetwork: true,
      transient: true,
      why: 'got no page',
    };
  }
  if (caller?.aborted) {
    // A cancellation says nothing about the site, so it must not count toward degraded mode.
    return { ok: false, kind: 'network', message: 'The fetch was cancelled by the caller.', reachedNetwork: false, transient: false };
  }
  const code = errorCode(err);
  const transient = code !== undefined && TRANSIENT_CODES.has(code);
  const what = code === 'ENOTFOUND' ? `the host name ${target.host} does not resolve` : `${code ?? 'error'}${err instanceof Error ? `: ${clip(err.message, 120)}` : ''}`;
  const next = transient ? '' : ' Check the URL, or skip this result.';
  return { ok: false, kind: 'network', message: `Could not fetch ${target.url} (${what}).${next}`, reachedNetwork: true, transient, why: `failed (${code ?? 'error'})` };
}

function errorCode(err: unknown): string | undefined {
  // undici wraps socket errors; the useful code is often on the cause.
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Reads the body, undoing content codings ourselves, and stops as soon as the DECODED size passes the
 * cap: undici's own size limit counts wire bytes, which a gzip bomb keeps tiny.
 */
async function readCapped(body: Readable, coding: string | undefined, maxBytes: number): Promise<Buffer> {
  const codings = (coding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  // Which limit tripped is kept here: when a stage throws, pipeline may surface the abort it causes
  // upstream (undici's "Request aborted") instead of the original error.
  const limit = { hit: false };
  const stages: Transform[] = [byteCap(maxBytes, limit)];
  for (const c of codings.reverse()) {
    // Truncated compressed bodies are common on the web; a sync flush keeps what did arrive.
    const flush = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
    if (c === 'gzip' || c === 'x-gzip' || c === 'deflate') stages.push(zlib.createUnzip(flush));
    else if (c === 'br') stages.push(zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }));
    else {
      discard(body);
      throw new UnsupportedCodingError(c);
    }
  }
  const chunks: Buffer[] = [];
  let total = 0;
  const sink = async (source: AsyncIterable<Buffer>): Promise<void> => {
    for await (const chunk of source) {
      total += chunk.length;
      if (total > maxBytes) {
        limit.hit = true;
        throw new TooLargeError();
      }
      chunks.push(chunk);
    }
  };
  try {
    await (pipeline as unknown as (...streams: unknown[]) => Promise<void>)(body, ...stages, sink);
  } catch (err) {
    if (limit.hit) throw new TooLargeError();
    throw err;
  }
  return Buffer.concat(chunks, total);
}

/** Caps wire bytes too, so an endless stream of empty compressed blocks cannot run until the deadline. */
function byteCap(maxBytes: number, limit: { hit: boolean }): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > maxBytes) {
        limit.hit = true;
        return done(new TooLargeError());
      }
      done(null, chunk);
    },
  });
}

function tooLarge(target: Shown, maxBytes: number): Attempt {
  return {
    ok: false,
    kind: 'too-large',
    message: `${target.url} is larger than ${formatBytes(maxBytes)} once decompressed, the most fetch_source reads. Skip it or look for a shorter version of the document.`,
    reachedNetwork: true,
    transient: false,
  };
}

function httpFail(status: number, message: string, transient: boolean): Extract<Attempt, { ok: false }> {
  return { ok: false, kind: 'http', message, status, reachedNetwork: true, transient };
}

/**
 * The next hop as a string that keeps the Location's own host spelling, so the allow-list compares what
 * the server wrote. Relative locations inherit the already-checked host. Undefined when the literal and
 * resolved forms disagree (e.g. `http:host` without slashes, which resolves relative to the base).
 */
function nextHop(location: string, base: URL): string | undefined {
  let resolved: URL;
  try {
    resolved = new URL(location, base);
  } catch {
    return undefined;
  }
  const loc = location.trim();
  let literal: string;
  if (/^[a-z][a-z0-9+.-]*:/i.test(loc)) literal = loc;
  else if (/^[/\\]{2}/.test(loc)) literal = `${base.protocol}${loc}`;
  else return resolved.href;
  try {
    return new URL(literal).href === resolved.href ? literal : undefined;
  } catch {
    return undefined;
  }
}

function parseRetryAfter(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function sniffType(bytes: Uint8Array): string | undefined {
  const head = bytes.subarray(0, 1024);
  if (head.includes(0)) return undefined;
  const start = Buffer.from(head).toString('latin1').replace(/^\uFEFF|^\u00EF\u00BB\u00BF/, '').trimStart();
  return start.startsWith('<') ? 'text/html' : 'text/plain';
}

/** Drops a body we will not read. undici reports the destroy as an 'error' event, which must not go unheard. */
function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

/**
 * A header value as its sender wrote it. HTTP gives header bytes no charset and undici reads them as
 * Latin-1, so a UTF-8 Location (`/ünïcode`, `/日本`) arrives as mojibake; bytes that form valid UTF-8 are
 * read as UTF-8, anything else stays as it came.
 */
export function utf8Header(v: string | undefined): string | undefined {
  if (v === undefined || !/[\u0080-\u00ff]/.test(v) || /[^\u0000-\u00ff]/.test(v)) return v;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(v, 'latin1'));
  } catch {
    return v;
  }
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      resolve(false);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : `${n} bytes`;
}

function clip(s: string, max = 200): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
