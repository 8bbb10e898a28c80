// The library as users get it: `npm pack` of this repository, installed offline into a fresh project
// (it has no dependencies to fetch), imported from Node and from a Vite app build run in Chromium,
// each fitting a probe whose numbers are the golden reference's; the tarball also carries the
// <gpprobe-probe> module and the app it embeds (gpprobe/embed).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserPerFile, patient } from './browser.ts';
import { serveStatic } from './static_server.ts';

const ROOT = resolve('.');
const golden = (
  JSON.parse(readFileSync('tests/reference/gpp_golden.json', 'utf8')) as {
    cases: {
      name: string;
      epsilon: number;
      strength: number;
      observations: number[][];
      labels: number[];
      queries: number[][];
      expected: { judged: number[]; episteme: number[] };
    }[];
  }
).cases.find((c) => c.name === 'random O=12 d=5')!;

// The consumer's code, the same in Node and in the browser: fit the golden case, score its queries.
const consumer = `
import { createProbeEngine } from 'gpprobe';
export async function run() {
  const c = ${JSON.stringify({ epsilon: golden.epsilon, strength: golden.strength, observations: golden.observations, labels: golden.labels, queries: golden.queries })};
  const engine = await createProbeEngine();
  const d = c.queries[0].length;
  const probe = engine.fitProbe({ observations: { data: Float64Array.from(c.observations.flat()), rows: c.observations.length, cols: d },
    labels: Uint8Array.from(c.labels), epsilon: c.epsilon, strength: c.strength });
  const r = probe.score({ data: Float64Array.from(c.queries.flat()), rows: c.queries.length, cols: d });
  probe.dispose();
  return { judged: Array.from(r.judgedProbability), episteme: Array.from(r.episteme) };
}
`;

function expectGolden(r: { judged: number[]; episteme: number[] }): void {
  r.judged.forEach((v, i) => expect(Math.abs(v - golden.expected.judged[i])).toBeLessThanOrEqual(1e-8));
  r.episteme.forEach((v, i) => expect(Math.abs(v - golden.expected.episteme[i])).toBeLessThanOrEqual(1e-8));
}

let dir = '';
let project = '';
let server: Server | null = null;
let appUrl = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gpprobe-package-'));
  const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' })
    .trim()
    .split('\n')
    .at(-1)!;
  project = join(dir, 'consumer');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // --offline: the registry is never asked; the tarball must need nothing else.
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', join(dir, tarball)], {
    cwd: project,
    stdio: 'pipe',
  });
  writeFileSync(join(project, 'probe.mjs'), consumer);
  // A Vite app that imports the library (the repository's Vite builds it; the project has no config).
  writeFileSync(
    join(project, 'index.html'),
    '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>consumer</title><pre id="out"></pre><script type="module" src="./main.js"></script>',
  );
  writeFileSync(
    join(project, 'main.js'),
    `import { run } from './probe.mjs';\nrun().then((r) => { document.getElementById('out').textContent = JSON.stringify(r); }, (e) => { document.getElementById('out').textContent = 'error: ' + e; });\n`,
  );
  execFileSync(
    process.execPath,
    [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', '--base', './'],
    { cwd: project, stdio: 'pipe' },
  );
  const served = await serveStatic(join(project, 'dist'), '');
  server = served.server;
  appUrl = `${served.url}/`;
}, patient(180_000));

afterAll(() => {
  server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const pages = browserPerFile(() => [new URL(appUrl || 'http://127.0.0.1').origin]);

describe('the npm package', () => {
  it('installs offline, with the library, its types and the embed module', () => {
    const installed = join(project, 'node_modules/gpprobe');
    const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
      private?: boolean;
      dependencies?: object;
      exports: Record<string, unknown>;
    };
    expect(pkg.private).toBeUndefined();
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(Object.keys(pkg.exports)).toEqual(['.', './embed', './package.json']);
    for (const file of [
      'dist/lib/index.js',
      'dist/lib/index.d.ts',
      'dist/lib/generated/gpprobe.wasm',
      'dist/app/embed.js',
      'dist/app/index.html',
    ]) {
      expect(() => readFileSync(join(installed, file)), file).not.toThrow();
    }
  });

  it('runs a probe in Node with the golden numbers', () => {
    const out = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', `import { run } from './probe.mjs'; console.log(JSON.stringify(await run()));`],
      { cwd: project, encoding: 'utf8' },
    );
    expectGolden(JSON.parse(out));
  });

  it('runs a probe in a Vite app build, in Chromium, with the golden numbers', async () => {
    const page = pages.page;
    await page.goto(appUrl);
    await page.waitForFunction(() => (document.getElementById('out')?.textContent ?? '') !== '', undefined, {
      timeout: patient(60_000),
    });
    const text = (await page.locator('#out').textContent())!;
    expect(text.startsWith('error')).toBe(false);
    expectGolden(JSON.parse(text));
  });
});
