// Stryker's mutation testing of the TypeScript engine (web/src/engine) through Vitest: run by
// scripts/test/stryker.sh, which installs Stryker into build/stryker (never into node_modules) and passes
// the files to mutate. Mutants run in a sandbox under build/stryker/sandbox; with per-test coverage each
// mutant runs only the Vitest tests that reach it (tests/wasm needs the built module, npm run build).
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'scripts/test/stryker.vitest.config.ts', related: false },
  coverageAnalysis: 'perTest',
  mutate: ['web/src/engine/**/*.ts', '!web/src/engine/generated/**'],
  ignorePatterns: [
    'build',
    'dist',
    'test-results',
    'python',
    'tests/e2e',
    'tests/fuzz',
    'tests/python',
    'core',
    'docs',
  ],
  tempDirName: 'build/stryker/sandbox',
  cleanTempDir: true,
  concurrency: 1,
  timeoutFactor: 4,
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'build/stryker/report.json' },
  htmlReporter: { fileName: 'build/stryker/report.html' },
  thresholds: { high: 80, low: 60, break: null },
};
