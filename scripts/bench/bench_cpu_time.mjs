// Fit + score in wasm (the JS library in Node, one thread) timed in CPU time of this process, so that a
// shared, loaded machine's other jobs do not count: float64 queries, the same queries as float32 scored
// exactly, and with float32 products (fitProbe float32Products), interleaved, best of 3. The "hot
// product" rate is the multiply-adds of bench.mjs's hotFlops over the scoring time (a lower bound).
//   node scripts/bench/bench_cpu_time.mjs [100,1000,4000]      (after scripts/make/build.sh)
import { createProbeEngine } from '../../dist/lib/index.js';
const engine = await createProbeEngine();
const d = 768,
  n = 10000;
const q64 = engine.syntheticEmbeddings(n, d, 8).x;
const q32 = { data: Float32Array.from(q64.data), rows: n, cols: d };
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
for (const O of (process.argv[2] ?? '100,1000,4000').split(',').map(Number)) {
  const data = engine.syntheticEmbeddings(O, d, 7);
  const best = {};
  for (let r = 0; r < 3; r++) {
    for (const [name, queries, float32Products] of [
      ['f64 queries', q64, false],
      ['f32 exact', q32, false],
      ['f32 products', q32, true],
    ]) {
      let t = cpu();
      const probe = engine.fitProbe({ observations: data.x, labels: data.labels, expectedQueries: n, float32Products });
      const fit = cpu() - t;
      t = cpu();
      probe.score(queries);
      const score = cpu() - t;
      if (!best[name] || fit + score < best[name].fit + best[name].score)
        best[name] = { fit, score, space: probe.space };
      probe.dispose();
    }
  }
  for (const [name, b] of Object.entries(best)) {
    const D = d + 1,
      hot = b.space === 'weight' ? n * D * (D + 1) : 2 * n * O * D + 2 * n * O * (O + 1);
    console.log(
      `O=${O} ${b.space} ${name}: fit ${b.fit.toFixed(3)} s, score ${b.score.toFixed(3)} s, total ${(b.fit + b.score).toFixed(3)} s, hot ${(hot / b.score / 1e9).toFixed(1)} GFLOP/s`,
    );
  }
}
