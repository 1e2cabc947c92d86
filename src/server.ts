#!/usr/bin/env node
// Stdio entry of the MCP server, as agent CLIs spawn it.
import { createServer } from './create-server.js';
import { log } from './log.js';
import { LineStdioTransport } from './stdio-transport.js';

const server = createServer();
await server.connect(new LineStdioTransport());
if (process.env.DEEP_RESEARCH_TRACE_FILE) {
  const { appendFileSync } = await import('node:fs');
  server.server.oninitialized = () => {
    const client = server.server.getClientVersion();
    appendFileSync(process.env.DEEP_RESEARCH_TRACE_FILE as string, `${JSON.stringify({ event: 'initialized', client })}\n`);
  };
}
log({ event: 'ready' });
