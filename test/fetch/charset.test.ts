// Legacy charsets decoded from bytes, as a browser would: Response.text() and Node 20's TextDecoder get
// windows-1252 wrong (smart quotes become C1 controls), which corrupts every quote a fact cites.
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBody, parseContentType } from '../../src/fetch/decode.js';
import { fetchPage } from '../../src/fetch/http-fetch.js';
import { readPage } from '../../src/fetch/pipeline.js';
import { allow, PROSE, startServer } from './helpers.js';
import type { TestServer } from './helpers.js';

const WESTERN = '“Smart quotes” — café, naïve, façade, €20, Œuvre';
const JAPANESE = '日本語のテキストです。東京都の人口は約千四百万人。カタカナ、ひらがな。';

// path → [content-type header, body bytes]
const pages: Record<string, [string | undefined, Buffer]> = {
  '/cp1252-header': ['text/html; charset=windows-1252', doc('', WESTERN, 'windows-1252')],
  '/latin1-label': ['text/html; charset=ISO-8859-1', doc('', WESTERN, 'windows-1252')],
  '/cp1252-meta': ['text/html', doc('<meta charset="windows-1252">', WESTERN, 'windows-1252')],
  '/cp1252-http-equiv': ['text/html', doc('<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">', WESTERN, 'windows-1252')],
  '/sjis-meta': ['text/html', doc('<meta charset="Shift_JIS">', JAPANESE, 'Shift_JIS')],
  '/sjis-header': ['text/html; charset=shift_jis', doc('', JAPANESE, 'Shift_JIS')],
  // The transport layer outranks <meta> in the WHATWG algorithm.
  '/header-beats-meta': ['text/html; charset=windows-1252', doc('<meta charset="utf-8">', WESTERN, 'windows-1252')],
  '/undeclared-utf8': ['text/html', doc('', `${WESTERN} ${JAPANESE}`, 'utf-8')],
  '/undeclared-legacy': ['text/html', doc('', WESTERN, 'windows-1252')],
  '/utf8-bom-beats-header': ['text/html; charset=windows-1252', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), doc('', WESTERN, 'utf-8')])],
  '/plain-sjis': ['text/plain; charset=Shift_JIS', iconv.encode(JAPANESE, 'Shift_JIS')],
  '/plain-undeclared-legacy': ['text/plain', iconv.encode(WESTERN, 'windows-1252')],
};

function doc(head: string, text: string, encoding: string): Buffer {
  return iconv.encode(`<!DOCTYPE html><html><head>${head}<title>T</title></head><body><p>${text}</p></body></html>`, encoding);
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer((req, res) => {
    const page = pages[req.url ?? ''];
    if (!page) {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, page[0] ? { 'content-type': page[0] } : {});
    res.end(page[1]);
  });
});
afterAll(() => server.close());

async function body(path: string): Promise<string> {
  const r = await fetchPage(`${server.origin}${path}`, { allowHosts: allow(server), retries: 0 });
  if (!r.ok) throw new Error(r.message);
  return r.body;
}

describe('charset decoding', () => {
  it.each(['/cp1252-header', '/latin1-label', '/cp1252-meta', '/cp1252-http-equiv', '/header-beats-meta', '/undeclared-legacy', '/utf8-bom-beats-header'])(
    'decodes smart quotes, accents and the euro sign: %s',
    async (path) => {
      const text = await body(path);
      expect(text).toContain(WESTERN);
      expect(text).not.toMatch(/[\u0080-\u009f\ufffd]/);
    },
  );

  it.each(['/sjis-meta', '/sjis-header'])('decodes Shift_JIS Japanese: %s', async (path) => {
    const text = await body(path);
    expect(text).toContain('日本語のテキストです');
    expect(text).toContain('東京都');
    expect(text).not.toContain('\ufffd');
  });

  it('reads undeclared bytes as UTF-8 when they are valid UTF-8', async () => {
    expect(await body('/undeclared-utf8')).toContain(`${WESTERN} ${JAPANESE}`);
  });

  it('decodes plain text by its header charset, and legacy bytes without one as windows-1252', async () => {
    expect(await body('/plain-sjis')).toBe(JAPANESE);
    expect(await body('/plain-undeclared-legacy')).toBe(WESTERN);
  });

  it('carries decoded characters into the extracted markdown', async () => {
    const prose = `<p>${WESTERN}. ${PROSE}</p>`;
    const s = await startServer((_q, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=windows-1252' });
      res.end(iconv.encode(`<html><head><title>Café “menu”</title></head><body><article>${prose}</article></body></html>`, 'windows-1252'));
    });
    try {
      const r = await readPage(`${s.origin}/`, { allowHosts: allow(s), retries: 0 });
      expect(r).toMatchObject({ ok: true, title: 'Café “menu”' });
      if (r.ok) expect(r.markdown).toContain(WESTERN);
    } finally {
      await s.close();
    }
  });
});

describe('decode helpers', () => {
  it('parses media type and charset, quoted or not', () => {
    expect(parseContentType('Text/HTML; Charset="Shift_JIS"')).toEqual({ type: 'text/html', charset: 'Shift_JIS' });
    expect(parseContentType('text/plain')).toEqual({ type: 'text/plain' });
    expect(parseContentType(undefined)).toBeUndefined();
  });

  it('falls back to UTF-8 for unknown or unsafe labels', () => {
    const bytes = new Uint8Array(Buffer.from('héllo'));
    expect(decodeBody(bytes, { type: 'text/plain', charset: 'no-such-charset' }, false).text).toBe('héllo');
    expect(decodeBody(bytes, { type: 'text/html', charset: 'iso-2022-kr' }, true).text).toBe('héllo');
  });
});
