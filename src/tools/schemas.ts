// Zod pieces shared by several tools. Every string and array is bounded: the input comes from a model.
// Each is built on first use (see defineTool), once, and shared.
import { closest, distance } from 'fastest-levenshtein';
import * as z from 'zod';
import type { ZodRawShape } from 'zod';
import { CONFIDENCES, LEVELS, PHASES } from '../engine/types.js';
import { once } from './tool.js';

export const runId = once(() => z.string().min(1).max(120));
export const threadName = once(() => z.string().min(1).max(200));
export const phase = once(() => z.enum(PHASES));
export const confidence = once(() => z.enum(CONFIDENCES));
export const level = once(() => z.enum(LEVELS));

/**
 * The refusal for fields a schema does not know. A misspelled optional field would otherwise vanish
 * without a trace (`sub_question` for `sub_questions`), so it is refused with the name that was meant.
 */
export function unknownFieldsMessage(keys: readonly string[], known: readonly string[]): string {
  const named = keys.map((k) => {
    const near = known.length > 0 ? closest(k, [...known]) : undefined;
    const close = near !== undefined && distance(k.toLowerCase(), near.toLowerCase()) <= Math.max(2, Math.floor(near.length / 3));
    return close ? `"${k}" (did you mean "${near}"?)` : `"${k}"`;
  });
  return `unknown field${keys.length === 1 ? '' : 's'} ${named.join(', ')}; known fields here: ${known.join(', ')}`;
}

/** An object that refuses unknown fields, naming the nearest known one. */
export function strictObject<S extends ZodRawShape>(shape: S) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (iss) => (iss.code === 'unrecognized_keys' ? unknownFieldsMessage(iss.keys, known) : undefined),
  });
}

export const subQuestion = once(() =>
  strictObject({
    id: z.string().min(1).max(40),
    question: z.string().min(1).max(1000),
  }),
);

/** Per phase, the source types that fit the question's field; they replace the generic phase hints. */
export const sourceHints = once(() =>
  z.partialRecord(phase(), z.array(z.string().min(1).max(200)).max(8), {
    error: (iss) => {
      const keys = (iss as { keys?: unknown }).keys;
      return Array.isArray(keys) ? unknownFieldsMessage(keys.map(String), PHASES) : undefined;
    },
  }),
);

export const threadDefinition = once(() => ({
  sub_questions: z.array(subQuestion()).min(1).max(20),
  subjects: z
    .array(z.string().min(1).max(200))
    .max(20)
    .describe('Entities each needing its own round.'),
  source_strategy: z
    .array(phase())
    .max(4)
    .optional()
    .describe('Phases to use; default all four.'),
  source_hints: sourceHints().optional(),
  primary_origins: z.array(z.string().min(1).max(300)).max(10).optional(),
}));

export const directivesOut = once(() =>
  z.object({
    round: z.number().int(),
    phase: phase(),
    forced_subject: z.string().optional(),
    reformulate_from: z.string().optional(),
    escape_strategy: z.string().optional(),
    query_hints: z.array(z.string()),
    fetch_prompt: z.string(),
  }),
);
