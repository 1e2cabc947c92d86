import { describe, expect, it } from 'vitest';
import { checkAddress, checkUrl, parseAllowHosts } from '../../src/fetch/url-guard.js';

const none = new Set<string>();

describe('parseAllowHosts', () => {
  it('reads host:port entries, lower-cased, and ignores entries without a port', () => {
    const s = parseAllowHosts(' 127.0.0.1:8080, LOCALHOST:9000 [::1]:81,example.com,bad:0,x:99999');
    expect([...s].sort()).toEqual(['127.0.0.1:8080', '[::1]:81', 'localhost:9000']);
  });

  it('is empty when the variable is unset', () => {
    expect(parseAllowHosts(undefined).size).toBe(0);
    expect(parseAllowHosts('').size).toBe(0);
  });
});

describe('checkUrl', () => {
  it('accepts public http(s) URLs', () => {
    for (const u of ['https://example.com/a?b=1', 'http://93.184.216.34/', 'https://[2606:4700::1111]/']) {
      expect(checkUrl(u, none)).toMatchObject({ ok: true });
    }
  });

  // Every spelling of a loopback, private or metadata address that the WHATWG URL parser accepts.
  const refused = [
    'http://127.0.0.1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0x7f.1/',
    'http://0177.0.0.1/',
    'http://0177.0.0.01/',
    'http://127.1/',
    'http://127.0.1/',
    'http://0/',
    'http://0.0.0.0/',
    'http://[::]/',
    'http://[::1]/',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::127.0.0.1]/',
    'http://[64:ff9b::7f00:1]/',
    'http://[2002:7f00:1::]/',
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fe80::1]/',
    'http://[fd00:ec2::254]/',
    'http://100.100.100.200/',
    'http://100.64.0.1/',
    'http://168.63.129.16/',
    'http://192.0.0.192/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://localhost/',
    'http://foo.localhost/',
    'http://%31%32%37.0.0.1/',
    'http://127.0.0.1./',
    'HTTP://127.0.0.1/',
    'http:\\\\127.0.0.1\\',
    'http:/127.0.0.1/',
    ' http://127.0.0.1/ ',
    'http://12\t7.0.0.1/',
  ];
  it.each(refused)('refuses %s', (u) => {
    const r = checkUrl(u, none);
    expect(r.ok).toBe(false);
  });

  it.each(['file:///etc/passwd', 'gopher://127.0.0.1:6379/_', 'ftp://example.com/', 'javascript:alert(1)', 'data:text/html,hi'])(
    'refuses the scheme of %s',
    (u) => {
      const r = checkUrl(u, none);
      expect(r).toMatchObject({ ok: false });
      if (!r.ok) expect(r.reason).toMatch(/only http and https/);
    },
  );

  it('refuses user info outright, even towards a public host', () => {
    for (const u of ['http://user@example.com/', 'http://user:pw@example.com/', 'http://example.com@10.0.0.1/', 'http://@example.com/']) {
      const r = checkUrl(u, none);
      expect(r.ok, u).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(/user info/);
    }
  });

  it('refuses what is not a URL, with a reason that says what to send', () => {
    const r = checkUrl('example.com/page', none);
    expect(r).toMatchObject({ ok: false });
    if (!r.ok) expect(r.reason).toMatch(/absolute URL/);
  });

  it('lets an allow-listed host:port through only in the exact listed spelling', () => {
    const allowed = new Set(['127.0.0.1:8080']);
    expect(checkUrl('http://127.0.0.1:8080/x', allowed)).toMatchObject({ ok: true });
    for (const u of [
      'http://127.0.0.1/',
      'http://127.0.0.1:8081/',
      'http://127.1:8080/',
      'http://2130706433:8080/',
      'http://0x7f.1:8080/',
      'http://0177.0.0.1:8080/',
      'http://[::ffff:127.0.0.1]:8080/',
      'http://127.0.0.1.:8080/',
      'http://user@127.0.0.1:8080/',
      'http://localhost:8080/',
    ]) {
      expect(checkUrl(u, allowed).ok, u).toBe(false);
    }
  });

  it('uses the default port for allow-list matching when none is written', () => {
    expect(checkUrl('http://127.0.0.1/', new Set(['127.0.0.1:80']))).toMatchObject({ ok: true });
    expect(checkUrl('https://127.0.0.1/', new Set(['127.0.0.1:80'])).ok).toBe(false);
  });
});

describe('checkAddress', () => {
  it('accepts public unicast addresses of both families', () => {
    expect(checkAddress('93.184.216.34', 80, none)).toBeUndefined();
    expect(checkAddress('2606:4700:4700::1111', 443, none)).toBeUndefined();
  });

  it.each(['127.0.0.1', '10.1.2.3', '::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'fd00:ec2::254', '169.254.169.254', '0.0.0.0', '100.100.100.200', 'ff02::1', 'fec0::1', '::7f00:1'])(
    'refuses %s',
    (ip) => {
      expect(checkAddress(ip, 80, none)).toMatch(/address/);
    },
  );

  it('says what kind of address it refused', () => {
    expect(checkAddress('127.0.0.1', 80, none)).toMatch(/loopback/);
    expect(checkAddress('169.254.169.254', 80, none)).toMatch(/link-local/);
    expect(checkAddress('100.100.100.200', 80, none)).toMatch(/carrier-grade NAT/);
  });

  it('honours the allow-list for the exact address and port', () => {
    const allowed = new Set(['127.0.0.1:8080', '[::1]:8080']);
    expect(checkAddress('127.0.0.1', 8080, allowed)).toBeUndefined();
    expect(checkAddress('::1', 8080, allowed)).toBeUndefined();
    expect(checkAddress('127.0.0.1', 8081, allowed)).toMatch(/loopback/);
  });

  it('rejects strings that are not addresses', () => {
    expect(checkAddress('example.com', 80, none)).toMatch(/not an IP address/);
  });
});
