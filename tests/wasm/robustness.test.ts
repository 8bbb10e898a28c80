// Certified robustness of GP classifiers through the wasm module and the public TS API, in Node:
//  - every robustness box of tests/reference/gpc_golden.json on our own fit of its model: the box, root
//    bounds that hold our model's values at the reference's arg-extrema (no tolerance) and are at least
//    as tight as the reference's, branch and bound converged around the brute-force extrema, each witness
//    in the box with the probability the library's predict() gives there;
//  - the synthetic2d-small sweep (the paper's Fig. 2 rows, GPFGS to 1e-7, the flip at gamma = 1.4);
//  - the same certificate as `gpprobe robustness` natively, to 1e-9;
//  - live intervals: one per split, monotone, ending at the result; cancel keeps a valid interval;
//  - bad inputs named, the module intact.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createClassificationEngine,
  type ClassificationEngine,
  type ClassificationLikelihood,
  type ClassificationMethod,
  type GpClassifier,
  type IntervalDetail,
  type Matrix,
  type RobustnessCertificate,
} from '../../web/src/engine/index.ts';
import { expectError } from './expect_error.ts';

interface Extremes {
  min: number;
  max: number;
  argmin: number[];
  argmax: number[];
}
interface GoldenBox {
  model: 'laplace_probit' | 'laplace_logistic' | 'ep_probit';
  x_star: number[];
  gamma: number;
  dims: number[];
  lower: number[];
  upper: number[];
  prob_at_x_star: number;
  empirical: { latent_mean: Extremes; latent_variance: Extremes; prob: Extremes };
  root_bounds: Record<'mean_lower' | 'mean_upper' | 'var_lower' | 'var_upper' | 'prob_lower' | 'prob_upper', number>;
  reference_bnb: { epsilon: number; prob_min_interval: [number, number]; prob_max_interval: [number, number] };
}
interface SweepRow {
  gamma: number;
  prob_min: number;
  prob_max: number;
  root_prob_lower: number;
  root_prob_upper: number;
  bnb_interval: [number, number];
  gpfgs_prob: number;
}
interface GoldenCase {
  name: string;
  X_train: number[][];
  y_train: number[];
  kernel: { signal_variance: number; lengthscales: number[] };
  robustness: GoldenBox[];
  robustness_sweep?: { model: string; x_star: number[]; dims: number[]; rows: SweepRow[] };
}

const golden = JSON.parse(readFileSync(new URL('../reference/gpc_golden.json', import.meta.url), 'utf8')) as {
  cases: GoldenCase[];
};
const matrix = (rows: number[][]): Matrix => ({
  data: Float64Array.from(rows.flat()),
  rows: rows.length,
  cols: rows[0].length,
});
const MODELS: Record<GoldenBox['model'], { method: ClassificationMethod; likelihood: ClassificationLikelihood }> = {
  laplace_probit: { method: 'laplace', likelihood: 'probit' },
  laplace_logistic: { method: 'laplace', likelihood: 'logistic' },
  ep_probit: { method: 'ep', likelihood: 'probit' },
};

let engine: ClassificationEngine;
beforeAll(async () => {
  engine = await createClassificationEngine();
});

function fit(c: GoldenCase, model: GoldenBox['model']): GpClassifier {
  return engine.fitClassifier({
    inputs: matrix(c.X_train),
    labels: Float64Array.from(c.y_train),
    ...MODELS[model],
    kernel: { signalVariance: c.kernel.signal_variance, lengthScales: c.kernel.lengthscales },
  });
}

/** Our fits agree with the reference's to 1e-8 (Laplace) and 1e-7 (EP): comparisons with its numbers
 * allow that much; comparisons with our own model's values allow nothing. */
const MODEL_SLACK = 1e-6;

/** The certificate evaluates p one point at a time, predict in SIMD batches: the same value up to rounding. */
const ULP_SLACK = 1e-12;

function predictAt(gpc: GpClassifier, point: ArrayLike<number>) {
  const p = gpc.predict({ data: Float64Array.from(point), rows: 1, cols: point.length });
  return { mean: p.latentMean[0], variance: p.latentVariance[0], probability: p.probability[0] };
}

function expectInBox(c: RobustnessCertificate, x: ArrayLike<number>, what: string): void {
  expect(x.length, what).toBe(c.box.lower.length);
  for (let j = 0; j < x.length; j++) {
    expect(x[j], `${what}[${j}]`).toBeGreaterThanOrEqual(c.box.lower[j]);
    expect(x[j], `${what}[${j}]`).toBeLessThanOrEqual(c.box.upper[j]);
  }
}

describe('the golden robustness boxes through the library', () => {
  it('every box: sound and tight root bounds, converged branch and bound, witnesses the model confirms', () => {
    let boxes = 0;
    for (const c of golden.cases) {
      for (const b of c.robustness) {
        const label = `${c.name} ${b.model} gamma ${b.gamma}`;
        const gpc = fit(c, b.model);
        try {
          const cert = gpc.certifyRobustness(b.x_star, {
            gamma: b.gamma,
            dims: b.dims,
            tolerance: b.reference_bnb.epsilon,
          });
          boxes += 1;
          expect(Array.from(cert.box.lower), label).toEqual(b.lower);
          expect(Array.from(cert.box.upper), label).toEqual(b.upper);
          expect(Math.abs(cert.probabilityAtPoint - b.prob_at_x_star), label).toBeLessThan(MODEL_SLACK);
          expect(Math.abs(cert.probabilityAtPoint - predictAt(gpc, b.x_star).probability), label).toBeLessThanOrEqual(
            ULP_SLACK,
          );
          const root = cert.root,
            ref = b.root_bounds;
          // Sound: our model's values at the reference's arg-extrema of each quantity, exactly inside.
          for (const q of ['latent_mean', 'latent_variance', 'prob'] as const) {
            for (const at of [b.empirical[q].argmin, b.empirical[q].argmax]) {
              const v = predictAt(gpc, at);
              for (const [value, bound] of [
                [v.mean, root.mean],
                [v.variance, root.variance],
                [v.probability, root.probability],
              ] as const) {
                expect(value, `${label} ${q}`).toBeGreaterThanOrEqual(bound.lower);
                expect(value, `${label} ${q}`).toBeLessThanOrEqual(bound.upper);
              }
            }
          }
          // At least as tight as the reference's relaxation.
          expect(root.mean.lower, label).toBeGreaterThanOrEqual(ref.mean_lower - MODEL_SLACK);
          expect(root.mean.upper, label).toBeLessThanOrEqual(ref.mean_upper + MODEL_SLACK);
          expect(root.variance.lower, label).toBeGreaterThanOrEqual(ref.var_lower - MODEL_SLACK);
          expect(root.variance.upper, label).toBeLessThanOrEqual(ref.var_upper + MODEL_SLACK);
          expect(root.probability.lower, label).toBeGreaterThanOrEqual(ref.prob_lower - MODEL_SLACK);
          expect(root.probability.upper, label).toBeLessThanOrEqual(ref.prob_upper + MODEL_SLACK);
          // Branch and bound: closed to the tolerance around the brute-force extrema; witnesses in T whose
          // probability (by predict) is the reported end, to the last bit.
          for (const [x, empirical, attained] of [
            [cert.minimum, b.empirical.prob.min, cert.minimum.upper],
            [cert.maximum, b.empirical.prob.max, cert.maximum.lower],
          ] as const) {
            expect(x.status, label).toBe('converged');
            expect(x.upper - x.lower, label).toBeLessThanOrEqual(b.reference_bnb.epsilon);
            expect(x.lower, label).toBeLessThanOrEqual(empirical + MODEL_SLACK);
            expect(x.upper, label).toBeGreaterThanOrEqual(empirical - MODEL_SLACK);
            expectInBox(cert, x.witness, `${label} witness`);
            expect(Math.abs(predictAt(gpc, x.witness).probability - attained), `${label} witness`).toBeLessThanOrEqual(
              ULP_SLACK,
            );
          }
          expectInBox(cert, cert.gpfgs.point, `${label} GPFGS`);
          expect(
            Math.abs(predictAt(gpc, cert.gpfgs.point).probability - cert.gpfgs.probability),
            `${label} GPFGS`,
          ).toBeLessThanOrEqual(ULP_SLACK);
        } finally {
          gpc.dispose();
        }
      }
    }
    expect(boxes).toBe(11);
  });

  it("the synthetic2d-small sweep: the paper's Fig. 2 rows, and GPFGS missing the flip branch and bound finds", () => {
    const c = golden.cases.find((x) => x.robustness_sweep)!;
    const s = c.robustness_sweep!;
    const gpc = fit(c, 'laplace_probit');
    const done: number[] = [];
    const rows = gpc.robustnessSweep(
      s.x_star,
      s.rows.map((r) => r.gamma),
      {
        dims: s.dims,
        tolerance: 0.01,
        search: 'adversarial',
        onProgress: (p) => {
          done.push(p.done);
        },
      },
    );
    gpc.dispose();
    expect(rows.map((r) => r.gamma)).toEqual(s.rows.map((r) => r.gamma));
    expect(done.at(-1)).toBe(s.rows.length);
    s.rows.forEach((row, g) => {
      const cert = rows[g],
        label = `gamma ${row.gamma}`;
      expect(cert.root.probability.lower, label).toBeGreaterThanOrEqual(row.root_prob_lower - MODEL_SLACK);
      expect(cert.root.probability.upper, label).toBeLessThanOrEqual(row.root_prob_upper + MODEL_SLACK);
      // pi(x*) < 1/2: the adversarial side is the maximum; the other stops at the root box.
      expect(cert.maximum.status, label).toBe('converged');
      expect(cert.maximum.upper - cert.maximum.lower, label).toBeLessThanOrEqual(0.01);
      expect(cert.maximum.lower, label).toBeLessThanOrEqual(row.prob_max + MODEL_SLACK);
      expect(cert.maximum.upper, label).toBeGreaterThanOrEqual(row.prob_max - MODEL_SLACK);
      expect(cert.minimum.iterations, label).toBe(0);
      expect(Math.abs(cert.gpfgs.probability - row.gpfgs_prob), label).toBeLessThan(1e-7);
    });
    expect(rows.at(-1)!.verdictCanFlip).toBe('yes');
    expect(rows.at(-1)!.gpfgs.probability).toBeLessThan(0.5);
    expect(rows[0].verdictCanFlip).toBe('no');
  });
});

describe('the same certificate as the native CLI', () => {
  it('gpprobe robustness on the same data, model and box', () => {
    const c = golden.cases.find((x) => x.name === 'xor-2d')!;
    const b = c.robustness.find((x) => x.model === 'ep_probit') ?? c.robustness[0];
    const dir = mkdtempSync(join(tmpdir(), 'gpprobe-robustness-'));
    const train = join(dir, 'train.csv');
    writeFileSync(train, c.X_train.map((x, i) => `${x.map(String).join(',')},${c.y_train[i]}`).join('\n') + '\n');
    const { method, likelihood } = MODELS[b.model];
    const native = JSON.parse(
      execFileSync(
        'build/native/gpprobe',
        [
          'robustness',
          '--train',
          train,
          '--method',
          method,
          '--likelihood',
          likelihood,
          '--signal-variance',
          String(c.kernel.signal_variance),
          '--length-scales',
          c.kernel.lengthscales.map(String).join(','),
          '--point',
          b.x_star.map(String).join(','),
          '--gamma',
          String(b.gamma),
          '--dims',
          b.dims.join(','),
          '--tolerance',
          '0.001',
        ],
        { encoding: 'utf8' },
      ),
    ) as {
      probability_at_point: number;
      root: Record<'mean' | 'variance' | 'probability', [number, number]>;
      minimum: { lower: number; upper: number; iterations: number; witness: number[] };
      maximum: { lower: number; upper: number; iterations: number };
      gpfgs: { probability: number };
      verdict_can_flip: string;
    };
    const gpc = fit(c, b.model);
    const cert = gpc.certifyRobustness(b.x_star, { gamma: b.gamma, dims: b.dims, tolerance: 0.001 });
    gpc.dispose();
    const near = (a: number, e: number, what: string) =>
      expect(Math.abs(a - e), `${what}: ${a} vs ${e}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(e)));
    near(cert.probabilityAtPoint, native.probability_at_point, 'probability_at_point');
    for (const q of ['mean', 'variance', 'probability'] as const) {
      near(cert.root[q].lower, native.root[q][0], `root ${q} lower`);
      near(cert.root[q].upper, native.root[q][1], `root ${q} upper`);
    }
    for (const side of ['minimum', 'maximum'] as const) {
      near(cert[side].lower, native[side].lower, `${side} lower`);
      near(cert[side].upper, native[side].upper, `${side} upper`);
      expect(cert[side].iterations, side).toBe(native[side].iterations);
    }
    near(cert.gpfgs.probability, native.gpfgs.probability, 'GPFGS');
    expect(cert.verdictCanFlip).toBe(native.verdict_can_flip);
  });
});

describe('progress, live intervals and cancel', () => {
  const c = () => golden.cases.find((x) => x.robustness_sweep)!;

  it("reports the searched extreme's interval after each split, tightening to the result", () => {
    const s = c().robustness_sweep!;
    const gpc = fit(c(), 'laplace_probit');
    const details: IntervalDetail[] = [];
    const cert = gpc.certifyRobustness(s.x_star, {
      gamma: 1.4,
      dims: s.dims,
      tolerance: 0.01,
      search: 'adversarial',
      onProgress: (p) => {
        if (p.detail?.kind === 'interval') details.push(p.detail);
      },
    });
    gpc.dispose();
    expect(cert.maximum.iterations).toBeGreaterThan(5);
    expect(details.length).toBe(cert.maximum.iterations);
    details.forEach((d, k) => {
      expect(d.extremum).toBe('maximum');
      expect(d.iterations).toBe(k + 1);
      expect(d.lower).toBeLessThanOrEqual(d.upper);
      if (k > 0) {
        expect(d.lower).toBeGreaterThanOrEqual(details[k - 1].lower); // the best value found only rises
        expect(d.upper).toBeLessThanOrEqual(details[k - 1].upper); // the certified bound only falls
      }
    });
    expect([details.at(-1)!.lower, details.at(-1)!.upper]).toEqual([cert.maximum.lower, cert.maximum.upper]);
  });

  it('cancel by the listener or the signal stops with status "cancelled" and a valid interval', () => {
    const s = c().robustness_sweep!,
      row = s.rows.at(-1)!;
    const gpc = fit(c(), 'laplace_probit');
    const cert = gpc.certifyRobustness(s.x_star, {
      gamma: row.gamma,
      dims: s.dims,
      tolerance: 0.01,
      onProgress: (p) => p.done < 3,
    });
    expect(cert.minimum.status).toBe('cancelled');
    expect(cert.maximum.status).toBe('cancelled');
    expect(cert.minimum.iterations + cert.maximum.iterations).toBe(3);
    expect(cert.maximum.lower).toBeLessThanOrEqual(row.prob_max + MODEL_SLACK);
    expect(cert.maximum.upper).toBeGreaterThanOrEqual(row.prob_max - MODEL_SLACK);
    const controller = new AbortController();
    controller.abort();
    const stopped = gpc.certifyRobustness(s.x_star, { gamma: row.gamma, dims: s.dims, signal: controller.signal });
    // The adversarial search runs first (one clock for the request: it may use all of the time limit).
    const first = stopped.probabilityAtPoint > 0.5 ? stopped.minimum : stopped.maximum;
    expect(first.status).toBe('cancelled');
    expect(first.iterations).toBe(1);
    expectError(
      () => gpc.robustnessSweep(s.x_star, [0.5, 1], { dims: s.dims, signal: controller.signal }),
      'cancelled',
      'the sweep was cancelled after 1 gamma of 2',
    );
    gpc.dispose();
  });
});

describe('bad inputs', () => {
  it('name the input and the problem, and never break the module', () => {
    const c = golden.cases.find((x) => x.name === 'xor-2d')!;
    const gpc = fit(c, 'laplace_probit');
    const x = c.robustness[0].x_star;
    expectError(
      () => gpc.certifyRobustness(x, { gamma: -1 }),
      'invalid_argument',
      'gamma must be a finite number >= 0, got -1',
    );
    expectError(
      () => gpc.certifyRobustness(x, { gamma: 0.1, dims: [2] }),
      'invalid_argument',
      'coordinate 2 is out of range: the point has 2 coordinates (0 to 1)',
    );
    expectError(
      () => gpc.certifyRobustness(x, { gamma: 0.1, dims: [0, 0] }),
      'invalid_argument',
      'coordinate 0 is listed twice',
    );
    expectError(
      () => gpc.certifyRobustness(x, { gamma: 0.1, dims: [0.5] }),
      'invalid_argument',
      'each of dims must be a whole number from 0 to 4294967295, got 0.5',
    );
    // 2^32 would wrap to coordinate 0 in the 32-bit size_t of the module.
    expectError(
      () => gpc.certifyRobustness(x, { gamma: 0.1, dims: [2 ** 32] }),
      'invalid_argument',
      'each of dims must be a whole number from 0 to 4294967295, got 4294967296',
    );
    expectError(
      () => gpc.certifyRobustness([0], { gamma: 0.1 }),
      'dimension_mismatch',
      'the point has 1 coordinate, the training inputs have 2 columns',
    );
    expectError(() => gpc.certifyRobustness([NaN, 0], { gamma: 0.1 }), 'non_finite', 'the point entry 0 is NaN');
    expectError(
      () => gpc.certifyRobustness(x, { gamma: 0.1, validRange: [1, 0] }),
      'invalid_argument',
      'the valid range [1, 0] is empty or not finite',
    );
    expectError(
      () => gpc.certifyRobustness(x, { gamma: 0.1, tolerance: -1 }),
      'invalid_argument',
      'tolerance must be a finite number >= 0, got -1',
    );
    expectError(
      () => gpc.certifyRobustness(x, { gamma: 0.1, search: 'min' as 'both' }),
      'invalid_argument',
      "search must be both or adversarial, got 'min'",
    );
    expectError(
      () => gpc.certifyRobustness(x, { gamma: 0.1, variance: 'exact' as 'both' }),
      'invalid_argument',
      "variance must be both, centred or relaxation, got 'exact'",
    );
    expectError(
      () => gpc.certifyRobustness(x, { gamma: 0.1, maxIterations: 1.5 }),
      'invalid_argument',
      'maxIterations must be a whole number from 0 to 4294967295, got 1.5',
    );
    const ok = gpc.certifyRobustness(x, { gamma: 0.1 });
    expect(ok.minimum.status).toBe('converged');
    gpc.dispose();
    expectError(() => gpc.certifyRobustness(x, { gamma: 0.1 }), 'disposed', 'this classifier was disposed');
  });
});
