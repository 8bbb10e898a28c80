// Benchmark of certified robustness (issue 11): the robustness paper's Synthetic2D sweep (Fig. 2, left).
// n = 1,000 training points of synthetic_2d_blobs (seed 1), Laplace probit at the hyperparameters
// `gpprobe gpc --optimize` finds on them (fixed in bench-robustness, so every build times the same model),
// test point 0, gamma = 0, 0.1, ..., 1.4, branch and bound on the adversarial extreme to tolerance 0.02,
// and GPFGS. The reference implementation (CPython) takes about 155 s for the whole sweep; the wasm build
// must take at most a tenth of that.
//
// Each source returns {fit_seconds, total_seconds, rows: [{gamma, seconds, interval, iterations, status,
// gpfgs_probability}]}; a new implementation (the wasm build) is one more entry in `sources`.
//   native              build/native/gpprobe bench-robustness (our bounds: relaxation and centred form)
//   native-relaxation   the same with the reference's relaxation alone in every box (the paper's algorithm)
//   node scripts/bench_robustness.mjs [--n 1000] [--tolerance 0.02]
import { execFileSync } from 'node:child_process';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []),
);
const n = String(args.n ?? 1000);
const tolerance = String(args.tolerance ?? 0.02);
const REFERENCE_SECONDS = 155;

const native = (variance) => () => JSON.parse(execFileSync('build/native/gpprobe',
  ['bench-robustness', '--n', n, '--tolerance', tolerance, '--variance', variance, '--json'], { encoding: 'utf8' }));
const sources = [
  { name: 'native', run: native('both') },
  { name: 'native-relaxation', run: native('relaxation') },
];

const results = sources.map((s) => ({ name: s.name, ...s.run() }));
const first = results[0];
const pad = (s, w) => String(s).padStart(w);
console.log(`Synthetic2D sweep: n = ${first.n}, test point ${first.test_point} (pi = ${first.probability_at_point.toFixed(4)}), ` +
  `${first.sense} side, tolerance ${first.tolerance}; seconds and iterations per implementation (${results.map((r) => r.name).join(', ')})`);
console.log(`${pad('gamma', 5)} | ${results.map((r) => pad(r.name, 18)).join(' ')} | certified interval    | GPFGS`);
first.rows.forEach((row, g) => {
  const cells = results.map((r) => pad(`${r.rows[g].seconds.toFixed(3)}s ${pad(r.rows[g].iterations, 4)}it`, 18)).join(' ');
  console.log(`${pad(row.gamma.toFixed(1), 5)} | ${cells} | [${row.interval[0].toFixed(4)}, ${row.interval[1].toFixed(4)}] | ${row.gpfgs_probability.toFixed(4)}`);
  for (const other of results.slice(1)) {
    const [lo, hi] = other.rows[g].interval;
    // Both intervals hold the same extreme: they must overlap.
    if (lo > row.interval[1] + 1e-12 || hi < row.interval[0] - 1e-12) {
      console.error(`error: gamma ${row.gamma}: ${other.name}'s interval [${lo}, ${hi}] is disjoint from ${first.name}'s`);
      process.exitCode = 1;
    }
  }
});
for (const r of results) {
  console.log(`${r.name}: sweep ${r.total_seconds.toFixed(2)} s (fit ${r.fit_seconds.toFixed(2)} s), ` +
    `${(REFERENCE_SECONDS / r.total_seconds).toFixed(0)}x faster than the reference's ~${REFERENCE_SECONDS} s`);
}
