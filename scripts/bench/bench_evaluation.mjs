// Times the paper's experiments on the shipped digits dataset natively (build/native/gpprobe evaluate, one
// thread) and in wasm through the JS library in Node (dist/lib, the single-threaded module), checks that
// both give the same curves, and prints the ratio. Run after scripts/make/build.sh (or at least the native, wasm and library steps):
//   node scripts/bench/bench_evaluation.mjs [--trials 3] [--concept even]   (the app's demo: --trials 10 --concept closed_loop)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createProbeEngine, runExperiment } from '../../dist/lib/index.js';

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .reduce((pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []),
);
const trials = Number(args.trials ?? 3);
const concept = args.concept ?? 'even';
const dir = 'web/public/demo/digits';

// A C-order float32 2-D .npy (what scripts/data/make_digits_dataset.py writes).
function readNpy(path) {
  const bytes = readFileSync(path);
  const headerLength = bytes.readUInt16LE(8);
  const header = bytes.subarray(10, 10 + headerLength).toString('latin1');
  if (!header.includes("'<f4'")) throw new Error(`${path}: expected float32`);
  const [rows, cols] = header
    .match(/\((\d+), (\d+)\)/)
    .slice(1)
    .map(Number);
  const data = new Float32Array(bytes.buffer.slice(bytes.byteOffset + 10 + headerLength), 0, rows * cols);
  return { data, rows, cols };
}

const metadata = readFileSync(join(dir, 'metadata.csv'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => l.split(','));
const column = metadata[0].indexOf(concept);
const labels = Uint8Array.from(metadata.slice(1), (r) => Number(r[column]));
const queryMask = Uint8Array.from(metadata.slice(1), (r) => (r[5] === 'test' ? 1 : 0));
const embeddings = readNpy(join(dir, 'embeddings.npy'));
const ood = readNpy(join(dir, 'ood_embeddings.npy'));

const work = mkdtempSync(join(tmpdir(), 'gpprobe-bench-'));
writeFileSync(join(work, 'labels.txt'), labels.join('\n') + '\n');
writeFileSync(join(work, 'mask.txt'), queryMask.join('\n') + '\n');

const engine = await createProbeEngine();
console.log(`digits, concept "${concept}", ${trials} trials; wasm backend ${engine.backend}`);
console.log('experiment | native | wasm | wasm CPU | ratio | largest |wasm - native| of a mean curve point');
// 'probing + gpc' is the app's default probing run: the GPC probes (Laplace, EP) up to O = 128 too.
for (const name of ['probing', 'probing + gpc', 'fuzzy', 'ood']) {
  const experiment = name.split(' ')[0],
    gpc = name.endsWith('gpc');
  let start = performance.now();
  const csv = execFileSync(
    'build/native/gpprobe',
    [
      'evaluate',
      '--embeddings',
      join(dir, 'embeddings.npy'),
      '--labels',
      join(work, 'labels.txt'),
      '--ood',
      join(dir, 'ood_embeddings.npy'),
      '--query-mask',
      join(work, 'mask.txt'),
      '--experiment',
      experiment,
      '--trials',
      String(trials),
      ...(gpc ? ['--gpc'] : []),
      '--threads',
      '1', // the same work as the wasm run: one thread
    ],
    { encoding: 'utf8' },
  );
  const native = (performance.now() - start) / 1000;
  start = performance.now();
  const cpuStart = process.cpuUsage(); // what a quiet machine's wall time would be: load-independent
  const r = await runExperiment(engine, {
    experiment,
    embeddings,
    labels,
    ood,
    queryMask,
    trials,
    ...(gpc ? { gpc: true, gpcMaxObservations: 128 } : {}),
  });
  const wasm = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  const means = new Map(
    csv
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','))
      .map((c) => [`${c[0]} ${c[2]}`, Number(c[3])]),
  );
  let gap = 0,
    where = '';
  for (const curve of r.curves) {
    r.observationCounts.forEach((O, j) => {
      if (Number.isNaN(curve.mean[j])) return; // GPC beyond its limit: not run, no CSV row
      const d = Math.abs(curve.mean[j] - means.get(`${curve.method} ${O}`));
      if (d > gap) [gap, where] = [d, ` (${curve.method}, O = ${O})`];
    });
  }
  console.log(
    `${name} | ${native.toFixed(2)} s | ${wasm.toFixed(2)} s | ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s | ${(wasm / native).toFixed(1)}× | ${gap.toExponential(1)}${where}`,
  );
}
rmSync(work, { recursive: true });
