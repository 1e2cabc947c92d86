// Local stand-ins for the model APIs the agent CLIs call, on 127.0.0.1 only. Each records every request
// body, answers with a short text (or, when scripted, a function call first), and streams as the client
// expects: Gemini's streamGenerateContent (SSE), OpenAI's Responses API (SSE events) and Chat Completions
// (SSE chunks).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  url: string;
  body: Record<string, unknown>;
}

export interface Stub {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

type Answer = (req: Recorded, n: number, res: http.ServerResponse) => void;

async function serve(answer: Answer): Promise<Stub> {
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = raw === '' ? {} : (JSON.parse(raw) as Record<string, unknown>);
      } catch {
        body = { raw };
      }
      const rec = { url: req.url ?? '', body };
      requests.push(rec);
      answer(rec, requests.length, res);
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

/** Gemini API (generativelanguage): every call gets the text `reply`. */
export function geminiStub(reply = 'STUB-OK'): Promise<Stub> {
  return serve((req, _n, res) => {
    const chunk = {
      candidates: [{ content: { role: 'model', parts: [{ text: reply }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
    };
    if (req.url.includes(':streamGenerateContent')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify(chunk)}\n\n`);
    } else if (req.url.includes(':countTokens')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ totalTokens: 1 }));
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(chunk));
    }
  });
}

/** OpenAI Responses API, as Codex CLI streams it. With `call`, the first response is that function call. */
export function responsesStub(call?: { name: string; namespace?: string; arguments: string }): Promise<Stub> {
  return serve((req, n, res) => {
    if (!req.url.endsWith('/responses')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{}');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const id = `resp_${n}`;
    const send = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    send('response.created', { response: { id } });
    const item =
      n === 1 && call !== undefined
        ? { type: 'function_call', id: 'fc_1', call_id: 'call_1', ...call }
        : { type: 'message', role: 'assistant', id: `msg_${n}`, content: [{ type: 'output_text', text: 'STUB-OK' }] };
    send('response.output_item.done', { output_index: 0, item });
    send('response.completed', {
      response: {
        id,
        usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
      },
    });
    res.end();
  });
}

/** OpenAI Chat Completions, streamed; what OpenCode's openai-compatible provider calls. */
export function chatStub(): Promise<Stub> {
  return serve((req, _n, res) => {
    if (!req.url.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{}');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'stub-model' };
    res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: 'STUB-OK' }, finish_reason: null }] })}\n\n`);
    res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } })}\n\n`);
    res.end('data: [DONE]\n\n');
  });
}
