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
