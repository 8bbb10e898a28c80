// Every core, side by side in one run (issue 28): fit + score of `queries` × `dimension` at each O, by
//   native     build/native/gpprobe bench --json --repeats `repeats` on 1 and on `threads` threads (best of them)
//   wasm       the JS library in Chromium (bench_threads_browser.mjs): the single-threaded module, and the
//              threaded module on `threads` threads, whose outputs must equal the first's to the bit; on data
//              uploaded to the wasm heap first (as the app holds its embeddings, and as the other contenders
//              read theirs in place), the upload's copy timed apart and printed under the table
//   numpy      numpy + its BLAS (OpenBLAS, scripts/make/setup.sh) on `threads` threads, the fastest of its
//              formulations (bench_scale.py, bench_probe_numpy.py), checked against gpprobe to 1e-9
//   Python     the Python module (build/native/python) on `threads` threads, on the same data as the CLI's
//              (the core's seeded synthetic embeddings, written here as .npy; checksums compared), alone in
//              its process, in `rounds` rounds interleaved with the CLI's on `threads` threads (best of all)
//   Dask       gpprobe.dask.score of `dask-rows` × `dask-dimension` float32 (O = `dask-observations`) on 2
//              local workers against 1 (bench_scale.py: a memory-mapped .npy made in /tmp, then deleted)
// and prints one table, each ratio against its target. The machine should be otherwise idle: the load
// average is printed before and after.
//   node scripts/bench/bench_scale.mjs [--quick] [--observations 100,1000,4000] [--dimension 768]
//     [--queries 10000] [--repeats 10] [--rounds 2] [--threads 2] [--dask-rows 2000000] [--dask-dimension 768] [--dask-repeats 3]
//     [--dask-observations 100] [--json FILE]
// --quick: a check that every part runs (O = 100, 300; 64 dimensions; 1,000 queries; Dask on 40,000 × 64;
// one repeat), not figures; any flag given after it wins.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProbeEngine } from '../../dist/lib/index.js';
import { chromiumProbeBench } from './bench_threads_browser.mjs';
import { writeNpy } from './million_npy.mjs';

const FULL = {
  observations: '100,1000,4000',
  dimension: 768,
  queries: 10000,
  repeats: 10,
  rounds: 2,
  'dask-repeats': 3,
  threads: 2,
  'dask-rows': 2000000,
  'dask-dimension': 768,
  'dask-observations': 100,
};
const QUICK = {
  ...FULL,
  observations: '100,300',
  dimension: 64,
  queries: 1000,
  repeats: 1,
  rounds: 1,
  'dask-repeats': 1,
  'dask-rows': 40000,
  'dask-dimension': 64,
};
const argv = process.argv.slice(2);
const flags = Object.fromEntries(
  argv.reduce(
    (pairs, a, i, all) => (a.startsWith('--') && a !== '--quick' ? [...pairs, [a.slice(2), all[i + 1]]] : pairs),
    [],
  ),
);
const quick = argv.includes('--quick');
const o = { ...(quick ? QUICK : FULL), ...flags };
const sizes = String(o.observations).split(',').map(Number);
const dimension = Number(o.dimension),
  queries = Number(o.queries),
  repeats = Number(o.repeats),
  threads = Number(o.threads);
const rounds = Number(o.rounds);
const seed = 7,
  epsilon = 0.1,
  strength = 5; // gpprobe bench's seed, ProbeOptions' defaults
const CLI = 'build/native/gpprobe';
const load = () => loadavg()[0].toFixed(1);
const loadBefore = load();

const total = (r) => r.fit_seconds + r.score_seconds;

/** gpprobe bench on `t` threads: the best fit + score of `repeats` runs per O in one process (as the numpy and
 * Python rows: a warm process, its thread pool started). */
function native(t) {
  const rows = JSON.parse(
    execFileSync(
      CLI,
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
        '--repeats',
        String(repeats),
        '--json',
        '--threads',
        String(t),
      ],
      { encoding: 'utf8' },
    ),
  );
  return sizes.map((O) => rows.find((row) => row.observations === O));
}

const dir = mkdtempSync(join(tmpdir(), 'gpprobe-bench-scale-'));
let results;
try {
  console.error(
    `scale bench${quick ? ' (--quick: checks that it runs, not figures)' : ''}: O = ${sizes.join(', ')}; ` +
      `${queries} queries × ${dimension}; ${threads} threads; load average ${loadBefore}`,
  );
  // The data of gpprobe bench (the core's synthetic embeddings from the same seeds) for Python and numpy.
  const engine = await createProbeEngine();
  writeNpy(join(dir, 'queries.npy'), engine.syntheticEmbeddings(queries, dimension, seed + 1).x.data, [
    queries,
    dimension,
  ]);
  const cases = sizes.map((O) => {
    const data = engine.syntheticEmbeddings(O, dimension, seed);
    writeNpy(join(dir, `x${O}.npy`), data.x.data, [O, dimension]);
    writeNpy(join(dir, `y${O}.npy`), Uint8Array.from(data.labels), [O]);
    return { observations: `x${O}.npy`, labels: `y${O}.npy` };
  });
  writeFileSync(join(dir, 'scale.json'), JSON.stringify({ epsilon, strength, queries: 'queries.npy', cases }));

  // The Python module: bench_scale.py's module part, alone in its process (as the CLI is in its own).
  const pythonEnv = {
    ...process.env,
    OPENBLAS_NUM_THREADS: String(threads),
    PYTHONPATH: ['build/native/python', process.env.PYTHONPATH].filter(Boolean).join(':'),
  };
  const benchPy = (parts, extra = []) => {
    const run = spawnSync(
      '/usr/bin/python3',
      [
        'scripts/bench/bench_scale.py',
        dir,
        '--threads',
        String(threads),
        '--repeats',
        String(repeats),
        '--parts',
        parts,
        ...extra,
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 26, env: pythonEnv },
    );
    if (run.status !== 0) throw new Error(`bench_scale.py --parts ${parts} failed (${run.status ?? run.signal})`);
    return JSON.parse(run.stdout);
  };
  const faster = (a, b) => a.map((r, i) => (total(b[i]) < total(r) ? b[i] : r));
  // The CLI on 1 and on `threads` threads and the module run in interleaved rounds (CLI, CLI, module, CLI,
  // ...), the best of all rounds each: a machine whose speed drifts over minutes favours none of them.
  let native1 = null,
    nativeN = null,
    pythonRows = null;
  for (let round = 0; round < rounds; round++) {
    console.error(`native on 1 and ${threads} threads, the Python module: round ${round + 1} of ${rounds}`);
    const one = native(1),
      n = native(threads),
      p = benchPy('module').python;
    native1 = native1 ? faster(native1, one) : one;
    nativeN = nativeN ? faster(nativeN, n) : n;
    pythonRows = pythonRows ? faster(pythonRows, p) : p;
  }

  let chromium = null;
  if (existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) {
    console.error('wasm in Chromium, the single-threaded module and the threaded one');
    const [single, threaded] = await chromiumProbeBench({ sizes, dimension, queries, repeats, threads });
    if (threaded.threads !== threads)
      throw new Error(`the threaded module ran on ${threaded.threads} threads, not ${threads}`);
    for (const row of threaded.rows) {
      if (row.max_difference !== 0)
        throw new Error(
          `threaded wasm differs from single-threaded by ${row.max_difference} at O = ${row.observations}`,
        );
    }
    chromium = { single: single.rows, threaded: threaded.rows };
  } else {
    console.error('no Chromium: the wasm rows are left out');
  }

  console.error('numpy' + (Number(o['dask-rows']) > 0 ? ' and Dask' : ''));
  const py = {
    ...benchPy('numpy,dask', [
      '--dask-repeats',
      String(o['dask-repeats']),
      '--dask-rows',
      String(o['dask-rows']),
      '--dask-dimension',
      String(o['dask-dimension']),
      '--dask-observations',
      String(o['dask-observations']),
    ]),
    python: pythonRows,
  };
  // gpprobe bench prints its checksum to 6 significant digits.
  for (const [i, row] of py.python.entries()) {
    const difference = Math.abs(row.checksum - nativeN[i].checksum);
    if (!(difference <= 1e-5 * Math.abs(nativeN[i].checksum))) {
      throw new Error(
        `the Python module's checksum ${row.checksum} is not the CLI's ${nativeN[i].checksum} at O = ${row.observations}: not the same data`,
      );
    }
  }
  results = {
    quick,
    sizes,
    dimension,
    queries,
    repeats,
    threads,
    native1,
    nativeN,
    chromium,
    ...py,
    loadBefore,
    loadAfter: load(),
  };
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// The table: one row per measure, one column per O, then the target and whether every O meets it.
const s = (x) => x.toFixed(3);
const x = (v) => `${v.toFixed(2)}×`;
const rows = [];
const row = (name, values, target, met) =>
  rows.push([name, ...values, target ?? '', met === undefined ? '' : met ? 'yes' : 'no']);
const ratioRow = (name, ratios, target, ok) => row(name, ratios.map(x), target, ratios.every(ok));
const { native1, nativeN, chromium, numpy, python, dask } = results;
const t = threads === 1 ? '1 thread' : `${threads} threads`;
row(
  'native, 1 thread (s)',
  native1.map((r) => s(total(r))),
);
row(
  `native, ${t} (s)`,
  nativeN.map((r) => s(total(r))),
);
ratioRow(
  `native, ${t} over 1`,
  native1.map((r, i) => total(r) / total(nativeN[i])),
  '≥ 1.8×',
  (v) => v >= 1.8,
);
if (chromium) {
  row(
    'wasm in Chromium, 1 thread (s)',
    chromium.single.map((r) => s(total(r))),
  );
  row(
    `wasm in Chromium, ${t} (s)`,
    chromium.threaded.map((r) => s(total(r))),
  );
  ratioRow(
    `wasm, ${t} over 1`,
    chromium.single.map((r, i) => total(r) / total(chromium.threaded[i])),
    '≥ 1.8×',
    (v) => v >= 1.8,
  );
}
row(
  `numpy + ${results.blas.split(' (')[0]}, ${t} (s)`,
  numpy.map((r) => `${s(total(r))} (${r.formulation})`),
);
if (chromium)
  ratioRow(
    `wasm ${t} / numpy`,
    chromium.threaded.map((r, i) => total(r) / total(numpy[i])),
    '≤ 1.0×',
    (v) => v <= 1.0,
  );
ratioRow(
  `native ${t} / numpy`,
  nativeN.map((r, i) => total(r) / total(numpy[i])),
  '≤ 0.6×',
  (v) => v <= 0.6,
);
row(
  `Python module, ${t} (s)`,
  python.map((r) => s(total(r))),
);
ratioRow(
  `Python / CLI, ${t}`,
  python.map((r, i) => total(r) / total(nativeN[i])),
  '≤ 1.05× (no slower than the CLI + 5 %)',
  (v) => v <= 1.05,
);
if (dask) {
  const ratio = dask.one_worker_seconds / dask.two_workers_seconds;
  row(
    `Dask, 2 workers over 1 (${dask.rows.toLocaleString('en')} × ${dask.dimension} float32, O = ${dask.observations}; ` +
      `${s(dask.one_worker_seconds)} s / ${s(dask.two_workers_seconds)} s)`,
    [x(ratio), ...sizes.slice(1).map(() => '')],
    '≥ 1.6×',
    ratio >= 1.6,
  );
}
const header = ['measure (fit + score)', ...sizes.map((O) => `O = ${O.toLocaleString('en')}`), 'target', 'met'];
console.log(
  `\n${queries.toLocaleString('en')} queries × ${dimension}; best of ${repeats}; BLAS: ${results.blas}; ` +
    `load average ${results.loadBefore} before, ${results.loadAfter} after${quick ? '; --quick: not figures' : ''}\n`,
);
const cores = availableParallelism();
// The load after includes the run's own threads; the one before says whether the machine was busy.
if (Number(results.loadBefore) >= 0.5 * cores) {
  console.log(
    `The load average was at half the ${cores} cores before the run: other processes were taking CPU time, so these are not figures.\n`,
  );
}
if (chromium) {
  const upload = Math.min(...chromium.threaded.map((r) => r.upload_seconds));
  console.log(
    `wasm: the data are on the wasm heap before the clock starts; copying the ${queries.toLocaleString('en')} × ${dimension} ` +
      `queries there from JS (engine.upload, once per data set) took ${(1000 * upload).toFixed(1)} ms, on one thread.\n`,
  );
}
console.log(`| ${header.join(' | ')} |`);
console.log(`| ${header.map((h, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`);
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
if (o.json) writeFileSync(o.json, JSON.stringify(results, null, 1));
