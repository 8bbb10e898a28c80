// The Compare lab's speed targets (issue 27) in Debian's Chromium, on a cross-origin isolated page with
// the threaded module (2 threads by default): 12 embeddings × 10,000 × 768 float32 (seeded synthetic
// rows), one concept with 16 observations (8 per class): the table; then 10 concepts (the grid); then the
// grid again, cancelled after a second, timing how long the stop takes. Per cell it prints where the time
// went: copying the embedding into the wasm heap (once per embedding) and probing (fit, leave-one-out,
// scoring the 10,000 rows), from the progress events' timestamps. The JS library (dist/lib) runs in a
// module worker, as the app's engine worker does. Targets: table ≤ 2 s, grid ≤ 15 s.
//   node scripts/bench/bench_compare_browser.mjs [--embeddings 12] [--rows 10000] [--dimension 768] [--concepts 10] [--threads 2]
import { pathToFileURL } from 'node:url';
import { withIsolatedWorkers } from './bench_threads_browser.mjs';

const WORKER = `
onmessage = async ({ data: o }) => {
  try {
    postMessage(await run(o));
  } catch (error) {
    postMessage({ error: String(error && error.message || error) });
  }
};
async function run(o) {
  const { createProbeEngine } = await import(o.origin + '/dist/lib/index.js');
  const engine = await createProbeEngine({ threads: o.threads });
  const embeddings = [];
  let labels = null;
  for (let k = 0; k < o.embeddings; k++) {
    const s = engine.syntheticEmbeddings(o.rows, o.dimension, o.seed + k);
    if (!labels) labels = s.labels;
    embeddings.push({ name: 'layer_' + String(k).padStart(2, '0') + '.npy', embeddings: { data: Float32Array.from(s.x.data), rows: o.rows, cols: o.dimension } });
  }
  // Concept c flips the labels of every (c + 2)-th row: related concepts of the same rows.
  const concepts = Array.from({ length: o.concepts }, (_, c) => ({
    name: 'concept_' + c, labels: c === 0 ? labels : labels.map((y, i) => (i % (c + 2) === 0 ? 1 - y : y)),
  }));
  const timed = async (list, signal) => {
    const cells = [];
    let last = performance.now(), stage = '';
    const start = last;
    try {
      await engine.compareRepresentations({ embeddings, concepts: list, perClass: 8, seed: 1 }, {
        signal,
        onProgress: (p) => {
          if (p.stage !== stage) {
            const now = performance.now();
            if (stage) cells.push({ stage, seconds: (now - last) / 1000 });
            stage = p.stage; last = now;
          }
        },
      });
      cells.push({ stage, seconds: (performance.now() - last) / 1000 });
      return { seconds: (performance.now() - start) / 1000, cells, cancelled: false };
    } catch (error) {
      if (!signal || error.code !== 'cancelled') throw error;
      return { seconds: (performance.now() - start) / 1000, cells, cancelled: true, error: String(error.message) };
    }
  };
  const table = await timed(concepts.slice(0, 1));
  const grid = await timed(concepts);
  const controller = new AbortController();
    setTimeout(() => controller.abort(), 1000);
  const cancelled = await timed(concepts, controller.signal);
  return {
    threads: engine.threads, table, grid,
    cancel: { cancelled: cancelled.cancelled, stoppedAfterAbortSeconds: cancelled.seconds - 1, cellsDone: cancelled.cells.length, message: cancelled.error },
  };
}`;

function summary(name, run) {
  const cells = run.cells;
  const mean = cells.reduce((a, c) => a + c.seconds, 0) / Math.max(1, cells.length);
  return `${name}: ${run.seconds.toFixed(2)} s for ${cells.length} cells (mean ${mean.toFixed(3)} s/cell; the slowest ${Math.max(...cells.map((c) => c.seconds)).toFixed(3)} s)`;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = Object.fromEntries(
    process.argv.slice(2).reduce((p, a, i, all) => (a.startsWith('--') ? [...p, [a.slice(2), all[i + 1]]] : p), []),
  );
  const options = {
    embeddings: Number(args.embeddings ?? 12),
    rows: Number(args.rows ?? 10000),
    dimension: Number(args.dimension ?? 768),
    concepts: Number(args.concepts ?? 10),
    threads: Number(args.threads ?? 2),
    seed: 11,
  };
  const r = await withIsolatedWorkers((runWorker) => runWorker(WORKER, options));
  if (r.error) throw new Error(`the comparison failed in Chromium: ${r.error}`);
  console.log(
    `compare in Chromium, ${options.embeddings} × ${options.rows} × ${options.dimension} float32, 16 observations, ${r.threads} thread(s):`,
  );
  console.log(`  ${summary('table (1 concept)', r.table)}  [target ≤ 2 s]`);
  console.log(`  ${summary(`grid (${options.concepts} concepts)`, r.grid)}  [target ≤ 15 s]`);
  console.log(
    `  first embedding's cell (heap copy + probe): ${r.grid.cells[0]?.seconds.toFixed(3)} s; a later concept's cell of it (probe only): ${r.grid.cells[1]?.seconds.toFixed(3)} s`,
  );
  console.log(
    `  cancel: ${r.cancel.cancelled ? 'stopped' : 'NOT stopped'} ${r.cancel.stoppedAfterAbortSeconds.toFixed(2)} s after the abort, after ${r.cancel.cellsDone} cells (${r.cancel.message})`,
  );
  console.log(
    JSON.stringify({
      threads: r.threads,
      table_seconds: r.table.seconds,
      grid_seconds: r.grid.seconds,
      cancel: r.cancel,
    }),
  );
}
