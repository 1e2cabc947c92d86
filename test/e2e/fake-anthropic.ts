// A stand-in for the Anthropic Messages API on 127.0.0.1: it records every request body and answers with a
// minimal valid SSE stream. Scripted replies (text, or tool calls) drive Claude Code through a few steps
// without a model, so a test can see exactly what reached "the model" and what the tools answered.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Reply = { text: string } | { tools: Array<{ name: string; input: Record<string, unknown> }> };

export interface RecordedRequest {
  url: string;
  body: {
    system?: unknown;
    messages?: Array<{ role: string; content: unknown }>;
    tools?: Array<{ name: string }>;
  };
  raw: string;
}

export interface FakeApi {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

function sse(res: http.ServerResponse, reply: Reply, n: number): void {
  const send = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send('message_start', {
    message: {
      id: `msg_${n}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    },
  });
  if ('text' in reply) {
    send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: reply.text } });
    send('content_block_stop', { index: 0 });
    send('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 1 } });
  } else {
    reply.tools.forEach((t, i) => {
      send('content_block_start', { index: i, content_block: { type: 'tool_use', id: `toolu_${n}_${i}`, name: t.name, input: {} } });
      send('content_block_delta', { index: i, delta: { type: 'input_json_delta', partial_json: JSON.stringify(t.input) } });
      send('content_block_stop', { index: i });
    });
    send('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 1 } });
  }
  send('message_stop', {});
  res.end();
}

/** Starts the fake API. Scripted replies go, in order, to requests that offer tools (the agent's own turns). */
export async function startFakeApi(script: Reply[] = []): Promise<FakeApi> {
  const requests: RecordedRequest[] = [];
  const queue = [...script];
  let n = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      n++;
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: RecordedRequest['body'] = {};
      try {
        body = JSON.parse(raw) as RecordedRequest['body'];
      } catch {
        body = {};
      }
      requests.push({ url: req.url ?? '', body, raw });
      if (!(req.url ?? '').startsWith('/v1/messages') || (req.url ?? '').includes('count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: 1 }));
        return;
      }
      const reply = (body.tools?.length ?? 0) > 0 ? (queue.shift() ?? { text: 'done' }) : { text: 'ok' };
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      sse(res, reply, n);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The text of every message block the requests carried (texts, tool inputs and tool results), in order. */
export function conversationText(requests: RecordedRequest[]): string {
  const out: string[] = [];
  const visit = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(visit);
    else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.text === 'string') out.push(o.text);
      if (o.content !== undefined) visit(o.content);
      if (o.input !== undefined) out.push(JSON.stringify(o.input));
    }
  };
  for (const r of requests) for (const m of r.body.messages ?? []) visit(m.content);
  return out.join('\n');
}

/** The system prompt of the requests, as text. */
export function systemText(requests: RecordedRequest[]): string {
  return requests.map((r) => JSON.stringify(r.body.system ?? '')).join('\n');
}
