// Benchmark of GP regression at the scale: n = 2,000 training points, hyperparameter
// optimisation (constant * rbf + noise, no restarts) and prediction at 10,000 test points, through the
// wasm build in Node (dist/lib) and the native CLI (build/native/gpprobe gpr) on the same data.
//   node scripts/bench/bench_regression.mjs [--n 2000] [--test 10000]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRegressionEngine } from '../../dist/lib/index.js';

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .reduce((pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []),
);
const n = Number(args.n ?? 2000);
const m = Number(args.test ?? 10000);

// The lecture's function on [0, 20] with uniform noise of sd 0.25 from a fixed LCG (data only).
let state = 12345;
const noise = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5) * Math.sqrt(12) * 0.25;
const x = Float64Array.from({ length: n }, (_, i) => (20 * i) / n);
const y = x.map((t) => Math.sin(t) + 0.5 * Math.sin(4 * t) + noise());
const test = Float64Array.from({ length: m }, (_, i) => -2 + (24 * i) / m);

const engine = await createRegressionEngine();
let start = performance.now();
let reports = 0;
const gp = engine.optimize({
  x: { data: x, rows: n, cols: 1 },
  y,
  kernel: { name: 'rbf' },
  noiseVariance: 0.5,
  onProgress: () => {
    reports += 1;
  },
});
const optimise = (performance.now() - start) / 1000;
start = performance.now();
const p = gp.predict({ data: test, rows: m, cols: 1 });
const predict = (performance.now() - start) / 1000;
const s = gp.state;
gp.dispose();

const dir = mkdtempSync(join(tmpdir(), 'gpprobe-bench-'));
writeFileSync(join(dir, 'train.csv'), Array.from(x, (t, i) => `${t},${y[i]}`).join('\n'));
writeFileSync(join(dir, 'test.csv'), Array.from(test, String).join('\n'));
start = performance.now();
const run = spawnSync(
  'build/native/gpprobe',
  [
    'gpr',
    '--train',
    join(dir, 'train.csv'),
    '--test',
    join(dir, 'test.csv'),
    '--noise-variance',
    '0.5',
    '--optimize',
    '--out',
    join(dir, 'out.csv'),
  ],
  { encoding: 'utf8' },
);
const native = (performance.now() - start) / 1000;
rmSync(dir, { recursive: true });

console.log(`n = ${n}, ${m} test points`);
console.log(
  `wasm:   optimise ${optimise.toFixed(2)} s (${s.iterations} iterations, ${reports} progress reports), ` +
    `predict ${predict.toFixed(2)} s; ${s.description}, noise ${s.noiseVariance.toFixed(4)}, LML ${s.logMarginalLikelihood.toFixed(4)}`,
);
console.log(`native: whole CLI run (optimise + fit + predict + CSV) ${native.toFixed(2)} s; ${run.stderr.trim()}`);
console.log(`checksum ${p.mean[0] + p.latentVariance[m - 1]}`);
