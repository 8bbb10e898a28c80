// Benchmark: the same seeded workload (synthetic embeddings from the core) fitted and scored by the
// native build (build/native/gpprobe bench --json) and by the wasm build through the JS library in
// Node (dist/lib), then the ratio wasm / native. Run with `npm run bench`.
//   node scripts/bench.mjs [--observations 100,1000,4000] [--dimension 768] [--queries 10000]
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { createProbeEngine } from '../dist/lib/index.js';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []),
);
const sizes = (args.observations ?? '100,1000,4000').split(',').map(Number);
const dimension = Number(args.dimension ?? 768);
const queries = Number(args.queries ?? 10000);
const seed = 7;

const native = JSON.parse(execFileSync('build/native/gpprobe', [
  'bench', '--observations', sizes.join(','), '--dimension', String(dimension), '--queries', String(queries),
  '--seed', String(seed), '--json',
], { encoding: 'utf8' }));

const engine = await createProbeEngine();
const queryData = engine.syntheticEmbeddings(queries, dimension, seed + 1).x;
const wasm = [];
for (const O of sizes) {
  const data = engine.syntheticEmbeddings(O, dimension, seed);
  let start = performance.now();
  const probe = engine.fitProbe({ observations: data.x, labels: data.labels, expectedQueries: queries });
  const fit = (performance.now() - start) / 1000;
  start = performance.now();
  const r = probe.score(queryData);
  const score = (performance.now() - start) / 1000;
  wasm.push({ observations: O, space: probe.space, fit_seconds: fit, score_seconds: score,
    checksum: r.judgedProbability[0] + r.latentVariance[queries - 1] });
  probe.dispose();
}

const pad = (s, n) => String(s).padStart(n);
console.log(`wasm backend: ${engine.backend}; native: -O3 -march=native (Eigen); d = ${dimension}, ${queries} queries`);
console.log(`${pad('O', 5)} ${pad('space', 8)} | ${pad('fit wasm', 9)} ${pad('native', 8)} ${pad('ratio', 6)} | ${pad('score wasm', 10)} ${pad('native', 8)} ${pad('ratio', 6)}`);
for (let i = 0; i < sizes.length; i++) {
  const w = wasm[i], n = native[i];
  if (Math.abs(w.checksum - n.checksum) > 1e-6 * Math.abs(n.checksum)) {
    console.error(`warning: wasm and native disagree for O=${w.observations}: ${w.checksum} vs ${n.checksum}`);
  }
  console.log(`${pad(w.observations, 5)} ${pad(w.space, 8)} | ${pad(w.fit_seconds.toFixed(3) + 's', 9)} ${pad(n.fit_seconds.toFixed(3) + 's', 8)} ${pad((w.fit_seconds / n.fit_seconds).toFixed(1) + '×', 6)} | ${pad(w.score_seconds.toFixed(3) + 's', 10)} ${pad(n.score_seconds.toFixed(3) + 's', 8)} ${pad((w.score_seconds / n.score_seconds).toFixed(1) + '×', 6)}`);
}
