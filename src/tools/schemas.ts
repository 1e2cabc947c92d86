// Zod pieces shared by several tools. Every string and array is bounded: the input comes from a model.
import { z } from 'zod';
import { CONFIDENCES, LEVELS, PHASES } from '../engine/types.js';

export const runId = z.string().min(1).max(120);
export const threadName = z.string().min(1).max(200);
export const phase = z.enum(PHASES);
export const confidence = z.enum(CONFIDENCES);
export const level = z.enum(LEVELS);

export const subQuestion = z.object({
  id: z.string().min(1).max(40),
  question: z.string().min(1).max(1000),
});

export const threadDefinition = {
  sub_questions: z.array(subQuestion).min(1).max(20),
  subjects: z
    .array(z.string().min(1).max(200))
    .max(20)
    .describe('Entities each needing its own round.'),
  source_strategy: z
    .array(phase)
    .max(4)
    .optional()
    .describe('Phases to use; default all four.'),
};

export const directivesOut = z.object({
  round: z.number().int(),
  phase,
  forced_subject: z.string().optional(),
  reformulate_from: z.string().optional(),
  escape_strategy: z.string().optional(),
  query_hints: z.array(z.string()),
  fetch_prompt: z.string(),
});
