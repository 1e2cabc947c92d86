// The environment an install writes into the server entry, under the key each CLI reads (Claude Code, Gemini
// CLI and Codex `env`, OpenCode `environment`). Absent when there is none, so an install without
// --local-root writes the entry exactly as before.
import type { TargetContext } from './types.js';

export function serverEnvOf<K extends string>(ctx: TargetContext, key: K): Partial<Record<K, Record<string, string>>> {
  const env = ctx.serverEnv;
  if (env === undefined || Object.keys(env).length === 0) return {};
  return { [key]: { ...env } } as Partial<Record<K, Record<string, string>>>;
}
