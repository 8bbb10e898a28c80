// Benchmark: the same seeded workload (synthetic embeddings from the core) fitted and scored by the
// native build (build/native/gpprobe bench --json), by the wasm build through the JS library in Node
// (dist/lib, one thread, best of 3) and by numpy (scripts/bench/bench_probe_numpy.py, on the data and against
// the outputs written here as .npy, skipped when numpy is missing; its BLAS is named), with ratios to
// native and to numpy and the rate of the hot product; then the same workload in Chromium on a
// cross-origin isolated page, single-threaded module against the threaded one (bench_threads_browser.mjs,
// skipped without Chromium). Run with `npm run bench`.
// Then the same queries as float32 (real embeddings are): the exact scoring and ProbeOptions'
// float32Products interleaved in one process (best of repeats each), against numpy with the products in
// float32 too; the largest difference from the exact scores is printed for both.
// The wasm columns run the relaxed-SIMD twin where Node validates it (npm run bench passes Node 20's
// --experimental-wasm-relaxed-simd; Chromium has it by default); a last table times it against the plain
// twin, interleaved in this process.
//   node scripts/bench/bench.mjs [--observations 100,1000,4000] [--dimension 768] [--queries 10000] [--repeats 3] [--threads N]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createProbeEngine, relaxedSimdSupported } from '../../dist/lib/index.js';
import { chromiumProbeBench } from './bench_threads_browser.mjs';
import { writeNpy } from './million_npy.mjs';

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .reduce((pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []),
);
const sizes = (args.observations ?? '100,1000,4000').split(',').map(Number);
const dimension = Number(args.dimension ?? 768);
const queries = Number(args.queries ?? 10000);
const repeats = Number(args.repeats ?? 3);
const threads = Number(args.threads ?? availableParallelism());
const seed = 7;
const epsilon = 0.1,
  strength = 5; // ProbeOptions' defaults, passed to numpy

// Multiply-adds of the hot products per scoring pass, times 2: the kernel rows and two triangular
// products in function space, the triangular quadratic form in weight space (D = d + 1).
function hotFlops(space, O, d, n) {
  const D = d + 1;
  return space === 'function' ? 2 * n * O * D + 2 * n * O * (O + 1) : n * D * (D + 1);
}
const dir = mkdtempSync(join(tmpdir(), 'gpprobe-bench-'));

const native = JSON.parse(
  execFileSync(
    'build/native/gpprobe',
    [
      'bench',
      '--observations',
      sizes.join(','),
      '--dimension',
      String(dimension),
      '--queries',
      String(queries),
      '--seed',
      String(seed),
      '--json',
      '--threads',
      '1',
    ],
    { encoding: 'utf8' },
  ),
);

const engine = await createProbeEngine();
const queryData = engine.syntheticEmbeddings(queries, dimension, seed + 1).x;
writeNpy(join(dir, 'queries.npy'), queryData.data, [queries, dimension]);
const query32 = { data: Float32Array.from(queryData.data), rows: queries, cols: dimension };
writeNpy(join(dir, 'queries32.npy'), query32.data, [queries, dimension]);
const wasm = [];
const wasm32 = [];
const cases = [];
for (const O of sizes) {
  const data = engine.syntheticEmbeddings(O, dimension, seed);
  let best = null;
  for (let r = 0; r < repeats; r++) {
    let start = performance.now();
    const probe = engine.fitProbe({
      observations: data.x,
      labels: data.labels,
      epsilon,
      strength,
      expectedQueries: queries,
    });
    const fit = (performance.now() - start) / 1000;
    start = performance.now();
    const result = probe.score(queryData);
    const score = (performance.now() - start) / 1000;
    if (!best || fit + score < best.fit_seconds + best.score_seconds) {
      best = {
        observations: O,
        space: probe.space,
        fit_seconds: fit,
        score_seconds: score,
        result,
        checksum: result.judgedProbability[0] + result.latentVariance[queries - 1],
      };
    }
    probe.dispose();
  }
  wasm.push(best);
  // Float32 queries: exact products and float32 products, interleaved.
  const best32 = {};
  for (let r = 0; r < repeats; r++) {
    for (const float32Products of [false, true]) {
      let start = performance.now();
      const probe = engine.fitProbe({
        observations: data.x,
        labels: data.labels,
        epsilon,
        strength,
        expectedQueries: queries,
        float32Products,
      });
      const fit = (performance.now() - start) / 1000;
      start = performance.now();
      const result = probe.score(query32);
      const score = (performance.now() - start) / 1000;
      const key = float32Products ? 'fast' : 'exact';
      if (!best32[key] || fit + score < best32[key].fit_seconds + best32[key].score_seconds) {
        best32[key] = { fit_seconds: fit, score_seconds: score, result, space: probe.space };
      }
      probe.dispose();
    }
  }
  const columns = ['latentMean', 'latentVariance', 'judgedProbability', 'episteme', 'alea'];
  const difference = (a, b) =>
    Math.max(...columns.map((name) => a[name].reduce((m, x, i) => Math.max(m, Math.abs(x - b[name][i])), 0)));
  let relativeVariance = 0;
  best32.fast.result.latentVariance.forEach((x, i) => {
    const e = best32.exact.result.latentVariance[i];
    relativeVariance = Math.max(relativeVariance, Math.abs(x - e) / e);
  });
  wasm32.push({
    observations: O,
    ...best32,
    max_difference: difference(best32.fast.result, best32.exact.result),
    relative_variance: relativeVariance,
  });
  for (const name of columns)
    writeNpy(join(dir, `${name}32_${O}.npy`), Float64Array.from(best32.exact.result[name]), [queries]);
  const outputs = ['latentMean', 'latentVariance', 'judgedProbability', 'episteme', 'alea'].map((name) => {
    writeNpy(join(dir, `${name}_${O}.npy`), Float64Array.from(best.result[name]), [queries]);
    return `${name}_${O}.npy`;
  });
  writeNpy(join(dir, `observations_${O}.npy`), data.x.data, [O, dimension]);
  writeNpy(join(dir, `labels_${O}.npy`), data.labels, [O]);
  cases.push({
    observations: `observations_${O}.npy`,
    labels: `labels_${O}.npy`,
    outputs,
    outputs32: ['latentMean', 'latentVariance', 'judgedProbability', 'episteme', 'alea'].map(
      (name) => `${name}32_${O}.npy`,
    ),
  });
}
writeFileSync(
  join(dir, 'probe_bench.json'),
  JSON.stringify({ epsilon, strength, repeats, queries: 'queries.npy', queries32: 'queries32.npy', cases }),
);
const numpyRun = spawnSync('/usr/bin/python3', ['scripts/bench/bench_probe_numpy.py', dir], { encoding: 'utf8' });
rmSync(dir, { recursive: true });
const numpy = numpyRun.status === 0 ? JSON.parse(numpyRun.stdout) : null;
if (!numpy) {
  console.error(
    `numpy column skipped (apt-get install -y python3-numpy python3-scipy python3-threadpoolctl libopenblas0-pthread): ${(numpyRun.stderr || String(numpyRun.error)).trim().split('\n').pop()}`,
  );
}

const pad = (s, n) => String(s).padStart(n);
const sec = (x) => (Number.isFinite(x) ? x.toFixed(3) + 's' : '—');
const ratio = (a, b) => (Number.isFinite(a / b) ? (a / b).toFixed(2) + '×' : '—');
console.log(
  `wasm backend: ${engine.backend}${engine.fusedMultiplyAdd ? ' (fused multiply-adds)' : ''} (Node, one thread, best of ${repeats}); native: -O3 -march=native (Eigen), one thread, one run; ` +
    `numpy: ${numpy ? numpy.blas : 'not available'}, best of function and weight space, best of ${repeats}`,
);
console.log(
  `d = ${dimension}, ${queries} queries; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (two cores)`,
);
console.log(
  `${pad('O', 5)} ${pad('space', 8)} | ${pad('fit wasm', 9)} ${pad('native', 8)} | ${pad('score wasm', 10)} ${pad('native', 8)} | ` +
    `${pad('fit+score wasm', 14)} ${pad('native', 8)} ${pad('numpy', 8)} ${pad('wasm÷native', 11)} ${pad('wasm÷numpy', 10)} | ${pad('hot GFLOP/s', 11)}`,
);
for (let i = 0; i < sizes.length; i++) {
  const w = wasm[i],
    n = native[i],
    p = numpy?.rows[i];
  if (Math.abs(w.checksum - n.checksum) > 1e-6 * Math.abs(n.checksum)) {
    console.error(`warning: wasm and native disagree for O=${w.observations}: ${w.checksum} vs ${n.checksum}`);
  }
  const total = w.fit_seconds + w.score_seconds,
    nativeTotal = n.fit_seconds + n.score_seconds;
  const numpyTotal = p ? p.fit_seconds + p.score_seconds : NaN;
  // A lower bound on the product's rate: the scoring time also holds the features and the quadrature.
  const gflops = hotFlops(w.space, w.observations, dimension, queries) / w.score_seconds / 1e9;
  console.log(
    `${pad(w.observations, 5)} ${pad(w.space, 8)} | ${pad(sec(w.fit_seconds), 9)} ${pad(sec(n.fit_seconds), 8)} | ` +
      `${pad(sec(w.score_seconds), 10)} ${pad(sec(n.score_seconds), 8)} | ${pad(sec(total), 14)} ${pad(sec(nativeTotal), 8)} ` +
      `${pad(sec(numpyTotal) + (p ? ` ${p.space[0]}` : ''), 8)} ${pad(ratio(total, nativeTotal), 11)} ${pad(ratio(total, numpyTotal), 10)} | ${pad(gflops.toFixed(1), 11)}`,
  );
}
if (numpy)
  console.log(
    `numpy equals gpprobe to ${Math.max(...numpy.rows.map((r) => r.max_difference)).toExponential(1)} (all five columns, every query)`,
  );

// Float32 queries: exact (float64 products) against float32 products, and numpy with float32 products.
const hot = (w) => hotFlops(w.space, w.observations, dimension, queries);
console.log(
  `\nfloat32 queries (the same values), best of ${repeats}, exact and float32 products interleaved; ` +
    `numpy: P and the products in float32 (sgemm), fit and measures in float64`,
);
console.log(
  `${pad('O', 5)} ${pad('space', 8)} | ${pad('exact wasm', 10)} ${pad('f32 wasm', 9)} ${pad('numpy f32', 10)} ${pad('f32/numpy', 9)} | ` +
    `${pad('score exact', 11)} ${pad('f32', 7)} | ${pad('hot GFLOP/s exact', 17)} ${pad('f32', 6)} | ${pad('max |Δ| f32', 11)} ${pad('rel var', 8)} ${pad('numpy |Δ|', 9)}`,
);
for (let i = 0; i < sizes.length; i++) {
  const w = wasm32[i],
    p = numpy?.rows32?.[i];
  const exact = w.exact.fit_seconds + w.exact.score_seconds,
    fast = w.fast.fit_seconds + w.fast.score_seconds;
  const numpyTotal = p ? p.fit_seconds + p.score_seconds : NaN;
  const space = { space: w.fast.space, observations: w.observations };
  console.log(
    `${pad(w.observations, 5)} ${pad(w.fast.space, 8)} | ${pad(sec(exact), 10)} ${pad(sec(fast), 9)} ` +
      `${pad(sec(numpyTotal) + (p ? ` ${p.space[0]}` : ''), 10)} ${pad(ratio(fast, numpyTotal), 9)} | ${pad(sec(w.exact.score_seconds), 11)} ` +
      `${pad(sec(w.fast.score_seconds), 7)} | ${pad((hot(space) / w.exact.score_seconds / 1e9).toFixed(1), 17)} ` +
      `${pad((hot(space) / w.fast.score_seconds / 1e9).toFixed(1), 6)} | ${pad(w.max_difference.toExponential(1), 11)} ` +
      `${pad(w.relative_variance.toExponential(1), 8)} ${pad(p ? p.max_difference.toExponential(1) : '—', 9)}`,
  );
}

// The relaxed twin against the plain one: the same fits and scoring passes, interleaved, best of repeats.
if (relaxedSimdSupported()) {
  const twins = { relaxed: engine, simd128: await createProbeEngine({ simd: 'simd128' }) };
  console.log(
    `\nrelaxed SIMD (${engine.backend}${engine.fusedMultiplyAdd ? ', fused' : ', not fused on this CPU'}) against the plain ` +
      `twin (wasm-simd128), Node, one thread, fit + score interleaved, best of ${repeats}`,
  );
  console.log(
    `${pad('O', 5)} ${pad('queries', 8)} | ${pad('simd128', 8)} ${pad('relaxed', 8)} ${pad('relaxed/simd128', 15)} | ` +
      `${pad('hot GFLOP/s simd128', 19)} ${pad('relaxed', 7)} | ${pad('max |Δ|', 7)}`,
  );
  const query32 = { data: Float32Array.from(queryData.data), rows: queries, cols: dimension };
  for (const O of sizes) {
    const data = engine.syntheticEmbeddings(O, dimension, seed);
    for (const float32Products of [false, true]) {
      const best = {};
      for (let r = 0; r < repeats; r++) {
        for (const [name, twin] of Object.entries(twins)) {
          const start = performance.now();
          const probe = twin.fitProbe({
            observations: data.x,
            labels: data.labels,
            epsilon,
            strength,
            expectedQueries: queries,
            float32Products,
          });
          const fitted = performance.now();
          const result = probe.score(float32Products ? query32 : queryData);
          const done = performance.now();
          const run = { total: (done - start) / 1000, score: (done - fitted) / 1000, space: probe.space, result };
          probe.dispose();
          if (!best[name] || run.total < best[name].total) best[name] = run;
        }
      }
      let difference = 0;
      for (const column of ['latentMean', 'latentVariance', 'judgedProbability', 'episteme', 'alea']) {
        best.relaxed.result[column].forEach((x, i) => {
          difference = Math.max(difference, Math.abs(x - best.simd128.result[column][i]));
        });
      }
      const flops = hotFlops(best.relaxed.space, O, dimension, queries);
      console.log(
        `${pad(O, 5)} ${pad(float32Products ? 'f32' : 'f64', 8)} | ${pad(sec(best.simd128.total), 8)} ${pad(sec(best.relaxed.total), 8)} ` +
          `${pad(ratio(best.relaxed.total, best.simd128.total), 15)} | ${pad((flops / best.simd128.score / 1e9).toFixed(1), 19)} ` +
          `${pad((flops / best.relaxed.score / 1e9).toFixed(1), 7)} | ${pad(difference.toExponential(1), 7)}`,
      );
    }
  }
} else {
  console.log(
    '\nrelaxed SIMD: this Node does not validate it (Node 20 needs --experimental-wasm-relaxed-simd, as npm run bench passes)',
  );
}

// The threaded module where a page allows it: Chromium, single-threaded module against threaded.
try {
  const [single, threaded] = await chromiumProbeBench({ sizes, dimension, queries, repeats, threads, seed });
  console.log(
    `\nChromium (module worker, cross-origin isolated page), fit + score, best of ${repeats}; load average ` +
      `${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
  console.log(
    `${pad('O', 5)} | ${pad('score 1 thread', 14)} ${pad(`${threaded.threads} threads`, 10)} ${pad('speed-up', 8)} | ` +
      `${pad('fit+score 1 thread', 18)} ${pad(`${threaded.threads} threads`, 10)} ${pad('speed-up', 8)} | ${pad('max |difference|', 16)}`,
  );
  for (const [i, t] of threaded.rows.entries()) {
    const o = single.rows[i];
    console.log(
      `${pad(t.observations, 5)} | ${pad(sec(o.score_seconds), 14)} ${pad(sec(t.score_seconds), 10)} ` +
        `${pad(ratio(o.score_seconds, t.score_seconds), 8)} | ${pad(sec(o.fit_seconds + o.score_seconds), 18)} ` +
        `${pad(sec(t.fit_seconds + t.score_seconds), 10)} ${pad(ratio(o.fit_seconds + o.score_seconds, t.fit_seconds + t.score_seconds), 8)} | ` +
        `${pad(t.max_difference.toExponential(1), 16)}`,
    );
  }
  console.log(
    `(data on the wasm heap before the clock starts; the queries' upload from JS took ${sec(threaded.rows[0].upload_seconds)} s, once)`,
  );
} catch (error) {
  console.error(`Chromium columns skipped: ${String(error).split('\n')[0]}`);
}
