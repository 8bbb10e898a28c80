// The evaluation lab's default experiments (the digits demo, closed loops, 10 trials: probing with the GPC
// probes up to O = 128, fuzzy concepts, out-of-distribution) run by the JS library (dist/lib) in a module
// worker of Debian's Chromium on a cross-origin isolated page, as the app's engine worker runs them: once
// on the single-threaded module and once on the threaded one, so the two differ only in threads (a
// trial's steps run in parallel there). Prints seconds per experiment and checks that both give the same
// curves. After scripts/make/build.sh:
//   node scripts/bench/bench_evaluation_browser.mjs [--trials 10] [--threads 2] [--repeats 1]
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { withIsolatedWorkers } from './bench_threads_browser.mjs';

// Runs in the worker: every experiment on `threads` threads (1: the single-threaded module).
const WORKER = `
const npy = async (url) => {
  const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
  const length = bytes[8] | (bytes[9] << 8);
  const header = new TextDecoder('latin1').decode(bytes.subarray(10, 10 + length));
  const [rows, cols] = header.match(/\\((\\d+), (\\d+)\\)/).slice(1).map(Number);
  return { data: new Float32Array(bytes.slice(10 + length).buffer, 0, rows * cols), rows, cols };
};
onmessage = async ({ data: o }) => {
  const { createProbeEngine, runExperiment } = await import(o.origin + '/dist/lib/index.js');
  const engine = await createProbeEngine({ threads: o.threads });
  const dir = o.origin + '/web/public/demo/digits/';
  const metadata = (await (await fetch(dir + 'metadata.csv')).text()).trim().split('\\n').map((l) => l.split(','));
  const column = metadata[0].indexOf('closed_loop'), split = metadata[0].indexOf('split');
  const labels = Uint8Array.from(metadata.slice(1), (r) => Number(r[column]));
  const queryMask = Uint8Array.from(metadata.slice(1), (r) => (r[split] === 'test' ? 1 : 0));
  const embeddings = await npy(dir + 'embeddings.npy'), ood = await npy(dir + 'ood_embeddings.npy');
  const rows = [];
  for (const [name, experiment, gpc] of o.runs) {
    let best = Infinity, curves = null;
    for (let r = 0; r < o.repeats; r++) {
      const t = performance.now();
      const result = await runExperiment(engine, { experiment, embeddings, labels, ood, queryMask, trials: o.trials, ...(gpc ? { gpc: true, gpcMaxObservations: 128 } : {}) });
      best = Math.min(best, (performance.now() - t) / 1000);
      curves = result.curves.map((c) => Array.from(c.values));
    }
    rows.push({ name, seconds: best, curves });
  }
  postMessage({ threads: engine.threads, rows });
};`;

export function chromiumEvaluationBench({ trials, threads, repeats }) {
  return withIsolatedWorkers(async (runWorker) => {
    const runs = [
      ['probing + gpc', 'probing', true],
      ['fuzzy', 'fuzzy', false],
      ['ood', 'ood', false],
      ['probing', 'probing', false],
    ];
    const run = (t) => runWorker(WORKER, { trials, repeats, runs, threads: t });
    const single = await run(1),
      threaded = await run(threads);
    return single.rows.map((row, i) => {
      const other = threaded.rows[i];
      const same = row.curves.every((c, k) => c.every((v, j) => Object.is(v, other.curves[k][j])));
      return {
        experiment: row.name,
        single_seconds: row.seconds,
        threads: threaded.threads,
        threaded_seconds: other.seconds,
        same_curves: same,
      };
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = Object.fromEntries(
    process.argv.slice(2).reduce((p, a, i, all) => (a.startsWith('--') ? [...p, [a.slice(2), all[i + 1]]] : p), []),
  );
  const rows = await chromiumEvaluationBench({
    trials: Number(args.trials ?? 10),
    threads: Number(args.threads ?? availableParallelism()),
    repeats: Number(args.repeats ?? 1),
  });
  console.log('experiment (demo, closed loops) | one thread | threads | seconds | same curves');
  for (const r of rows) {
    console.log(
      `${r.experiment} | ${r.single_seconds.toFixed(2)} s | ${r.threads} | ${r.threaded_seconds.toFixed(2)} s | ${r.same_curves ? 'yes, bit for bit' : 'NO'}`,
    );
  }
  if (rows.some((r) => !r.same_curves)) process.exitCode = 1;
}
