// The Vitest configuration Stryker runs (scripts/test/stryker.sh): the project's (vitest.config.ts) with three
// changes. tests/repo is left out: it checks the repository's paths and citations through git, which the
// sandbox (a copy of the files, no checkout) does not have, and runs no engine code. Stryker runs Vitest in worker threads, which take no V8 flags: without --experimental-wasm-relaxed-simd
// Node 20 loads the plain wasm module, not its relaxed twin. And the test files are narrowed to
// GPPROBE_STRYKER_TESTS (comma-separated globs) when it is set, so that a run on one engine file need not
// start with the whole suite.
import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.ts';

const only = process.env.GPPROBE_STRYKER_TESTS?.split(',').filter(Boolean);
const { execArgv: _flags, include, ...test } = base.test ?? {};
const engineTests = (include ?? []).filter((glob) => !glob.startsWith('tests/repo/'));
export default defineConfig({ ...base, test: { ...test, include: only ?? engineTests } });
