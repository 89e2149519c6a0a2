import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores here: integration tests start servers and kubectl processes; keep parallelism modest.
    maxWorkers: 2,
    env: { NO_COLOR: '1', CI: '' },
  },
});
