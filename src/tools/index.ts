// Registers every tool, and nothing else. Each tool lives in its own file.
import { ProtocolError, ProtocolErrorCode, type McpServer, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { listTools } from './list-tools.js';
import * as z from 'zod';
import type { ZodRawShape } from 'zod';
import type { ToolContext } from './context.js';
import { errorResult } from './result.js';
import { strictObject } from './schemas.js';
import { once, type ToolDefinition, type ToolExtra } from './tool.js';
import { log } from '../log.js';
import { recordingWrites } from '../store/fs-safe.js';
import { startRun } from './start-run.js';
import { startThread } from './start-thread.js';
import { fetchSource } from './fetch-source.js';
import { checkDrift } from './check-drift.js';
import { recordRound } from './record-round.js';
import { threadStatus } from './thread-status.js';
import { completeThread } from './complete-thread.js';
import { recordCritique } from './record-critique.js';
import { auditReport } from './audit-report.js';
import { recordAudit } from './record-audit.js';
import { verifyReport } from './verify-report.js';
import { coverageReport } from './coverage-report.js';
import { searchSources } from './search-sources.js';

// The bundle carries tools/list precomputed by the build (scripts/build.mjs), so a cold start does not
// convert every tool's zod schema; run from sources, the list is computed. A test compares the two.
declare const __DEEP_RESEARCH_TOOL_LIST__: string | undefined;
const PREBUILT_TOOL_LIST: ReturnType<typeof listTools> | undefined =
  typeof __DEEP_RESEARCH_TOOL_LIST__ === 'string' ? (JSON.parse(__DEEP_RESEARCH_TOOL_LIST__) as ReturnType<typeof listTools>) : undefined;

export const TOOLS = [
  startRun,
  startThread,
  fetchSource,
  checkDrift,
  recordRound,
  threadStatus,
  completeThread,
  recordCritique,
  auditReport,
  recordAudit,
  verifyReport,
  coverageReport,
  searchSources,
] as unknown as ToolDefinition<ZodRawShape>[];

/**
 * A Standard Schema that builds its zod object on first use. The SDK validates calls against object
 * schemas; tools declare raw shapes, built on first read (defineTool), and registration must not read them.
 */
function lazySchema(build: () => z.ZodType): StandardSchemaWithJSON {
  const schema = once(build);
  return {
    '~standard': {
      version: 1,
      vendor: 'zod',
      validate: (value, options) => schema()['~standard'].validate(value, options),
      jsonSchema: {
        input: (options) => schema()['~standard'].jsonSchema.input(options),
        output: (options) => schema()['~standard'].jsonSchema.output(options),
      },
    },
  };
}

/** Each tool's objects, shared by every server of the process (the HTTP transport makes one per request). */
const OBJECTS = TOOLS.map((tool) => ({
  input: lazySchema(() => (tool.config.strict ? strictObject(tool.config.inputSchema) : z.object(tool.config.inputSchema))),
  output: lazySchema(() => z.object(tool.config.outputSchema)),
}));

export function registerTools(server: McpServer, ctx: ToolContext): void {
  TOOLS.forEach((tool, i) => {
    const { title, description, annotations } = tool.config;
    const { input, output } = OBJECTS[i] as (typeof OBJECTS)[number];
    server.registerTool(tool.name, { title, description, annotations, inputSchema: input, outputSchema: output }, async (args: unknown, extra) => {
      const started = performance.now();
      const token = extra.mcpReq._meta?.progressToken;
      const toolExtra: ToolExtra = {
        signal: extra.mcpReq.signal,
        progress: async (message, progress, total) => {
          if (token === undefined) return;
          await extra.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken: token, progress, ...(total !== undefined ? { total } : {}), message },
          });
        },
      };
      let outcome = 'ok';
      let round: unknown;
      const written: string[] = [];
      try {
        const result = await recordingWrites(written, () => tool.handler(args as never, ctx, toolExtra));
        if (result.isError) outcome = 'refused';
        round = (result.structuredContent as { round?: unknown } | undefined)?.round;
        return result;
      } catch (err) {
        outcome = 'refused';
        return errorResult(err, { tool: tool.name, root: ctx.store.root, written });
      } finally {
        log({
          tool: tool.name,
          run: typeof (args as Record<string, unknown>).run_id === 'string' ? ((args as Record<string, unknown>).run_id as string) : undefined,
          thread: typeof (args as Record<string, unknown>).thread === 'string' ? ((args as Record<string, unknown>).thread as string) : undefined,
          round: typeof round === 'number' ? round : undefined,
          ms: Math.round((performance.now() - started) * 10) / 10,
          outcome,
        });
      }
    });
  });
  const compact = PREBUILT_TOOL_LIST ?? listTools(TOOLS);
  server.server.removeRequestHandler('tools/list');
  server.server.setRequestHandler('tools/list', () => ({ tools: compact }));
  guardCallShape(server);
}

type RawHandler = (request: { params?: unknown }, ctx: unknown) => Promise<unknown>;

/**
 * A tools/call whose params are not shaped as the protocol says (`"arguments": "x"`) fails in the SDK's own
 * request validation, which answers with a dump of zod issues. Such a call is a caller's mistake: it gets
 * invalid params (-32602) and one sentence saying what to send. The SDK keeps its handlers in a map it does
 * not expose; the protocol tests fail if that changes.
 */
function guardCallShape(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, RawHandler> })._requestHandlers;
  const inner = handlers?.get('tools/call');
  if (!handlers || !inner) return;
  handlers.set('tools/call', (request, ctx) => {
    const p = request.params as { name?: unknown; arguments?: unknown } | undefined;
    const what =
      p === null || typeof p !== 'object' || Array.isArray(p)
        ? 'params must be an object'
        : typeof p.name !== 'string'
          ? "params.name must be the tool's name, a string"
          : p.arguments !== undefined && (p.arguments === null || typeof p.arguments !== 'object' || Array.isArray(p.arguments))
            ? `params.arguments must be an object of the tool's named arguments, not ${p.arguments === null ? 'null' : Array.isArray(p.arguments) ? 'an array' : `a ${typeof p.arguments}`}`
            : undefined;
    if (what) return Promise.reject(new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid tools/call: ${what}.`));
    return inner(request, ctx);
  });
}
