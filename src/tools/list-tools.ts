// tools/list is what every session pays for in context tokens. The SDK's JSON Schema carries what a
// model never needs ($schema, additionalProperties: false, numeric and length bounds it will not
// approach); this renders the same zod schemas without it. Every call is still validated against
// the full zod schemas, bounds included, and a violation is answered with what to fix.
import * as z from 'zod';
import type { ZodRawShape } from 'zod';
import type { Tool } from '@modelcontextprotocol/server';
import type { ToolDefinition } from './tool.js';

type Json = unknown;

export function compactSchema(node: Json): Json {
  if (Array.isArray(node)) return node.map(compactSchema);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(node as Record<string, Json>)) {
    if (k === '$schema' || k === 'minLength' || k === 'maxLength' || k === 'minItems' || k === 'maxItems') continue;
    if (k === 'additionalProperties' && v === false) continue;
    if (k === 'minimum' || k === 'maximum') continue;
    out[k] = compactSchema(v);
  }
  return out;
}

/** Output schemas are listed as field names and JSON types only: the text reply carries the meaning. */
export function outlineSchema(node: Json): Json {
  if (node === null || typeof node !== 'object') return node;
  const n = node as Record<string, Json>;
  const out: Record<string, Json> = { type: n.type };
  if (n.properties && typeof n.properties === 'object') {
    out.properties = Object.fromEntries(
      Object.entries(n.properties as Record<string, Record<string, Json>>).map(([k, v]) => {
        return [k, { type: v.type }];
      }),
    );
  }
  return out;
}

export function listTools(tools: readonly ToolDefinition<ZodRawShape>[]): Tool[] {
  return tools.map((t) => ({
    name: t.name,
    description: t.config.description,
    inputSchema: compactSchema(z.toJSONSchema(z.object(t.config.inputSchema), { target: 'draft-7', io: 'input' })) as Tool['inputSchema'],
    outputSchema: outlineSchema(z.toJSONSchema(z.object(t.config.outputSchema), { target: 'draft-7', io: 'output' })) as Tool['outputSchema'],
    annotations: t.config.annotations,
  }));
}
