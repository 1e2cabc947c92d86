// The fixture web: serves demo/web/pages/*.html on 127.0.0.1 and counts every request per path, so tests
// can prove what was (and was not) fetched. The server under test reaches it only through its explicit
// allow-list, DEEP_RESEARCH_ALLOW_HOSTS=127.0.0.1:<port>.
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PAGES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pages');

export interface FixtureWeb {
  port: number;
  /** `http://127.0.0.1:<port>/` */
  baseUrl: string;
  /** The DEEP_RESEARCH_ALLOW_HOSTS entry for this server. */
  allowHost: string;
  /** Requests per path (query strings dropped), 404s included. */
  hits: Map<string, number>;
  totalHits(): number;
  close(): Promise<void>;
}

export async function startFixtureWeb(o: { port?: number; pagesDir?: string } = {}): Promise<FixtureWeb> {
  const dir = o.pagesDir ?? PAGES_DIR;
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://fixture.invalid').pathname;
    hits.set(pathname, (hits.get(pathname) ?? 0) + 1);
    const name = path.basename(pathname);
    const file = path.join(dir, name);
    if (req.method !== 'GET' || !/^[a-z0-9-]+\.html$/.test(name) || `/${name}` !== pathname || !fs.existsSync(file)) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Not found</title><p>Not found.</p>');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(fs.readFileSync(file));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    baseUrl: `http://127.0.0.1:${port}/`,
    allowHost: `127.0.0.1:${port}`,
    hits,
    totalHits: () => [...hits.values()].reduce((a, b) => a + b, 0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
