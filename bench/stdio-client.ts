// A bare JSON-RPC client over a child's stdio, as an agent CLI speaks to an MCP server: one JSON message
// per line. No SDK on this side, so what is timed is the server, not client-side schema validation.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export const PROTOCOL_VERSION = '2025-06-18';

type Json = Record<string, unknown>;

interface Pending {
  resolve: (v: Json) => void;
  reject: (e: Error) => void;
}

/** The environment a server child gets: the caller's, minus loaders tsx or a debugger would inject. */
export function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'NODE_OPTIONS') env[k] = v;
  return { ...env, ...extra };
}

export class StdioClient {
  readonly child: ChildProcessWithoutNullStreams;
  private nextId = 1;
  private buffer = '';
  private stderr = '';
  private stderrBuffer = '';
  /** Called with each line the server writes to stderr (its JSON logs). */
  onStderrLine?: (line: string) => void;
  private readonly pending = new Map<number, Pending>();
  private readonly exited: Promise<number | null>;

  constructor(command: string, args: string[], env: Record<string, string>, cwd?: string) {
    this.child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'], ...(cwd ? { cwd } : {}) });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => this.onData(chunk));
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-4000);
      this.stderrBuffer += chunk;
      let nl: number;
      while ((nl = this.stderrBuffer.indexOf('\n')) >= 0) {
        const line = this.stderrBuffer.slice(0, nl);
        this.stderrBuffer = this.stderrBuffer.slice(nl + 1);
        this.onStderrLine?.(line);
      }
    });
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code) => {
        for (const p of this.pending.values()) p.reject(new Error(`server exited (${code}) before answering; stderr: ${this.stderr.trim()}`));
        this.pending.clear();
        resolve(code);
      });
    });
    this.child.on('error', (err) => {
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    });
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl).trim();
      this.buffer = this.buffer.slice(nl + 1);
      if (!line) continue;
      const msg = JSON.parse(line) as Json;
      if (typeof msg.id !== 'number') continue; // notifications (progress, logging)
      const p = this.pending.get(msg.id);
      if (!p) continue;
      this.pending.delete(msg.id);
      if (msg.error) p.reject(new Error(`JSON-RPC error: ${JSON.stringify(msg.error)}`));
      else p.resolve(msg.result as Json);
    }
  }

  request(method: string, params: Json = {}): Promise<Json> {
    const id = this.nextId++;
    return new Promise<Json>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  notify(method: string, params: Json = {}): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method, params })}\n`);
  }

  initialize(): Promise<Json> {
    return this.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'deep-research-bench', version: '1' },
    });
  }

  async callTool(name: string, args: Json): Promise<Json> {
    return this.request('tools/call', { name, arguments: args });
  }

  /** Closes stdin, as a CLI ends a session, and waits for the exit; `kill` sends SIGTERM at once. */
  async close(o: { kill?: boolean } = {}): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.stdin.end();
    if (o.kill) this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    try {
      await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  stderrTail(): string {
    return this.stderr.trim();
  }
}
