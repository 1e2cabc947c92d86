// End-to-end tests drive the real, pinned Claude Code binary (installed into .ci/tools by the global
// setup when missing, through .ci/install-claude.sh) against a local fake Messages API. They are slow and
// need that binary, so they stay out of `npm test`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    globalSetup: ['test/e2e/global-setup.ts'],
    // One Claude Code at a time: each starts MCP servers and the machine may be small.
    fileParallelism: false,
  },
});
