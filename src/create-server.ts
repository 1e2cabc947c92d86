import { VERSION } from './version.js';
import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { createContext, type ContextOptions, type ToolContext } from './tools/context.js';
import { registerTools } from './tools/index.js';
import { setLogging } from './log.js';

// zod compiles each object schema to a function (new Function) on its first parse, which pays only for schemas
// parsed many times; a session parses each a handful of times, and a cold start paid for every protocol message's.
z.config({ jitless: true });

export const SERVER_NAME = 'deep-research';
export const SERVER_VERSION = VERSION;

export function createServer(options: ContextOptions = {}): McpServer {
  const ctx = createContext(options);
  setLogging(ctx.env.DEEP_RESEARCH_LOG !== 'off');
  return createServerFor(ctx);
}

/** A server over an existing context: the HTTP transport serves each request with its own server, one context. */
export function createServerFor(ctx: ToolContext): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      instructions:
        'Research runs that are resumable and grounded: start_run, then per thread start_thread → (fetch_source, check_drift)* → record_round until STOP → complete_thread; then record_critique; write report.md; verify_report.',
    },
  );
  registerTools(server, ctx);
  return server;
}
