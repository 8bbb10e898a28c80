// Benchmark: toggling one observation with kept scores (rank-one updates, scored_queries.h) against
// refitting the probe and scoring every query again, in wasm through the JS library in Node (dist/lib).
// Each toggle removes one observation and adds it back; a timed step is the change plus reading every
// column of every query out (what the app plots). Run with `npm run bench` or
//   node scripts/bench/bench_toggle.mjs [--queries 10000] [--dimension 768] [--observations 100,1000] [--toggles 10]
import { performance } from 'node:perf_hooks';
import { createProbeEngine, keepScores } from '../../dist/lib/index.js';

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .reduce((pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []),
);
const queries = Number(args.queries ?? 10000);
const dimension = Number(args.dimension ?? 768);
const sizes = (args.observations ?? '100,1000').split(',').map(Number);
const toggles = Number(args.toggles ?? 10);
const seed = 7;

const engine = await createProbeEngine();
const q = engine.syntheticEmbeddings(queries, dimension, seed + 1).x;
// Resident as float32, as the app keeps embeddings.
const resident = engine.upload({ data: Float32Array.from(q.data), rows: q.rows, cols: q.cols }, 'queries');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pad = (s, n) => String(s).padStart(n);

console.log(
  `toggle one observation, ${queries} queries × d = ${dimension} (float32, resident), wasm ${engine.backend}, median of ${2 * toggles}`,
);
console.log(
  `${pad('O', 5)} ${pad('space', 8)} | ${pad('kept', 9)} ${pad('refit+score', 12)} ${pad('speed-up', 9)} | ${pad('max |Δ| vs refit', 17)} ${pad('full passes', 12)}`,
);
for (const O of sizes) {
  const data = engine.syntheticEmbeddings(O, dimension, seed);
  const probe = engine.fitProbe({ observations: data.x, labels: data.labels, expectedQueries: queries });
  const kept = await keepScores(probe, resident);
  // The probe's order: each toggle takes its first observation out and puts it back at the end.
  const order = Array.from({ length: O }, (_, i) => i);
  const keptTimes = [];
  for (let t = 0; t < toggles; t++) {
    const r = order.shift();
    let start = performance.now();
    kept.removeObservation(probe, 0);
    kept.scores();
    keptTimes.push(performance.now() - start);
    start = performance.now();
    kept.addObservation(probe, data.x.data.slice(r * dimension, (r + 1) * dimension), data.labels[r]);
    kept.scores();
    keptTimes.push(performance.now() - start);
    order.push(r);
  }
  // The same toggle by refitting and scoring everything.
  const refitTimes = [];
  for (let t = 0; t < Math.min(3, toggles); t++) {
    const start = performance.now();
    const fresh = engine.fitProbe({ observations: data.x, labels: data.labels, expectedQueries: queries });
    fresh.score(resident);
    refitTimes.push(performance.now() - start);
    fresh.dispose();
  }
  // Accuracy: the kept scores against a probe fitted afresh to the same observations in the same order.
  const labels = Uint8Array.from(order, (r) => data.labels[r]);
  const rows = new Float64Array(O * dimension);
  order.forEach((r, k) => rows.set(data.x.data.subarray(r * dimension, (r + 1) * dimension), k * dimension));
  const refit = engine.fitProbe({ observations: { data: rows, rows: O, cols: dimension }, labels, space: probe.space });
  const expected = refit.score(resident),
    actual = kept.scores();
  let worst = 0;
  for (const column of Object.keys(expected)) {
    for (let i = 0; i < queries; i++) worst = Math.max(worst, Math.abs(expected[column][i] - actual[column][i]));
  }
  const k = median(keptTimes),
    r = median(refitTimes);
  console.log(
    `${pad(O, 5)} ${pad(probe.space, 8)} | ${pad(k.toFixed(1) + ' ms', 9)} ${pad(r.toFixed(0) + ' ms', 12)} ${pad((r / k).toFixed(0) + '×', 9)} | ${pad(worst.toExponential(1), 17)} ${pad(kept.status(probe).fullRescores, 12)}`,
  );
  refit.dispose();
  kept.dispose();
  probe.dispose();
}
resident.dispose();
