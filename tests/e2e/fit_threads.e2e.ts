// The fit on the threaded wasm module, in Chromium on a cross-origin isolated page (the JS library,
// dist/lib, in a module worker): probes fitted in weight space at D = d + 1 = 201 and 769 (the Gram
// blocks, both blocked Cholesky factors, the triangular inverses and the factor of S on the thread pool)
// and in function space, then scored, on 1 thread (the single-threaded module), 2 and 3 threads of the
// threaded one. Every output has the same bits on every thread count.
import { afterAll, describe, expect, it } from 'vitest';
import { browserPerFile, patient } from './browser.ts';
import { serveStatic } from './static_server.ts';

const served = await serveStatic('.', '', { isolated: true });
const pages = browserPerFile([served.url]);
afterAll(() => served.server.close());

// In the worker: for each case, fit + score on `threads` threads; the outputs as hex of their bytes.
const WORKER = `
onmessage = async ({ data: o }) => {
  const { createProbeEngine } = await import(o.origin + '/dist/lib/index.js');
  const engine = await createProbeEngine({ threads: o.threads });
  const hex = (a) => Array.from(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), (b) => b.toString(16).padStart(2, '0')).join('');
  const out = { threads: engine.threads, cases: [] };
  for (const c of o.cases) {
    const data = engine.syntheticEmbeddings(c.observations, c.dimension, 5);
    const queries = engine.syntheticEmbeddings(c.queries, c.dimension, 6).x;
    const probe = engine.fitProbe({ observations: data.x, labels: data.labels, epsilon: 0.1, strength: 5, space: c.space, expectedQueries: c.queries });
    const s = probe.score(queries);
    out.cases.push({ space: probe.space, mean: hex(s.latentMean), variance: hex(s.latentVariance), judged: hex(s.judgedProbability), episteme: hex(s.episteme) });
    probe.dispose();
  }
  postMessage(out);
};`;

const CASES = [
  { space: 'weight', observations: 440, dimension: 200, queries: 700 },
  { space: 'weight', observations: 1600, dimension: 768, queries: 500 },
  { space: 'function', observations: 300, dimension: 260, queries: 600 },
];

describe('the fit on the thread pool in wasm', () => {
  it(
    'gives the same bits on 1, 2 and 3 threads',
    async () => {
      const page = pages.page;
      await page.route('**/favicon.ico', (route) => route.fulfill({ status: 204 })); // a JSON page has no icon
      await page.goto(`${served.url}/package.json`);
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
      const run = (threads: number) =>
        page.evaluate(
          ([source, o]) =>
            new Promise<{ threads: number; cases: Record<string, string>[] }>((done, fail) => {
              const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })), {
                type: 'module',
              });
              worker.onmessage = (e) => {
                worker.terminate();
                done(e.data);
              };
              worker.onerror = (e) => fail(new Error(e.message));
              worker.postMessage(o);
            }),
          [WORKER, { threads, cases: CASES, origin: served.url }] as const,
        );
      const one = await run(1);
      expect(one.threads).toBe(1);
      expect(one.cases.map((c) => c.space)).toEqual(CASES.map((c) => c.space));
      for (const threads of [2, 3]) {
        const more = await run(threads);
        expect(more.threads).toBe(threads);
        for (const [i, c] of more.cases.entries()) {
          for (const column of ['mean', 'variance', 'judged', 'episteme']) {
            expect(
              c[column] === one.cases[i][column],
              `${column} of case ${i} (${c.space} space, d = ${CASES[i].dimension}) on ${threads} threads`,
            ).toBe(true);
          }
        }
      }
    },
    patient(240_000),
  );
});
