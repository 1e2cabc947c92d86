// Limits and retries of the guarded fetch against misbehaving local servers: decompression bombs,
// trickles, rate limits, flaky upstreams, refused content types.
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_BASE_DELAY_MS, DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS, DEFAULT_TOTAL_TIMEOUT_MS, fetchPage, nextAttemptMs, replyReserveMs } from '../../src/fetch/http-fetch.js';
import { allow, html, PROSE, startServer } from './helpers.js';
import type { Handler, TestServer } from './helpers.js';

const servers: TestServer[] = [];
async function serve(handler: Handler): Promise<TestServer> {
  const s = await startServer(handler);
  servers.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const MiB = 1024 * 1024;

/** A multi-member gzip stream that inflates to `mib` MiB of zeros from about 1 KiB per MiB on the wire. */
function gzipBomb(mib: number): Buffer {
  const member = zlib.gzipSync(Buffer.alloc(MiB), { level: 9 });
  return Buffer.concat(Array.from({ length: mib }, () => member));
}

describe('decoded-size cap', () => {
  it('refuses a 20 MiB gzip bomb as too-large', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(20 * MiB, 0x61), { level: 9 });
    const s = await serve((_q, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip', 'content-length': bomb.length });
      res.end(bomb);
    });
    const r = await fetchPage(`${s.origin}/`, { allowHosts: allow(s), retries: 0 });
    expect(r).toMatchObject({ ok: false, kind: 'too-large', reachedNetwork: true, attempts: 1 });
    if (!r.ok) expect(r.message).toMatch(/larger than 5 MiB once decompressed/);
  });

  it('keeps memory bounded on a 1 GiB bomb (1 MiB on the wire)', async () => {
    const bomb = gzipBomb(1024);
    const s = await serve((_q, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      res.end(bomb);
    });
    const before = process.memoryUsage();
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const r = await fetchPage(`${s.origin}/`, { allowHosts: allow(s), retries: 0 });
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(r).toMatchObject({ ok: false, kind: 'too-large' });
    expect(peak - before.rss).toBeLessThan(128 * MiB);
  });

  it('refuses a plain body over the cap, by Content-Length or by counting', async () => {
    const big = Buffer.alloc(2 * MiB, 0x61);
    const s = await serve((req, res) => {
      const headers: Record<string, string | number> = { 'content-type': 'text/plain' };
      if (req.url === '/declared') headers['content-length'] = big.length;
      res.writeHead(200, headers);
      res.end(big);
    });
    for (const path of ['/declared', '/chunked']) {
      const r = await fetchPage(`${s.origin}${path}`, { allowHosts: allow(s), retries: 0, maxBytes: MiB });
      expect(r, path).toMatchObject({ ok: false, kind: 'too-large' });
    }
  });

  it('takes a PDF over the page cap (a reference manual), up to its own cap', async () => {
    // A real run was refused R's 6.2 MiB reference manual, the one source its question needed.
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(7 * MiB, 0x20)]);
    const s = await serve((req, res) => {
      res.writeHead(200, { 'content-type': req.url === '/page' ? 'text/html' : 'application/pdf', 'content-length': pdf.length });
      res.end(pdf);
    });
    const asPdf = await fetchPage(`${s.origin}/manual.pdf`, { allowHosts: allow(s), retries: 0 });
    expect(asPdf).toMatchObject({ ok: true, contentType: 'application/pdf', bytes: pdf.length });
    const asPage = await fetchPage(`${s.origin}/page`, { allowHosts: allow(s), retries: 0 });
    expect(asPage).toMatchObject({ ok: false, kind: 'too-large' });
    const capped = await fetchPage(`${s.origin}/manual.pdf`, { allowHosts: allow(s), retries: 0, maxPdfBytes: 6 * MiB });
    expect(capped).toMatchObject({ ok: false, kind: 'too-large' });
    if (!capped.ok) expect(capped.message).toMatch(/larger than 6 MiB once decompressed/);
  });

  it('decodes gzip, deflate and brotli bodies under the cap', async () => {
    const page = html(`<p>${PROSE}</p>`);
    const s = await serve((req, res) => {
      const coding = req.url?.slice(1) ?? '';
      const body = coding === 'gzip' ? zlib.gzipSync(page) : coding === 'deflate' ? zlib.deflateSync(page) : zlib.brotliCompressSync(page);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': coding });
      res.end(body);
    });
    for (const coding of ['gzip', 'deflate', 'br']) {
      const r = await fetchPage(`${s.origin}/${coding}`, { allowHosts: allow(s), retries: 0 });
      expect(r, coding).toMatchObject({ ok: true, contentType: 'text/html', bytes: Buffer.byteLength(page) });
      if (r.ok) expect(r.body).toBe(page);
    }
  });
});

describe('total timeout', () => {
  const trickle: Handler = (_q, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    const t = setInterval(() => res.write('a'), 200);
    res.on('close', () => clearInterval(t));
  };

  it('stops a 1-byte-per-200 ms trickle within the total timeout', async () => {
    const s = await serve(trickle);
    const started = Date.now();
    const r = await fetchPage(`${s.origin}/`, { allowHosts: allow(s), timeoutMs: 1200, retries: 0 });
    const took = Date.now() - started;
    expect(r).toMatchObject({ ok: false, kind: 'timeout', attempts: 1, reachedNetwork: true });
    expect(took).toBeGreaterThanOrEqual(1100);
    expect(took).toBeLessThan(2500);
  });

  it('retries a timeout as a transient failure', async () => {
    const s = await serve(trickle);
    const r = await fetchPage(`${s.origin}/`, { allowHosts: allow(s), timeoutMs: 400, retries: 1, baseDelayMs: 10 });
    expect(r).toMatchObject({ ok: false, kind: 'timeout', attempts: 2 });
    expect(s.requests).toHaveLength(2);
  });

  it('times out a server that never sends headers', async () => {
    const s = await serve(() => undefined);
    const r = await fetchPage(`${s.origin}/`, { allowHosts: allow(s), timeoutMs: 300, retries: 0 });
    expect(r).toMatchObject({ ok: false, kind: 'timeout' });
  });

  it('ends a never-ending page within the whole call\'s deadline, retries included, and says the deadline cut them', async () => {
    for (const s of [await serve(() => undefined), await serve(trickle)]) {
      const started = Date.now();
      const r = await fetchPage(`${s.origin}/`, { allowHosts: allow(s), timeoutMs: 1500, totalTimeoutMs: 2500, baseDelayMs: 10 });
      const took = Date.now() - started;
      expect(r).toMatchObject({ ok: false, kind: 'timeout', attempts: 2 });
      // Inside the whole call's 2.5 s, with time left for the reply (issue 27 item 7: 45.1 s of 45).
      expect(took).toBeLessThan(2_500);
      // And it says what the time went on, not only the last attempt's part of it.
      if (!r.ok) {
        expect(r.message).toMatch(/did not deliver the page within 0\.\d s\. The call spent 2\.\d s of its 2\.5 s limit on it: attempt 1 got no page after 1\.\d s, a wait of 0\.0 s, attempt 2 got no page after 0\.\d s\./);
        expect(r.message).toMatch(/the 2\.5 s limit of one fetch_source call cut the retries/);
      }
    }
  });

  it('with the real defaults, three attempts at a never-ending page fit in 45 s, not 61 (the SDK gives up at 60)', () => {
    expect(DEFAULT_TOTAL_TIMEOUT_MS).toBeLessThanOrEqual(45_000);
    // The slowest case: every attempt runs to its limit and every backoff has its full jitter. Fetching
    // keeps back a reserve for the reply, so the call answers inside its limit.
    const spendable = DEFAULT_TOTAL_TIMEOUT_MS - replyReserveMs(DEFAULT_TOTAL_TIMEOUT_MS);
    expect(spendable).toBe(44_000);
    let elapsed = 0;
    let attemptMs = Math.min(DEFAULT_TIMEOUT_MS, spendable);
    let attempts = 0;
    for (;;) {
      attempts += 1;
      elapsed += attemptMs;
      if (attempts > DEFAULT_RETRIES) break;
      const wait = DEFAULT_BASE_DELAY_MS * 2 ** (attempts - 1);
      const next = nextAttemptMs(elapsed, wait, spendable, DEFAULT_TIMEOUT_MS);
      if (next === undefined) break;
      elapsed += wait;
      attemptMs = next;
    }
    expect(attempts).toBe(3);
    expect(elapsed).toBeLessThanOrEqual(spendable);
    // Without the shared deadline the same page took 3 × 20 s plus the waits.
    expect(3 * DEFAULT_TIMEOUT_MS + DEFAULT_BASE_DELAY_MS * 3).toBeGreaterThan(60_000);
    // Too little left for a useful attempt: none is made.
    expect(nextAttemptMs(44_000, 500, 45_000, 20_000)).toBeUndefined();
    expect(nextAttemptMs(20_000, 500, 45_000, 20_000)).toBe(20_000);
    expect(nextAttemptMs(40_500, 1_000, 45_000, 20_000)).toBe(3_500);
  });

  it('stops when the caller aborts', async () => {
    const s = await serve(trickle);
    const ctrl = new AbortController();
    setTimeout(() => ctrl.abort(), 200);
    const r = await fetchPage(`${s.origin}/`, { allowHosts: allow(s), timeoutMs: 5000, signal: ctrl.signal });
    expect(r).toMatchObject({ ok: false, kind: 'network', attempts: 1, reachedNetwork: false });
    if (!r.ok) expect(r.message).toMatch(/cancelled/);
  });
});

describe('retries', () => {
  it('retries a 429 after its Retry-After, then succeeds', async () => {
    const s = await serve((_q, res, n) => {
      if (n === 1) {
        res.writeHead(429, { 'retry-after': '1' });
        return res.end('slow down');
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(PROSE);
    });
    const progress: string[] = [];
    const started = Date.now();
    const r = await fetchPage(`${s.origin}/`, { allowHosts: allow(s), baseDelayMs: 1, onProgress: (m) => progress.push(m) });
    expect(r).toMatchObject({ ok: true, attempts: 2, status: 200 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(progress.some((m) => /HTTP 429.*Retrying in 1\.0 s/.test(m))).toBe(true);
  });

  it('fails after 3 attempts on a 503 that does not go away', async () => {
    const s = await serve((_q, res) => {
      res.writeHead(503);
      res.end();
    });
    const r = await fetchPage(`${s.origin}/`, { allowHosts: allow(s), baseDelayMs: 5 });
    expect(r).toMatchObject({ ok: false, kind: 'http', status: 503, attempts: 3, reachedNetwork: true });
    if (!r.ok) expect(r.message).toMatch(/503 Service Unavailable.*Tried 3 times/);
    expect(s.requests).toHaveLength(3);
  });

  it('does not wait for a Retry-After beyond 10 s', async () => {
    const s = await serve((_q, res) => {
      res.writeHead(429, { 'retry-after': '30' });
      res.end();
    });
    const started = Date.now();
    const r = await fetchPage(`${s.origin}/`, { allowHosts: allow(s), baseDelayMs: 5 });
    expect(r).toMatchObject({ ok: false, kind: 'http', status: 429, attempts: 1 });
    if (!r.ok) expect(r.message).toMatch(/wait 30 s/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('retries a connection reset', async () => {
    const s = await serve((req, res, n) => {
      if (n === 1) return req.socket.destroy();
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(PROSE);
    });
    const r = await fetchPage(`${s.origin}/`, { allowHosts: allow(s), baseDelayMs: 5 });
    expect(r).toMatchObject({ ok: true, attempts: 2 });
  });

  it('does not retry a 404, and says so clearly', async () => {
    const s = await serve((_q, res) => {
      res.writeHead(404);
      res.end('nope');
    });
    const r = await fetchPage(`${s.origin}/missing`, { allowHosts: allow(s), baseDelayMs: 5 });
    expect(r).toMatchObject({ ok: false, kind: 'http', status: 404, attempts: 1 });
    if (!r.ok) expect(r.message).toMatch(/HTTP 404 Not Found .*Skip this result/);
  });
});

describe('content types', () => {
  it.each(['image/png', 'application/json', 'application/octet-stream'])('refuses %s without retrying', async (type) => {
    const s = await serve((_q, res) => {
      res.writeHead(200, { 'content-type': type });
      res.end('x');
    });
    const r = await fetchPage(`${s.origin}/`, { allowHosts: allow(s), baseDelayMs: 5 });
    expect(r).toMatchObject({ ok: false, kind: 'content-type', attempts: 1, reachedNetwork: true });
    if (!r.ok) expect(r.message).toContain(type);
  });

  it.each(['application/pdf', 'application/octet-stream', 'binary/octet-stream', undefined])('hands %s over as PDF bytes when the body starts with %%PDF-', async (type) => {
    const s = await serve((_q, res) => {
      res.writeHead(200, type ? { 'content-type': type } : {});
      res.end('%PDF-1.4\n%%EOF\n');
    });
    const r = await fetchPage(`${s.origin}/`, { allowHosts: allow(s) });
    expect(r).toMatchObject({ ok: true, contentType: 'application/pdf', body: '' });
    if (r.ok) expect(Buffer.from(r.raw ?? []).toString('latin1')).toBe('%PDF-1.4\n%%EOF\n');
  });

  it.each(['text/html; charset=utf-8', 'application/xhtml+xml', 'text/plain', 'text/markdown', 'TEXT/HTML'])('accepts %s', async (type) => {
    const s = await serve((_q, res) => {
      res.writeHead(200, { 'content-type': type });
      res.end('hello');
    });
    const r = await fetchPage(`${s.origin}/`, { allowHosts: allow(s) });
    expect(r).toMatchObject({ ok: true, body: 'hello', contentType: type.split(';')[0]?.toLowerCase() });
  });

  it('sniffs a missing content type: markup is HTML, binary is refused', async () => {
    const s = await serve((req, res) => {
      res.removeHeader('content-type');
      res.end(req.url === '/bin' ? Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]) : '  <html><body>hi</body></html>');
    });
    expect(await fetchPage(`${s.origin}/page`, { allowHosts: allow(s) })).toMatchObject({ ok: true, contentType: 'text/html' });
    expect(await fetchPage(`${s.origin}/bin`, { allowHosts: allow(s) })).toMatchObject({ ok: false, kind: 'content-type' });
  });
});
