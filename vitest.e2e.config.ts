import { defineConfig } from 'vitest/config';

// Browser tests: Debian's Chromium (playwright-core) against the production build in dist/app,
// served on loopback by tests/e2e/global_setup.ts. Run after scripts/make/build.sh. Tests that hold the app's
// numbers to the library's load it in Node with relaxed SIMD (Node 20's flag), so both run the relaxed
// twin, as Chromium does: the same bits on the same machine.
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.e2e.ts'],
    globalSetup: ['tests/e2e/global_setup.ts'],
    environment: 'node',
    testTimeout: 180_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    execArgv: ['--experimental-wasm-relaxed-simd'],
  },
});
