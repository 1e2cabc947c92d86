// Gemini CLI support is planned; until then the target refuses instead of guessing where its files go.
import type { Target } from './types.js';

export const geminiTarget: Target = {
  name: 'gemini',
  async run(ctx) {
    ctx.err(`deep-research: the gemini target (Gemini CLI) is not supported yet. Only --target claude is available.`);
    return 1;
  },
};
