// Real-CLI tests: the pinned Gemini CLI, Codex CLI and OpenCode (installed into .ci/tools by
// .ci/cli-checks.sh) against `deep-research install --target <cli>` in a temp HOME and project, each model
// call answered by a stub on 127.0.0.1. Slow and binary-dependent, so outside `npm test`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/cli-targets/**/*.cli.test.ts'],
    testTimeout: 240_000,
    hookTimeout: 240_000,
    pool: 'forks',
    // One agent CLI at a time: each starts the MCP server and the machine is small.
    fileParallelism: false,
    env: { DEEP_RESEARCH_LOG: 'off' },
  },
});
