import type { ZodRawShape, z } from 'zod';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/server';
import type { ToolContext } from './context.js';

export interface ToolExtra {
  /** Sends an MCP progress notification when the client asked for them; a no-op otherwise. */
  progress: (message: string, progress: number, total?: number) => Promise<void>;
  signal: AbortSignal;
}

/** One tool: schema, description, annotations and handler kept together (one file per tool). */
export interface ToolDefinition<S extends ZodRawShape> {
  name: string;
  config: {
    title: string;
    description: string;
    inputSchema: S;
    outputSchema: ZodRawShape;
    annotations: ToolAnnotations;
    /** Refuse unknown top-level fields (naming the nearest known one) instead of dropping them. */
    strict?: boolean;
  };
  handler: (args: z.infer<z.ZodObject<S>>, ctx: ToolContext, extra: ToolExtra) => Promise<CallToolResult> | CallToolResult;
}

/** A tool as its file writes it: the shapes come from functions, run on first use. */
export interface ToolSpec<S extends ZodRawShape> extends Omit<ToolDefinition<S>, 'config'> {
  config: Omit<ToolDefinition<S>['config'], 'inputSchema' | 'outputSchema'> & { inputSchema: () => S; outputSchema: () => ZodRawShape };
}

/**
 * The tool with its shapes built on first read. Built at module load, every tool's zod graph cost every cold
 * start (bench: cold-start), yet the bundle answers tools/list from a list made at build time: a session
 * builds only the shapes of the tools it calls.
 */
export function defineTool<S extends ZodRawShape>(spec: ToolSpec<S>): ToolDefinition<S> {
  const input = once(spec.config.inputSchema);
  const output = once(spec.config.outputSchema);
  return {
    ...spec,
    config: {
      ...spec.config,
      get inputSchema() {
        return input();
      },
      get outputSchema() {
        return output();
      },
    },
  };
}

/** `build`, run on the first call only; later calls return that first value (zod schemas shared by tools). */
export function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}
