// OpenCode support is planned; until then the target refuses instead of guessing where its files go.
import type { Target } from './types.js';

export const opencodeTarget: Target = {
  name: 'opencode',
  async run(ctx) {
    ctx.err(`deep-research: the opencode target (OpenCode) is not supported yet. Only --target claude is available.`);
    return 1;
  },
};
