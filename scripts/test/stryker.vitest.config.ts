// The Vitest configuration Stryker runs (scripts/test/stryker.sh): the project's (vitest.config.ts) with two
// changes. Stryker runs Vitest in worker threads, which take no V8 flags: without --experimental-wasm-relaxed-simd
// Node 20 loads the plain wasm module, not its relaxed twin. And the test files are narrowed to
// GPPROBE_STRYKER_TESTS (comma-separated globs) when it is set, so that a run on one engine file need not
// start with the whole suite.
import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.ts';

const only = process.env.GPPROBE_STRYKER_TESTS?.split(',').filter(Boolean);
const { execArgv: _flags, ...test } = base.test ?? {};
export default defineConfig({ ...base, test: { ...test, ...(only ? { include: only } : {}) } });
