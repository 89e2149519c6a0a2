import { defineConfig } from 'vitest/config';

/**
 * `npm run test:faults`: the long reliability matrix (every crash point, torn writes, random kills,
 * more fault seeds). Files run one after another: each already runs two labs at a time, which is
 * what two cores take. The fast sample of the same tests is part of `npm test`.
 */
export default defineConfig({
  test: {
    // The session store's random-kill test again, with 200 kills instead of the 50 of `npm test`.
    include: ['test/reliability/**/*.faults.ts', 'test/session/store.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    env: { NO_COLOR: '1', CI: '', UP_STORE_KILLS: '200' },
  },
});
