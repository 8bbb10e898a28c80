import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Browser tests: Debian's Chromium (playwright-core) against the production build in dist/app,
// served on loopback by tests/e2e/global_setup.ts. Run after scripts/make/build.sh. Tests that hold the app's
// numbers to the library's load it in Node with relaxed SIMD (Node 20's flag), so both run the relaxed
// twin, as Chromium does: the same bits on the same machine.
//
// Test files run side by side, one per core (at most 4; GPPROBE_E2E_WORKERS=<n> sets it): much of a browser
// test is waiting (a debounced refit, a worker's message, a frame), which a second file fills. Each file has
// its own browser and pages; every wait goes through patient() and every time bound through slow()
// (tests/e2e/browser.ts), which measure the machine's slowness as the other file makes it. Vitest's own
// default is one worker fewer than the cores: one file at a time on 2 cores.
const workers = Number(process.env.GPPROBE_E2E_WORKERS) || Math.min(4, Math.max(1, availableParallelism()));
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.e2e.ts'],
    globalSetup: ['tests/e2e/global_setup.ts'],
    environment: 'node',
    testTimeout: 180_000,
    hookTimeout: 120_000,
    fileParallelism: workers > 1,
    maxWorkers: workers,
    execArgv: ['--experimental-wasm-relaxed-simd'],
  },
});
