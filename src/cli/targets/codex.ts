// Codex CLI support is planned; until then the target refuses instead of guessing where its files go.
import type { Target } from './types.js';

export const codexTarget: Target = {
  name: 'codex',
  async run(ctx) {
    ctx.err(`deep-research: the codex target (Codex CLI) is not supported yet. Only --target claude is available.`);
    return 1;
  },
};
