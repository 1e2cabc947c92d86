import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'test/cli-targets/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/helpers/temp-root.ts'],
    env: { DEEP_RESEARCH_LOG: 'off' },
  },
});
