// Benchmark of GP classification (issue 10): n = 1,000 training points, d = 2 and 10, fit, one log
// marginal likelihood with its gradient ("evidence", the cost of an optimiser step) and prediction at
// 10,000 points, for Laplace (probit, logistic) and EP (probit), on the same seeded data
// (synthetic_classification.h) in every implementation:
//   native   build/native/gpprobe bench-gpc (which also writes the data as CSV)
//   sklearn  scripts/bench/bench_gpc_sklearn.py on those files (Laplace, logistic only; OpenBLAS, 1 thread)
//   wasm     the JS library (dist/lib) in Node on the same seeded data (drawn by the core in wasm, the
//            same numbers as the native draw: the log marginal likelihoods are checked to agree); its fit
//            always computes the evidence's gradient too (the library reports it), so its "fit" column is
//            the work of native's fit and evidence together, and it has no separate evidence column
// Each source returns rows {dimension, approximation, fit_seconds, evidence_seconds, predict_seconds,
// log_marginal_likelihood}.
//   node scripts/bench/bench_gpc.mjs [--n 1000] [--dimensions 2,10] [--test 10000]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFileSync } from 'node:fs';
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
const dimensions = String(args.dimensions ?? '2,10');
const test = String(args.test ?? 10000);
const dir = mkdtempSync(join(tmpdir(), 'gpprobe-gpc-bench-'));

const sources = [
  {
    name: 'native',
    run: () =>
      JSON.parse(
        execFileSync(
          'build/native/gpprobe',
          ['bench-gpc', '--n', n, '--dimensions', dimensions, '--test', test, '--seed', '7', '--data', dir, '--json'],
          { encoding: 'utf8' },
        ),
      ),
  },
  {
    name: 'sklearn',
    run: () => {
      const r = spawnSync('/usr/bin/python3', ['scripts/bench/bench_gpc_sklearn.py', dir], {
        encoding: 'utf8',
        env: { ...process.env, OPENBLAS_NUM_THREADS: '1' },
      });
      if (r.status !== 0) {
        console.error(
          `scikit-learn column skipped (apt-get install -y python3-sklearn libopenblas0-pthread): ${r.stderr.trim().split('\n').pop()}`,
        );
        return [];
      }
      return JSON.parse(r.stdout);
    },
  },
  {
    name: 'wasm',
    run: async () => {
      const engine = await createClassificationEngine();
      const meta = JSON.parse(readFileSync(join(dir, 'gpc_bench.json'), 'utf8'));
      const rows = [];
      for (const c of meta.cases) {
        const train = engine.syntheticClassification(meta.n, c.dimension, meta.seed);
        const test = engine.syntheticClassification(meta.test, c.dimension, meta.seed + 1).inputs;
        const kernel = { signalVariance: c.signal_variance, lengthScales: [c.length_scale] };
        for (const [method, likelihood] of [
          ['laplace', 'probit'],
          ['laplace', 'logistic'],
          ['ep', 'probit'],
        ]) {
          let start = performance.now();
          const gpc = engine.fitClassifier({ inputs: train.inputs, labels: train.labels, method, likelihood, kernel });
          const fit = (performance.now() - start) / 1000;
          start = performance.now();
          gpc.predict(test);
          const predict = (performance.now() - start) / 1000;
          rows.push({
            dimension: c.dimension,
            approximation: `${method}-${likelihood}`,
            fit_seconds: fit,
            evidence_seconds: NaN,
            predict_seconds: predict,
            log_marginal_likelihood: gpc.state.logMarginalLikelihood,
          });
          gpc.dispose();
        }
      }
      return rows;
    },
  },
];

const results = [];
for (const s of sources) results.push({ name: s.name, rows: await s.run() });
rmSync(dir, { recursive: true });

const pad = (s, w) => String(s).padStart(w);
const time = (row, key) => (row && Number.isFinite(row[key]) ? `${row[key].toFixed(3)}s` : '—');
const header = results.map((r) => pad(r.name, 9)).join(' ');
console.log(`n = ${n}, ${test} test points; times per implementation (${results.map((r) => r.name).join(', ')})`);
console.log(`${pad('d', 3)} ${pad('approximation', 17)} | fit ${header} | evidence ${header} | predict ${header}`);
const native = results[0].rows;
for (const row of native) {
  const same = results.map((r) =>
    r.rows.find((x) => x.dimension === row.dimension && x.approximation === row.approximation),
  );
  const columns = (key) => same.map((x) => pad(time(x, key), 9)).join(' ');
  console.log(
    `${pad(row.dimension, 3)} ${pad(row.approximation, 17)} |     ${columns('fit_seconds')} |          ${columns('evidence_seconds')} |         ${columns('predict_seconds')}`,
  );
  for (const other of same.slice(1)) {
    if (
      other &&
      Math.abs(other.log_marginal_likelihood - row.log_marginal_likelihood) >
        1e-8 * Math.abs(row.log_marginal_likelihood)
    ) {
      console.error(
        `warning: d = ${row.dimension} ${row.approximation}: log marginal likelihoods differ, ` +
          `${other.log_marginal_likelihood} vs native ${row.log_marginal_likelihood}`,
      );
    }
  }
}
