// Our server built from src/ and linked in memory. The client side sends raw JSON-RPC messages (no SDK
// Client), so nothing client-side, such as output-schema validation, sits inside a timed span.
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createServer } from '../src/create-server.js';
import { PROTOCOL_VERSION } from './stdio-client.js';

type Json = Record<string, unknown>;

// The server's logger reads the process environment, not createServer's `env`: silence it here, or
// every timed call would also write a log line to stderr.
process.env.DEEP_RESEARCH_LOG ??= 'off';

export interface InProcess {
  request: (method: string, params?: Json) => Promise<Json>;
  callTool: (name: string, args: Json) => Promise<Json>;
  initializeResult: Json;
  close: () => Promise<void>;
}

export async function inProcess(o: { root: string; now?: () => string }): Promise<InProcess> {
  const server = createServer({
    artifactsRoot: o.root,
    cwd: o.root,
    env: { DEEP_RESEARCH_LOG: 'off' },
    now: o.now ?? (() => '2026-01-01T00:00:00.000Z'),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const pending = new Map<number, { resolve: (v: Json) => void; reject: (e: Error) => void }>();
  clientSide.onmessage = (msg: JSONRPCMessage) => {
    const m = msg as Json;
    if (typeof m.id !== 'number') return;
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.error) p.reject(new Error(`JSON-RPC error: ${JSON.stringify(m.error)}`));
    else p.resolve(m.result as Json);
  };
  await server.connect(serverSide);
  await clientSide.start();
  let nextId = 1;
  const request = (method: string, params: Json = {}): Promise<Json> => {
    const id = nextId++;
    return new Promise<Json>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      void clientSide.send({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage);
    });
  };
  const initializeResult = await request('initialize', {
    protocolVersion: PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'deep-research-bench', version: '1' },
  });
  await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' } as JSONRPCMessage);
  return {
    request,
    callTool: (name, args) => request('tools/call', { name, arguments: args }),
    initializeResult,
    close: async () => {
      await clientSide.close();
      await server.close();
    },
  };
}
