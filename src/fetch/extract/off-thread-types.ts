/** The extraction worker's request and answer (see off-thread.ts and worker.ts). */
import type { Extracted } from './types.js';

export interface ExtractRequest {
  body: string;
  contentType: string;
  url: string;
  /** The page's whole visible text (`fetch_source {full: true}`). */
  full?: boolean;
}

export type ExtractJob = ExtractRequest & { id: number };

export type ExtractAnswer = { id: number; extracted: Extracted } | { id: number; error: string };
