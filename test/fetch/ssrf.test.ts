// SSRF guard end to end (SPEC §7): every vector is refused before any TCP connection reaches the
// recording server, whose port is written into each loopback vector so a leak would land on it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPage } from '../../src/fetch/http-fetch.js';
import type { LookupFunction } from '../../src/fetch/http-fetch.js';
import { readPage } from '../../src/fetch/pipeline.js';
import { allow, html, PROSE, startServer } from './helpers.js';
import type { TestServer } from './helpers.js';

let recorder: TestServer;
let front: TestServer;

beforeAll(async () => {
  recorder = await startServer((_req, res) => res.end('secret'));
  front = await startServer((req, res) => {
    const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
    if (req.url?.startsWith('/redirect') && to) {
      res.writeHead(302, { location: to });
      return res.end();
    }
    if (req.url?.startsWith('/loop/')) {
      const n = Number(req.url.slice('/loop/'.length));
      res.writeHead(301, { location: `/loop/${n + 1}` });
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(html(`<article><h1>Landing</h1><p>${PROSE}</p></article>`));
  });
});

afterAll(async () => {
  await recorder.close();
  await front.close();
});

const fast = { retries: 0, timeoutMs: 3000 };

describe('refused before connecting', () => {
  // Only the exact literal `127.0.0.1:PORT` is allow-listed; every other spelling must still be refused.
  const vectors = (p: number): string[] => [
    `http://2130706433:${p}/`,
    `http://0x7f.1:${p}/`,
    `http://0177.0.0.1:${p}/`,
    `http://127.1:${p}/`,
    `http://0:${p}/`,
    `http://[::1]:${p}/`,
    `http://[::ffff:127.0.0.1]:${p}/`,
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/',
    'http://100.100.100.200/',
    `http://user@127.0.0.1:${p}/`,
    'file:///etc/passwd',
    `gopher://127.0.0.1:${p}/_`,
  ];

  it('refuses every address spelling, scheme and user-info vector with zero connections', async () => {
    const allowed = allow(recorder);
    for (const url of vectors(recorder.port)) {
      const r = await fetchPage(url, { allowHosts: allowed, ...fast });
      expect(r, url).toMatchObject({ ok: false, kind: 'refused', reachedNetwork: false, attempts: 1 });
    }
    expect(recorder.connections).toBe(0);
  });

  it('refuses a public-looking host whose DNS answer is loopback, inside the connect lookup', async () => {
    const answers: Array<string | Array<{ address: string; family: number }>> = [
      '127.0.0.1',
      [{ address: '127.0.0.1', family: 4 }],
      [
        { address: '93.184.216.34', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
      [{ address: '::ffff:127.0.0.1', family: 6 }],
    ];
    for (const answer of answers) {
      let asked = 0;
      const lookup: LookupFunction = (_host, _opts, cb) => {
        asked++;
        if (typeof answer === 'string') cb(null, answer, 4);
        else cb(null, answer);
      };
      const r = await fetchPage(`http://public.example.com:${recorder.port}/`, { allowHosts: allow(recorder), lookup, ...fast });
      expect(r, JSON.stringify(answer)).toMatchObject({ ok: false, kind: 'refused', reachedNetwork: false });
      if (!r.ok) expect(r.message).toMatch(/resolves to .*loopback/);
      expect(asked).toBeGreaterThan(0);
    }
    expect(recorder.connections).toBe(0);
  });

  it('does not retry a refusal, and readPage passes it through unchanged', async () => {
    const r = await readPage(`http://127.1:${recorder.port}/`, { allowHosts: allow(recorder), retries: 2, baseDelayMs: 1 });
    expect(r).toMatchObject({ ok: false, kind: 'refused', attempts: 1, reachedNetwork: false });
    expect(recorder.connections).toBe(0);
  });
});

describe('the allow-list', () => {
  it('reaches a listed server at its exact literal host:port (the control for the zero counts above)', async () => {
    const r = await fetchPage(`${front.origin}/`, { allowHosts: allow(front), ...fast });
    expect(r).toMatchObject({ ok: true, status: 200 });
  });

  it('reaches a listed host name through DNS, and only on the listed port', async () => {
    const lookup: LookupFunction = (_h, _o, cb) => cb(null, [{ address: '127.0.0.1', family: 4 }]);
    const listed = new Set([`test.internal:${front.port}`]);
    expect(await fetchPage(`http://test.internal:${front.port}/`, { allowHosts: listed, lookup, ...fast })).toMatchObject({ ok: true });
    expect(await fetchPage(`http://other.internal:${front.port}/`, { allowHosts: listed, lookup, ...fast })).toMatchObject({ ok: false, kind: 'refused' });
  });

  it('is read from DEEP_RESEARCH_ALLOW_HOSTS by the caller, not by a fetch without one', async () => {
    const r = await fetchPage(`${front.origin}/`, { allowHosts: new Set(), ...fast });
    expect(r).toMatchObject({ ok: false, kind: 'refused' });
  });
});

describe('redirects', () => {
  it('shows a UTF-8 Location as written in the refusal (the redirect is still refused)', async () => {
    const utf8 = await startServer((_req, res) => {
      // Header bytes go out as Latin-1 code units: this string puts the UTF-8 bytes on the wire.
      res.writeHead(302, { location: Buffer.from(`http://127.0.0.2:${recorder.port}/ünïcode-日本`, 'utf8').toString('latin1') });
      res.end();
    });
    try {
      const r = await fetchPage(`${utf8.origin}/`, { allowHosts: allow(utf8), ...fast });
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.message).toMatch(/^Refused .*redirect 1/);
        expect(r.message).toMatch(/ünïcode-日本|%C3%BCn%C3%AFcode-%E6%97%A5%E6%9C%AC/);
        expect(r.message).not.toMatch(/Ã|Â|æ—/);
      }
      expect(recorder.connections).toBe(0);
    } finally {
      await utf8.close();
    }
  });

  it('refuses a redirect from an allowed host to a loopback port not on the list, at the hop', async () => {
    const before = recorder.connections;
    const to = encodeURIComponent(`http://127.0.0.1:${recorder.port}/`);
    const r = await fetchPage(`${front.origin}/redirect?to=${to}`, { allowHosts: allow(front), ...fast });
    expect(r).toMatchObject({ ok: false, kind: 'refused', reachedNetwork: false });
    if (!r.ok) expect(r.message).toMatch(/redirect 1/);
    expect(recorder.connections).toBe(before);
  });

  it('refuses a redirect to another spelling of the allowed server itself', async () => {
    const to = encodeURIComponent(`http://0x7f.1:${front.port}/`);
    const r = await fetchPage(`${front.origin}/redirect?to=${to}`, { allowHosts: allow(front), ...fast });
    expect(r).toMatchObject({ ok: false, kind: 'refused' });
  });

  it('refuses a redirect to a non-http scheme', async () => {
    const r = await fetchPage(`${front.origin}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`, { allowHosts: allow(front), ...fast });
    expect(r).toMatchObject({ ok: false, kind: 'refused' });
  });

  it('follows a relative redirect on the allowed host and reports the final URL', async () => {
    const r = await fetchPage(`${front.origin}/redirect?to=${encodeURIComponent('/landing')}`, { allowHosts: allow(front), ...fast });
    expect(r).toMatchObject({ ok: true, finalUrl: `${front.origin}/landing` });
  });

  it('gives up after 5 redirects', async () => {
    const seen = front.requests.length;
    const progress: string[] = [];
    const r = await fetchPage(`${front.origin}/loop/0`, { allowHosts: allow(front), onProgress: (m) => progress.push(m), ...fast });
    expect(r).toMatchObject({ ok: false, kind: 'http', status: 301, attempts: 1 });
    if (!r.ok) expect(r.message).toMatch(/after 5 redirects/);
    expect(front.requests.length - seen).toBe(6);
    expect(progress.filter((m) => m.startsWith('Redirect'))).toHaveLength(5);
  });
});
