// Side-by-side benchmark of issue 37 (certificates and explanations at the speed of a click): two native
// builds of `gpprobe` (a baseline, e.g. main built natively, and this checkout's) on the same workloads in one
// run, interleaved (baseline, candidate, baseline, candidate, ...) so that both see the same machine load;
// each row reports both builds' CPU seconds (user + system of the child, which a loaded machine inflates far
// less than wall time) and wall seconds, and the ratio baseline ÷ candidate.
//
// Data: the 3/5/8 digits (web/public/demo/classification/digits358.csv), its first N rows (default 300) as
// training set, C = 3, d = 64; the kernel the baseline's fit learns (one SE-ARD kernel shared by the classes,
// from S = 1 and every length-scale 1), used by every certified workload of both builds.
//   fit        gpc --likelihood softmax --optimize --restarts 0 to convergence (+ its log marginal likelihood,
//              which must agree to 1e-6)
//   explain    explain --likelihood softmax at row N + 1, gamma 0.25 on [0, 1], all 64 pixels, tolerance 0.001
//              (the app's defaults), no LIME (2 samples); the CSVs must agree
//   global     the same for the next P - 1 rows too (default P = 3; the app's global view takes 20)
//   certify    robustness --likelihood softmax at row N + 1, gamma 1 on its 5 varying pixels of shortest
//              length-scale, [0, 1], tolerance 0.02, at most B boxes per search (--max-iterations, default
//              300: the same boxes for both builds, so the CPU ratio is the cost per box's): status, interval
//              and boxes of the minimum's and the maximum's searches
//
//   node scripts/bench/bench_certify_speed.mjs --baseline /path/to/main/gpprobe [--candidate build/native/gpprobe]
//        [--n 300] [--points 3] [--boxes 300] [--repeats 1] [--skip fit,explain,global,certify] [--keep DIR]
// --keep DIR writes every run's standard output to DIR (workload-build-run.txt) so that outputs that differ can be
// compared number by number.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .reduce((pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1] ?? '']] : pairs), []),
);
if (!args.baseline) {
  console.error('bench_certify_speed: --baseline BINARY is required (a native gpprobe of the commit to compare with)');
  process.exit(2);
}
const BUILDS = { baseline: args.baseline, candidate: args.candidate || 'build/native/gpprobe' };
const N = Number(args.n ?? 300),
  POINTS = Number(args.points ?? 3),
  BOXES = String(args.boxes ?? 300),
  REPEATS = Number(args.repeats ?? 1);
const skip = new Set((args.skip ?? '').split(',').filter(Boolean));

const [header, ...lines] = readFileSync('web/public/demo/classification/digits358.csv', 'utf8').trim().split('\n');
const rows = lines.map((l) => l.split(','));
const dir = mkdtempSync(join(tmpdir(), 'gpprobe-certify-speed-'));
const train = join(dir, 'train.csv'),
  test = join(dir, 'test.csv');
writeFileSync(train, [header, ...lines.slice(0, N)].join('\n') + '\n');
const pointOf = (i) => rows[N + i].slice(0, 64).join(',');
writeFileSync(test, header.split(',').slice(0, 64).join(',') + '\n' + pointOf(0) + '\n');

let kept = 0;
/** Runs a build with `argv`; CPU seconds from /usr/bin/time's user + system, wall from the same. */
function run(build, argv) {
  const timing = join(dir, 'time.txt');
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S %e', '-o', timing, BUILDS[build], ...argv], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`${build} ${argv[0]} failed: ${r.stderr}`);
  if (args.keep) {
    mkdirSync(args.keep, { recursive: true });
    writeFileSync(join(args.keep, `${argv[0]}-${build}-${++kept}.txt`), r.stdout);
  }
  const [user, system, wall] = readFileSync(timing, 'utf8').trim().split(/\s+/).slice(-3).map(Number);
  return { cpu: user + system, wall, stdout: r.stdout, stderr: r.stderr };
}

function sideBySide(name, argvOf, check) {
  const out = { workload: name, load_before: loadavg()[0] };
  const results = { baseline: [], candidate: [] };
  for (let r = 0; r < REPEATS; ++r)
    for (const build of ['baseline', 'candidate']) results[build].push(run(build, argvOf(build)));
  for (const build of ['baseline', 'candidate']) {
    out[`${build}_cpu_s`] = Math.min(...results[build].map((x) => x.cpu));
    out[`${build}_wall_s`] = Math.min(...results[build].map((x) => x.wall));
  }
  out.ratio_cpu = out.baseline_cpu_s / out.candidate_cpu_s;
  out.ratio_wall = out.baseline_wall_s / out.candidate_wall_s;
  out.load_after = loadavg()[0];
  if (check) Object.assign(out, check(results.baseline[0], results.candidate[0]));
  console.log(JSON.stringify(out));
  return results;
}

const ones = Array(64).fill(1).join(',');
const fitLine = (stderr) =>
  JSON.parse(
    stderr
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .pop(),
  );
const fitArgv = () => [
  'gpc',
  '--likelihood',
  'softmax',
  '--train',
  train,
  '--test',
  test,
  '--signal-variance',
  '1',
  '--length-scales',
  ones,
  '--optimize',
  '--restarts',
  '0',
  '--threads',
  '1',
];
// --skip fit: the kernel from the baseline's fit alone (not timed side by side).
const fits = skip.has('fit')
  ? { baseline: [run('baseline', fitArgv())] }
  : sideBySide('fit hyperparameters to convergence', fitArgv, (b, c) => {
      const [fb, fc] = [fitLine(b.stderr), fitLine(c.stderr)];
      return {
        baseline_lml: fb.log_marginal_likelihood,
        candidate_lml: fc.log_marginal_likelihood,
        lml_difference: Math.abs(fb.log_marginal_likelihood - fc.log_marginal_likelihood),
        baseline_iterations: fb.optimizer_iterations,
        candidate_iterations: fc.optimizer_iterations,
      };
    });
const learned = fitLine(fits.baseline[0].stderr);
const S = String(learned.signal_variances[0]),
  L = learned.length_scales[0];
const model = ['--likelihood', 'softmax', '--train', train, '--signal-variance', S, '--length-scales', L.join(',')];

const explainArgv = (i) => [
  'explain',
  ...model,
  '--point',
  pointOf(i),
  '--gamma',
  '0.25',
  '--valid-range',
  '0,1',
  '--lime-samples',
  '2',
  '--threads',
  '1',
];
const sameCsv = (b, c) => ({ same_output: b.stdout === c.stdout });
if (!skip.has('explain')) sideBySide('explain one digit (64 features, 4 searches each)', () => explainArgv(0), sameCsv);
if (!skip.has('global')) {
  // The global view: Explain at POINTS digits, one process each (what the app's view does per point).
  const total = { workload: `global view, ${POINTS} points`, load_before: loadavg()[0] };
  for (const build of ['baseline', 'candidate']) {
    total[`${build}_cpu_s`] = 0;
    total[`${build}_wall_s`] = 0;
  }
  let same = true;
  for (let i = 0; i < POINTS; ++i) {
    const b = run('baseline', explainArgv(i)),
      c = run('candidate', explainArgv(i));
    total.baseline_cpu_s += b.cpu;
    total.baseline_wall_s += b.wall;
    total.candidate_cpu_s += c.cpu;
    total.candidate_wall_s += c.wall;
    same = same && b.stdout === c.stdout;
  }
  total.ratio_cpu = total.baseline_cpu_s / total.candidate_cpu_s;
  total.ratio_wall = total.baseline_wall_s / total.candidate_wall_s;
  total.same_output = same;
  total.load_after = loadavg()[0];
  console.log(JSON.stringify(total));
}
if (!skip.has('certify')) {
  const x = rows.slice(0, N).map((r) => r.slice(0, 64).map(Number));
  const varying = [...Array(64).keys()].filter((j) => x.some((r) => r[j] !== x[0][j]));
  const dims = varying
    .sort((a, b) => L[a] - L[b] || a - b)
    .slice(0, 5)
    .sort((a, b) => a - b);
  const argv = [
    'robustness',
    ...model,
    '--point',
    pointOf(0),
    '--gamma',
    '1',
    '--dims',
    dims.join(','),
    '--valid-range',
    '0,1',
    '--tolerance',
    '0.02',
    '--max-iterations',
    BOXES,
    '--threads',
    '1',
  ];
  sideBySide(
    `certify one point, gamma 1, pixels ${dims.join(',')}, tolerance 0.02`,
    () => argv,
    (b, c) => {
      const summary = (r) => {
        const j = JSON.parse(r.stdout);
        const s = (e) => `[${e.lower.toFixed(4)}, ${e.upper.toFixed(4)}] ${e.status} ${e.iterations} boxes`;
        return { minimum: s(j.minimum), maximum: s(j.maximum), safety: j.safety.status };
      };
      return { baseline: summary(b), candidate: summary(c) };
    },
  );
}
rmSync(dir, { recursive: true });
