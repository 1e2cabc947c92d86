// The stdio transport of the server: the SDK's StdioServerTransport, except for what it does with a
// message it cannot take. The SDK's reader throws once its buffer passes 10 MiB and then closes the
// transport, ending the session; a line that is not JSON-RPC is dropped without an answer, so the
// client waits for its timeout. Here a line over the limit is skipped as it streams in (never held in
// memory), answered with a JSON-RPC error carrying its id, and reading goes on; a line that does not
// parse gets a parse error (SPEC 7). Framing and parsing are the SDK's own.
import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import { deserializeMessage, serializeMessage, type JSONRPCMessage, type RequestId, type Transport } from '@modelcontextprotocol/server';

/** 10 MiB, the SDK's own stdio buffer limit. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

const INVALID_REQUEST = -32600;
const PARSE_ERROR = -32700;
/** Bytes kept from each end of an oversized line, to find its id. */
const EDGE = 1024;

// A top-level "id" can be recovered without parsing the line: at its start, after other top-level
// scalars ({"jsonrpc":"2.0","id":7,…}), or at its end ({…,"jsonrpc":"2.0","id":7}, the SDK client's
// order). Inside a string every quote is escaped, so `"id"` followed by `:` is a key there.
const STR = String.raw`"(?:[^"\\]|\\.)*"`;
const ID_VALUE = String.raw`(-?\d{1,16}|${STR})`;
const ID_AT_START = new RegExp(String.raw`^\s*\{(?:\s*${STR}\s*:\s*(?:${STR}|-?\d[\d.eE+-]*|true|false|null)\s*,)*?\s*"id"\s*:\s*${ID_VALUE}`);
const ID_AT_END = new RegExp(String.raw`[{,]\s*"id"\s*:\s*${ID_VALUE}\s*\}\s*$`);

/** Server transport over stdin/stdout: newline-delimited JSON-RPC, as the SDK's stdio transport. */
export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private parts: Buffer[] = [];
  private size = 0;
  /** Set while the current line is over the limit: only its size and its two ends are kept. */
  private oversized?: { bytes: number; head: Buffer; tail: Buffer };
  private started = false;

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
  ) {}

  private readonly onData = (chunk: Buffer | string): void => {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    while (start < buf.length) {
      const nl = buf.indexOf(0x0a, start);
      this.take(buf.subarray(start, nl === -1 ? buf.length : nl));
      if (nl === -1) break;
      this.endLine();
      start = nl + 1;
    }
  };

  private readonly onStreamError = (error: Error): void => {
    this.onerror?.(error);
  };

  async start(): Promise<void> {
    if (this.started) throw new Error('LineStdioTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.parts = [];
    this.size = 0;
    this.oversized = undefined;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(serializeMessage(message))) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  private take(part: Buffer): void {
    if (part.length === 0) return;
    const o = this.oversized;
    if (o) {
      o.bytes += part.length;
      o.tail = part.length >= EDGE ? Buffer.from(part.subarray(part.length - EDGE)) : Buffer.concat([o.tail, part]).subarray(-EDGE);
      return;
    }
    if (this.size + part.length <= this.maxBytes) {
      this.parts.push(part);
      this.size += part.length;
      return;
    }
    const all = Buffer.concat([...this.parts, part]);
    this.oversized = { bytes: all.length, head: Buffer.from(all.subarray(0, EDGE)), tail: Buffer.from(all.subarray(-EDGE)) };
    this.parts = [];
    this.size = 0;
  }

  private endLine(): void {
    const o = this.oversized;
    if (o) {
      this.oversized = undefined;
      const id = findId(o.head.toString('utf8')) ?? findId(o.tail.toString('utf8'), true);
      this.reply(
        id,
        INVALID_REQUEST,
        `Request too large: ${mib(o.bytes)} MiB, over this server's limit of ${mib(this.maxBytes)} MiB for one message. Nothing was done; send less in one call (shorter texts, fewer items).`,
      );
      return;
    }
    const line = Buffer.concat(this.parts, this.size).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.size = 0;
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      this.reply(findId(line.slice(0, EDGE)) ?? findId(line.slice(-EDGE), true), PARSE_ERROR, 'Parse error: the message is not valid JSON. Send one JSON-RPC message per line.');
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (err) {
      // Only a request waits for an answer; a malformed response or notification is reported and dropped.
      const request = json as { id?: unknown; method?: unknown } | null;
      const id = request && typeof request === 'object' && (typeof request.id === 'number' || typeof request.id === 'string') ? request.id : undefined;
      if (id !== undefined && 'method' in (request as object)) this.reply(id, INVALID_REQUEST, 'Invalid Request: the message is not a valid JSON-RPC 2.0 request.');
      else this.onerror?.(err as Error);
      return;
    }
    this.onmessage?.(message);
  }

  private reply(id: RequestId | undefined, code: number, message: string): void {
    // The SDK's message schema takes an error without an id (JSON-RPC writes null) when none was found.
    const error = { jsonrpc: '2.0' as const, ...(id !== undefined ? { id } : {}), error: { code, message } };
    this.send(error as JSONRPCMessage).catch((err: Error) => this.onerror?.(err));
  }
}

function findId(text: string, atEnd = false): RequestId | undefined {
  const m = (atEnd ? ID_AT_END : ID_AT_START).exec(atEnd ? text.replace(/\r$/, '') : text);
  if (!m) return undefined;
  try {
    const id = JSON.parse(m[1] as string) as unknown;
    return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : undefined;
  } catch {
    return undefined;
  }
}

function mib(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '');
}
