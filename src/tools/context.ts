// What every tool handler may use. Built once per server; tests build their own with a temp root.
import * as path from 'node:path';
import { RunStore } from '../store/run-store.js';

export interface ToolContext {
  store: RunStore;
  cwd: string;
  /** ISO time for new records; injectable so tests and the demo render stable files. */
  now: () => string;
  env: NodeJS.ProcessEnv;
  /** Grounding of facts against stored text (SPEC 4.1); on unless DEEP_RESEARCH_GROUNDING=off. */
  grounding: boolean;
  /** Fetch limits; tests shorten the retry backoff. */
  fetch: { timeoutMs?: number; totalTimeoutMs?: number; baseDelayMs?: number; pdfTimeoutMs?: number };
}

export interface ContextOptions {
  artifactsRoot?: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  now?: () => string;
  fetch?: { timeoutMs?: number; totalTimeoutMs?: number; baseDelayMs?: number; pdfTimeoutMs?: number };
}

export function createContext(o: ContextOptions = {}): ToolContext {
  const env = o.env ?? process.env;
  const cwd = o.cwd ?? process.cwd();
  const root = o.artifactsRoot ?? (env.DEEP_RESEARCH_ARTIFACTS ? path.resolve(cwd, env.DEEP_RESEARCH_ARTIFACTS) : path.join(cwd, 'artifacts'));
  const fixed = env.DEEP_RESEARCH_FIXED_TIME;
  return {
    store: new RunStore(root),
    cwd,
    now: o.now ?? (fixed ? () => fixed : () => new Date().toISOString()),
    env,
    grounding: env.DEEP_RESEARCH_GROUNDING !== 'off',
    fetch: o.fetch ?? {},
  };
}
