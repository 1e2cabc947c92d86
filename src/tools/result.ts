// The one way a tool answer is built: structuredContent for clients that read it, and a short text
// rendering carrying every decision field for clients (Claude Code) that show the model only text.
// Size caps and isError live here and nowhere else.
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { InputError } from '../errors.js';

const MAX_TEXT = 24_000;

/** Tools ask for an annotation set by naming their effect once. */
export type Effect = 'read' | 'write' | 'write-idempotent' | 'fetch';

/** Destructive and idempotent hints only mean something for tools that write, so read tools omit them. */
export function annotationsFor(effect: Effect): ToolAnnotations {
  if (effect === 'read') return { readOnlyHint: true, openWorldHint: false };
  return {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: effect === 'write-idempotent' || effect === 'fetch',
    openWorldHint: effect === 'fetch',
  };
}

/**
 * `omitFromText` names fields the text rendering leaves out because `extraText` carries them in another
 * form (fetch_source puts a page's title and outline inside its untrusted block).
 */
export function ok(structured: Record<string, unknown>, extraText?: string, omitFromText: readonly string[] = []): CallToolResult {
  const shown = omitFromText.length === 0 ? structured : Object.fromEntries(Object.entries(structured).filter(([k]) => !omitFromText.includes(k)));
  let text = renderFields(shown);
  if (extraText) text += `\n${extraText}`;
  if (text.length > MAX_TEXT) text = `${text.slice(0, MAX_TEXT)}\n[cut at ${MAX_TEXT} characters]`;
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

export function fail(message: string): CallToolResult {
  return { content: [{ type: 'text', text: `Refused: ${message}` }], isError: true };
}

/** InputError becomes a refusal that teaches; anything else is a bug, reported without a stack. */
export function errorResult(err: unknown): CallToolResult {
  if (err instanceof InputError) return fail(err.message);
  const message = err instanceof Error ? err.message : String(err);
  return fail(`internal error: ${message}. Nothing was written for this call; report this if it repeats.`);
}

/** `key: value` lines; nested objects flatten to dotted keys, lists of objects to compact JSON. */
export function renderFields(value: Record<string, unknown>, prefix = ''): string {
  const lines: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined || k === 'content') continue;
    const key = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      lines.push(renderFields(v as Record<string, unknown>, key));
    } else if (Array.isArray(v)) {
      if (v.length === 0) lines.push(`${key}: (none)`);
      else if (v.every((x) => x === null || typeof x !== 'object')) {
        lines.push(v.length > 3 || v.some((x) => String(x).length > 60) ? `${key}:\n${v.map((x) => `  - ${String(x)}`).join('\n')}` : `${key}: ${v.join(', ')}`);
      } else lines.push(`${key}: ${JSON.stringify(v)}`);
    } else {
      lines.push(`${key}: ${String(v)}`);
    }
  }
  return lines.filter(Boolean).join('\n');
}
