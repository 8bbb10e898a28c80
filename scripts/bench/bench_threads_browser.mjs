// The probe benchmark's workload (bench.mjs: seeded synthetic embeddings, fit + score, best of
// `repeats`) run by the JS library (dist/lib) in a module worker of Debian's Chromium on a cross-origin
// isolated page: once with the single-threaded module and once with the threaded one, so the two
// differ only in threads. bench.mjs prints it as its Chromium columns; alone:
//   node scripts/bench/bench_threads_browser.mjs [--observations 100,1000,4000] [--dimension 768] [--queries 10000] [--threads 2]
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const TYPES = {
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
};

// Serves the repository's files on loopback with the headers of cross-origin isolation.
export function serveIsolated() {
  const root = resolve('.');
  const server = createServer((request, response) => {
    const file = normalize(join(root, decodeURIComponent(new URL(request.url, 'http://x').pathname)));
    const headers = {
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
      'cache-control': 'no-store',
    };
    let ok = file.startsWith(root);
    try {
      ok &&= statSync(file).isFile();
    } catch {
      ok = false;
    }
    if (!ok) return response.writeHead(404, headers).end('not found');
    response.writeHead(200, { ...headers, 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(response);
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () => done({ server, url: `http://127.0.0.1:${server.address().port}` })),
  );
}

// Runs in the worker: fit + score per observation count with `threads` threads (1: the single module).
// The data are uploaded to the wasm heap first (engine.upload: what the app does with the embeddings it
// holds), so the clock times the engine's fit and scoring as the CLI's and the Python module's do on data
// already in their memory; the upload itself (a serial copy from JS) is timed apart (upload_seconds).
const WORKER = `
onmessage = async ({ data: o }) => {
  const { createProbeEngine } = await import(o.origin + '/dist/lib/index.js');
  const engine = await createProbeEngine({ threads: o.threads });
  const queries = engine.syntheticEmbeddings(o.queries, o.dimension, o.seed + 1).x;
  let upload = Infinity;
  for (let r = 0; r < o.repeats; r++) {
    const t = performance.now();
    engine.upload(queries, 'queries').dispose();
    upload = Math.min(upload, (performance.now() - t) / 1000);
  }
  const resident = engine.upload(queries, 'queries');
  const rows = [];
  for (const O of o.sizes) {
    const data = engine.syntheticEmbeddings(O, o.dimension, o.seed);
    const observations = engine.upload(data.x, 'observations');
    let best = null;
    for (let r = 0; r < o.repeats; r++) {
      let t = performance.now();
      const probe = engine.fitProbe({ observations, labels: data.labels, epsilon: 0.1, strength: 5, expectedQueries: o.queries });
      const fit = (performance.now() - t) / 1000;
      t = performance.now();
      const s = probe.score(resident);
      const score = (performance.now() - t) / 1000;
      probe.dispose();
      if (!best || fit + score < best.fit_seconds + best.score_seconds) {
        best = { observations: O, fit_seconds: fit, score_seconds: score, upload_seconds: upload,
          judged: Array.from(s.judgedProbability), variance: Array.from(s.latentVariance) };
      }
    }
    observations.dispose();
    rows.push(best);
  }
  resident.dispose();
  postMessage({ threads: engine.threads, rows });
};`;

/**
 * Debian's Chromium on a cross-origin isolated page of this repository; `body(runWorker, origin)` runs
 * with runWorker(code, options): `code` as a module worker, posted `options` plus { origin }, resolving to
 * its first message.
 */
export async function withIsolatedWorkers(body) {
  const { server, url } = await serveIsolated();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`${url}/package.json`);
    if (!(await page.evaluate(() => crossOriginIsolated)))
      throw new Error('the benchmark page is not cross-origin isolated');
    const runWorker = (code, options) =>
      page.evaluate(
        ([source, o]) =>
          new Promise((done, fail) => {
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
        [code, { ...options, origin: url }],
      );
    return await body(runWorker);
  } finally {
    await browser.close();
    server.close();
  }
}

/** [single-threaded module, threaded module with `threads`]: each { threads, rows: [{ observations, fit_seconds, score_seconds, max_difference }] }. */
export function chromiumProbeBench({ sizes, dimension, queries, repeats, threads, seed = 7 }) {
  return withIsolatedWorkers(async (runWorker) => {
    const run = (t) => runWorker(WORKER, { sizes, dimension, queries, repeats, seed, threads: t });
    const single = await run(1),
      threaded = await run(threads);
    // Both modules compute every query by the same code: the outputs should agree to the bit.
    for (const [i, row] of threaded.rows.entries()) {
      const other = single.rows[i];
      row.max_difference = Math.max(
        ...row.judged.map((v, q) => Math.abs(v - other.judged[q])),
        ...row.variance.map((v, q) => Math.abs(v - other.variance[q])),
      );
    }
    for (const r of [...single.rows, ...threaded.rows]) {
      delete r.judged;
      delete r.variance;
    }
    return [single, threaded];
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = Object.fromEntries(
    process.argv.slice(2).reduce((p, a, i, all) => (a.startsWith('--') ? [...p, [a.slice(2), all[i + 1]]] : p), []),
  );
  const [single, threaded] = await chromiumProbeBench({
    sizes: (args.observations ?? '100,1000,4000').split(',').map(Number),
    dimension: Number(args.dimension ?? 768),
    queries: Number(args.queries ?? 10000),
    repeats: Number(args.repeats ?? 3),
    threads: Number(args.threads ?? availableParallelism()),
  });
  console.log(JSON.stringify({ single, threaded }, null, 1));
}
