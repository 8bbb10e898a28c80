import { defineConfig } from 'vitest/config';

// Browser tests: Debian's Chromium (playwright-core) against the production build in dist/app,
// served on loopback by tests/e2e/global_setup.ts. Run after scripts/build.sh.
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.e2e.ts'],
    globalSetup: ['tests/e2e/global_setup.ts'],
    environment: 'node',
    testTimeout: 180_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
