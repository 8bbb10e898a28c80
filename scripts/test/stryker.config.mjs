// Stryker's mutation testing of the TypeScript engine (web/src/engine) through Vitest: run by
// scripts/test/stryker.sh, which installs Stryker into build/stryker (never into node_modules) and passes
// the files to mutate. Mutants run in a sandbox under build/stryker/sandbox; with per-test coverage each
// mutant runs only the Vitest tests that reach it (tests/wasm needs the built module, npm run build).
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'scripts/test/stryker.vitest.config.ts', related: false },
  coverageAnalysis: 'perTest',
  mutate: ['web/src/engine/**/*.ts', '!web/src/engine/generated/**'],
  // build/ stays out of the sandbox but for the native CLI: tests/wasm holds the wasm module's numbers to the
  // CLI's (build/native/gpprobe, run from the sandbox), and without it the initial run fails. (Patterns
  // as in .gitignore: a file is re-included only when its folder is not excluded as a whole.)
  ignorePatterns: [
    'build/*',
    '!build/native',
    'build/native/*',
    '!build/native/gpprobe',
    'dist',
    'test-results',
    'python',
    // the browser tests, not their fixtures (tests/web reads the Projector fixtures)
    'tests/e2e/*.ts',
    'tests/fuzz',
    'tests/python',
    'core',
  ],
  tempDirName: 'build/stryker/sandbox',
  cleanTempDir: true,
  concurrency: 1,
  // The initial run is the whole of tests/wasm and tests/web in one worker thread: past Stryker's default
  // 5 minutes on a busy machine, where it was stopped as "timed out" before any mutant ran.
  dryRunTimeoutMinutes: 60,
  timeoutFactor: 4,
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'build/stryker/report.json' },
  htmlReporter: { fileName: 'build/stryker/report.html' },
  thresholds: { high: 80, low: 60, break: null },
};
