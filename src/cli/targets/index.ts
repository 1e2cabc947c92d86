// Registry of install targets, one module per agent CLI.
import { claudeTarget } from './claude.js';
import { codexTarget } from './codex.js';
import { geminiTarget } from './gemini.js';
import { opencodeTarget } from './opencode.js';
import type { Target } from './types.js';

export const targets: ReadonlyMap<string, Target> = new Map(
  [claudeTarget, geminiTarget, codexTarget, opencodeTarget].map((t) => [t.name, t]),
);
