// Benchmark of certified robustness (issue 11): the robustness paper's Synthetic2D sweep (Fig. 2, left).
// n = 1,000 training points of synthetic_2d_blobs (seed 1), Laplace probit at the hyperparameters
// `gpprobe gpc --optimize` finds on them (fixed in bench-robustness, so every build times the same model),
// test point 0, gamma = 0, 0.1, ..., 1.4, branch and bound on the adversarial extreme to tolerance 0.02,
// and GPFGS. The reference implementation (CPython) takes about 155 s for the whole sweep; the wasm build
// must take at most a tenth of that.
//
// Each source returns {fit_seconds, total_seconds, rows: [{gamma, seconds, interval, iterations, status,
// gpfgs_probability}]}; a new implementation is one more entry in `sources`.
//   native              build/native/gpprobe bench-robustness (our bounds: relaxation and centred form)
//   native-relaxation   the same with the reference's relaxation alone in every box (the paper's algorithm)
//   wasm                the JS library (dist/lib) in Node, on the data native writes (--data) and the same
//                       model, one certifyRobustness per gamma (= the library's robustnessSweep, timed per row)
//   wasm-relaxation     the same with variance: 'relaxation'
//   node scripts/bench/bench_robustness.mjs [--n 1000] [--tolerance 0.02]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createClassificationEngine } from '../../dist/lib/index.js';

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .reduce((pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []),
);
const n = String(args.n ?? 1000);
const tolerance = String(args.tolerance ?? 0.02);
const REFERENCE_SECONDS = 155;

const native = (variance) => () =>
  JSON.parse(
    execFileSync(
      'build/native/gpprobe',
      ['bench-robustness', '--n', n, '--tolerance', tolerance, '--variance', variance, '--json'],
      { encoding: 'utf8' },
    ),
  );
/** The benchmark's data as native writes them (x1,x2,label rows; the CSV's 17 digits read back exactly). */
function benchData() {
  const dir = mkdtempSync(join(tmpdir(), 'gpprobe-robustness-bench-'));
  const meta = JSON.parse(
    execFileSync('build/native/gpprobe', ['bench-robustness', '--n', n, '--gammas', '0', '--data', dir, '--json'], {
      encoding: 'utf8',
    }),
  );
  const read = (file) =>
    readFileSync(join(dir, file), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',').map(Number));
  const train = read('robustness_train.csv');
  rmSync(dir, { recursive: true });
  return {
    meta,
    inputs: { data: Float64Array.from(train.flatMap((r) => r.slice(0, 2))), rows: train.length, cols: 2 },
    labels: Float64Array.from(train, (r) => r[2]),
  };
}

const GAMMAS = Array.from({ length: 15 }, (_, k) => k / 10);
const wasm = (variance) => async () => {
  const { meta, inputs, labels } = benchData();
  const engine = await createClassificationEngine();
  let start = performance.now();
  const gpc = engine.fitClassifier({
    inputs,
    labels,
    method: 'laplace',
    likelihood: 'probit',
    kernel: { signalVariance: meta.signal_variance, lengthScales: meta.length_scales },
  });
  const fit_seconds = (performance.now() - start) / 1000;
  const rows = GAMMAS.map((gamma) => {
    start = performance.now();
    const c = gpc.certifyRobustness(meta.point, {
      gamma,
      tolerance: Number(tolerance),
      search: 'adversarial',
      variance,
    });
    const x = c.probabilityAtPoint > 0.5 ? c.minimum : c.maximum;
    return {
      gamma,
      seconds: (performance.now() - start) / 1000,
      interval: [x.lower, x.upper],
      iterations: x.iterations,
      status: x.status,
      gpfgs_probability: c.gpfgs.probability,
    };
  });
  gpc.dispose();
  return { ...meta, fit_seconds, rows, total_seconds: rows.reduce((t, r) => t + r.seconds, 0) };
};

const sources = [
  { name: 'native', run: native('both') },
  { name: 'native-relaxation', run: native('relaxation') },
  { name: 'wasm', run: wasm('both') },
  { name: 'wasm-relaxation', run: wasm('relaxation') },
];

const results = [];
for (const s of sources) results.push({ name: s.name, ...(await s.run()) });
const first = results[0];
const pad = (s, w) => String(s).padStart(w);
console.log(
  `Synthetic2D sweep: n = ${first.n}, test point ${first.test_point} (pi = ${first.probability_at_point.toFixed(4)}), ` +
    `${first.sense} side, tolerance ${first.tolerance}; seconds and iterations per implementation (${results.map((r) => r.name).join(', ')})`,
);
console.log(`${pad('gamma', 5)} | ${results.map((r) => pad(r.name, 18)).join(' ')} | certified interval    | GPFGS`);
first.rows.forEach((row, g) => {
  const cells = results
    .map((r) => pad(`${r.rows[g].seconds.toFixed(3)}s ${pad(r.rows[g].iterations, 4)}it`, 18))
    .join(' ');
  console.log(
    `${pad(row.gamma.toFixed(1), 5)} | ${cells} | [${row.interval[0].toFixed(4)}, ${row.interval[1].toFixed(4)}] | ${row.gpfgs_probability.toFixed(4)}`,
  );
  for (const other of results.slice(1)) {
    const [lo, hi] = other.rows[g].interval;
    // Both intervals hold the same extreme: they must overlap.
    if (lo > row.interval[1] + 1e-12 || hi < row.interval[0] - 1e-12) {
      console.error(
        `error: gamma ${row.gamma}: ${other.name}'s interval [${lo}, ${hi}] is disjoint from ${first.name}'s`,
      );
      process.exitCode = 1;
    }
  }
});
for (const r of results) {
  console.log(
    `${r.name}: sweep ${r.total_seconds.toFixed(2)} s (fit ${r.fit_seconds.toFixed(2)} s), ` +
      `${(REFERENCE_SECONDS / r.total_seconds).toFixed(0)}x faster than the reference's ~${REFERENCE_SECONDS} s`,
  );
}
// The target: the wasm build at most a tenth of the reference's time.
const wasmRun = results.find((r) => r.name === 'wasm');
console.log(
  `target (wasm sweep <= ${REFERENCE_SECONDS / 10} s): ${wasmRun.total_seconds <= REFERENCE_SECONDS / 10 ? 'met' : 'MISSED'}`,
);
