import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Unit and module tests in Node: tests/wasm (the built wasm module through the TS API) and tests/web
// (parsers and state). The browser tests in tests/e2e run separately against the production build.
// Node 20 runs relaxed SIMD behind a flag: with it the tests load the relaxed twin by default, as
// Chromium does (tests/wasm/simd_builds.test.ts loads both twins).
// One test file per core (Vitest's default is one fewer: a single file at a time on 2 cores);
// GPPROBE_VITEST_WORKERS=<n> sets it.
export default defineConfig({
  test: {
    include: ['tests/wasm/**/*.test.ts', 'tests/web/**/*.test.ts', 'tests/repo/**/*.test.ts'],
    environment: 'node',
    testTimeout: 240_000,
    maxWorkers: Number(process.env.GPPROBE_VITEST_WORKERS) || Math.max(1, availableParallelism()),
    execArgv: ['--experimental-wasm-relaxed-simd'],
  },
});
