#!/usr/bin/env node
// Stdio entry of the MCP server, as agent CLIs spawn it. The SDK's serveStdio picks the protocol era from
// the opening message (2025's initialize, or 2026-07-28's server/discover and per-request _meta) and pins
// one server from the factory to the connection; every server shares the one tool context.
import { appendFileSync } from 'node:fs';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createServerFor } from './create-server.js';
import { log, setLogging } from './log.js';
import { LineStdioTransport } from './stdio-transport.js';
import { createContext } from './tools/context.js';

const ctx = createContext();
setLogging(ctx.env.DEEP_RESEARCH_LOG !== 'off');
const trace = process.env.DEEP_RESEARCH_TRACE_FILE;
serveStdio(
  () => {
    const server = createServerFor(ctx);
    if (trace) {
      // Written at once: a client that lists tools and hangs up (gemini mcp list) may end the process
      // before a deferred write would run.
      server.server.oninitialized = () => appendFileSync(trace, `${JSON.stringify({ event: 'initialized', client: server.server.getClientVersion() })}\n`);
    }
    return server;
  },
  { transport: new LineStdioTransport(), onerror: (err) => log({ event: 'error', message: err.message }) },
);
log({ event: 'ready' });
