// A local world for the fetch tests: real node:http servers on 127.0.0.1 that count every TCP connection
// they accept, so a test can prove that a refused URL never reached them.
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface TestServer {
  port: number;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** `127.0.0.1:PORT`, the allow-list entry for this server. */
  hostPort: string;
  connections: number;
  requests: string[];
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void;

export async function startServer(handler: Handler = (_q, res) => res.end('ok')): Promise<TestServer> {
  const server = http.createServer((req, res) => {
    state.requests.push(req.url ?? '');
    handler(req, res, state.requests.length);
  });
  const state: TestServer = {
    port: 0,
    origin: '',
    hostPort: '',
    connections: 0,
    requests: [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('connection', () => {
    state.connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  state.origin = `http://127.0.0.1:${state.port}`;
  state.hostPort = `127.0.0.1:${state.port}`;
  return state;
}

export function allow(...servers: TestServer[]): Set<string> {
  return new Set(servers.map((s) => s.hostPort));
}

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Fixture files the tests read, inside the repository (test/fixtures/README.md says where each came from). */
export const fixturesDir = (name: 'readability' | 'pdf'): string => path.join(repoRoot, 'test', 'fixtures', name);

export function html(body: string, head = ''): string {
  return `<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`;
}

/** Enough prose to clear the 200-character "not a source" floor. */
export const PROSE =
  'The committee published its findings after a year of hearings. Witnesses described the programme in detail, ' +
  'and the report weighs their accounts against the budget records. Its conclusions are cautious but clear. ';
