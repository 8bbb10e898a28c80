// GP classification through the wasm module and the public TS API, in Node: every case of
// tests/reference/gpc_golden.json to the tolerances (compared as the file says: |a − b| ≤
// tol · max(1, |b|)), learning hyperparameters with progress and cancel, one class only, the bundled
// examples, the benchmark's data against the native CLI, and every bad input's error.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createClassificationEngine,
  GpprobeError,
  type ClassificationEngine,
  type ClassificationLikelihood,
  type ClassificationMethod,
  type Matrix,
} from '../../web/src/engine/index.ts';
import { expectError } from './expect_error.ts';

interface Block {
  log_marginal_likelihood: number;
  lml_gradient: number[];
  latent_mean: number[];
  latent_variance: number[];
  prob: number[];
}
interface GoldenCase {
  name: string;
  X_train: number[][];
  y_train: number[];
  kernel: { signal_variance: number; lengthscales: number[] };
  X_test: number[][];
  laplace_probit?: Block;
  laplace_logistic?: Block;
  ep_probit?: Block;
}

const golden = JSON.parse(readFileSync(new URL('../reference/gpc_golden.json', import.meta.url), 'utf8')) as {
  cases: GoldenCase[];
};
const matrix = (rows: number[][]): Matrix => ({
  data: Float64Array.from(rows.flat()),
  rows: rows.length,
  cols: rows[0].length,
});

let engine: ClassificationEngine;
beforeAll(async () => {
  engine = await createClassificationEngine();
});

function expectNear(actual: ArrayLike<number>, expected: number[], tol: number, what: string): number {
  expect(actual.length, what).toBe(expected.length);
  let worst = 0;
  for (let i = 0; i < expected.length; i++) {
    const error = Math.abs(actual[i] - expected[i]) / Math.max(1, Math.abs(expected[i]));
    expect(error, `${what}[${i}] = ${actual[i]}, expected ${expected[i]}`).toBeLessThanOrEqual(tol);
    worst = Math.max(worst, error);
  }
  return worst;
}

const BLOCKS: {
  key: 'laplace_probit' | 'laplace_logistic' | 'ep_probit';
  method: ClassificationMethod;
  likelihood: ClassificationLikelihood;
  predictions: number;
  probability: number;
  lml: number;
  gradient: number;
}[] = [
  {
    key: 'laplace_probit',
    method: 'laplace',
    likelihood: 'probit',
    predictions: 1e-8,
    probability: 1e-8,
    lml: 1e-9,
    gradient: 1e-7,
  },
  {
    key: 'laplace_logistic',
    method: 'laplace',
    likelihood: 'logistic',
    predictions: 1e-8,
    probability: 1e-9,
    lml: 1e-9,
    gradient: 1e-7,
  },
  {
    key: 'ep_probit',
    method: 'ep',
    likelihood: 'probit',
    predictions: 1e-7,
    probability: 1e-7,
    lml: 1e-7,
    gradient: 1e-5,
  },
];

describe('the golden reference through the library', () => {
  for (const b of BLOCKS) {
    it(`reproduces every ${b.key} case`, () => {
      let cases = 0,
        worst = 0;
      for (const c of golden.cases) {
        const e = c[b.key];
        if (!e) continue;
        cases += 1;
        const gpc = engine.fitClassifier({
          inputs: matrix(c.X_train),
          labels: Float64Array.from(c.y_train),
          method: b.method,
          likelihood: b.likelihood,
          kernel: { signalVariance: c.kernel.signal_variance, lengthScales: c.kernel.lengthscales },
        });
        try {
          const s = gpc.state;
          const name = `${c.name} ${b.key}`;
          expect([s.method, s.likelihood, s.size, s.dimension]).toEqual([
            b.method,
            b.likelihood,
            c.X_train.length,
            c.X_train[0].length,
          ]);
          worst = Math.max(
            worst,
            expectNear([s.logMarginalLikelihood], [e.log_marginal_likelihood], b.lml, `${name} LML`),
          );
          expectNear(s.gradient, e.lml_gradient, b.gradient, `${name} gradient`);
          const p = gpc.predict(matrix(c.X_test));
          expectNear(p.latentMean, e.latent_mean, b.predictions, `${name} latent mean`);
          expectNear(p.latentVariance, e.latent_variance, b.predictions, `${name} latent variance`);
          expectNear(p.probability, e.prob, b.probability, `${name} probability`);
          expect(p.clampedVariances).toBe(0);
        } finally {
          gpc.dispose();
        }
      }
      expect(cases).toBe(b.key === 'laplace_probit' ? golden.cases.length : 4);
      console.info(`${b.key}: worst relative LML error ${worst.toExponential(1)}`);
    });
  }
});

describe("MacKay's approximation", () => {
  it("is the golden file's prob_mackay at every logistic case's latent values", () => {
    for (const c of golden.cases) {
      const e = c.laplace_logistic as (Block & { prob_mackay: number[] }) | undefined;
      if (!e) continue;
      const p = engine.mackayApproximation(Float64Array.from(e.latent_mean), Float64Array.from(e.latent_variance));
      expectNear(p, e.prob_mackay, 1e-12, `${c.name} MacKay`);
      // An approximation: it differs from the exact E[sigmoid f] where the variance is large.
      expect(Math.max(...e.prob.map((v, i) => Math.abs(v - p[i])))).toBeLessThan(1.6e-2);
    }
    expectError(
      () => engine.mackayApproximation(new Float64Array(2), new Float64Array(3)),
      'dimension_mismatch',
      'latentVariance has 3 values, latentMean has 2',
    );
  });
});

describe('hyperparameters', () => {
  const xor = golden.cases.find((c) => c.name === 'xor-2d')!;
  const base = { inputs: matrix(xor.X_train), labels: Float64Array.from(xor.y_train) };

  it('are learned with progress in one shape, never below the start, at a stationary point', () => {
    for (const method of ['laplace', 'ep'] as const) {
      const seen: { stage: string; done: number; total: number }[] = [];
      const gpc = engine.optimizeClassifier({
        ...base,
        method,
        restarts: 1,
        seed: 3,
        onProgress: (p) => {
          seen.push(p);
        },
      });
      const s = gpc.state;
      gpc.dispose();
      expect(seen.length).toBeGreaterThan(2);
      expect(seen.every((p) => p.stage === 'L-BFGS iterations' && p.total === 2 * 200 && p.done <= p.total)).toBe(true);
      const o = s.optimization!;
      expect(o.runValues).toHaveLength(2);
      expect(s.logMarginalLikelihood).toBe(Math.max(...o.runValues));
      expect(s.logMarginalLikelihood).toBeGreaterThan(o.startLogMarginalLikelihood);
      expect(o.converged).toBe(true);
      for (const g of s.gradient) expect(Math.abs(g)).toBeLessThan(1e-4);
      expect(s.lengthScales).toHaveLength(2);
    }
  });

  it('share one length-scale when asked: equal values, stationary along the shared direction', () => {
    const gpc = engine.optimizeClassifier({
      ...base,
      method: 'laplace',
      sharedLengthScale: true,
      kernel: { signalVariance: 1, lengthScales: [0.7] },
    });
    const s = gpc.state;
    gpc.dispose();
    expect(s.lengthScales[0]).toBe(s.lengthScales[1]);
    expect(Math.abs(s.gradient[0])).toBeLessThan(1e-4);
    expect(Math.abs(s.gradient[1] + s.gradient[2])).toBeLessThan(1e-4);
  });

  it('cancel: a listener returning false, or an aborted signal, stops with code "cancelled"', () => {
    expectError(
      () => engine.optimizeClassifier({ ...base, method: 'ep', onProgress: (p) => p.done < 2 }),
      'cancelled',
      'hyperparameter fit cancelled in run 1 of 1',
    );
    const controller = new AbortController();
    controller.abort();
    expect(() => engine.optimizeClassifier({ ...base, signal: controller.signal })).toThrow(GpprobeError);
  });
});

describe('the model', () => {
  it('with one class only is a valid posterior: it leans to that class near the data and to 1/2 far away', () => {
    const gpc = engine.fitClassifier({
      inputs: { data: Float64Array.of(0, 1, 2), rows: 3, cols: 1 },
      labels: Uint8Array.of(1, 1, 1),
    });
    const p = gpc.predict({ data: Float64Array.of(1, 1e3), rows: 2, cols: 1 });
    gpc.dispose();
    expect(p.probability[0]).toBeGreaterThan(0.6);
    expect(p.probability[1]).toBe(0.5); // mu = 0, Sigma = s2: Phi(0) exactly
    expect(p.latentVariance[1]).toBe(1);
  });

  it('bundled examples come from the core, seeded', () => {
    const a = engine.example('xor', 2),
      b = engine.example('xor', 2);
    expect(a.x).toEqual(b.x);
    expect(a.x.cols).toBe(2);
    expect(a.inputNames).toEqual(['x1', 'x2']);
    for (let i = 0; i < a.x.rows; i++) expect(a.labels[i]).toBe(a.x.data[2 * i] * a.x.data[2 * i + 1] > 0 ? 1 : 0);
    expect(engine.vocabulary().examples.map((e) => e.name)).toEqual(['two-blobs', 'xor', 'moons', 'synthetic2d']);
    expectError(
      () => engine.example('spirals'),
      'invalid_argument',
      "example must be two-blobs, xor, moons or synthetic2d, got 'spirals'",
    );
  });

  it("the benchmark's data give the native CLI's log marginal likelihoods", () => {
    const rows = JSON.parse(
      execFileSync(
        'build/native/gpprobe',
        ['bench-gpc', '--n', '60', '--dimensions', '3', '--test', '5', '--seed', '9', '--json'],
        { encoding: 'utf8' },
      ),
    ) as { approximation: string; log_marginal_likelihood: number }[];
    const { inputs, labels } = engine.syntheticClassification(60, 3, 9);
    for (const row of rows) {
      const [method, likelihood] = row.approximation.split('-') as [ClassificationMethod, ClassificationLikelihood];
      const gpc = engine.fitClassifier({
        inputs,
        labels,
        method,
        likelihood,
        kernel: { signalVariance: 2, lengthScales: [Math.sqrt(1.5)] },
      });
      expectNear([gpc.state.logMarginalLikelihood], [row.log_marginal_likelihood], 1e-10, row.approximation);
      gpc.dispose();
    }
  });
});

describe('bad inputs', () => {
  const x = { data: Float64Array.of(0, 0, 1, 1, 2, 0), rows: 3, cols: 2 };
  const labels = Float64Array.of(0, 1, 1);

  it('name the input and the problem, and never break the module', () => {
    expectError(
      () => engine.fitClassifier({ inputs: x, labels: Float64Array.of(0, 2, 1) }),
      'invalid_argument',
      'training label 1 is 2; labels must be 0/1 or -1/+1',
    );
    expectError(
      () => engine.fitClassifier({ inputs: x, labels: Float64Array.of(0, -1, 1) }),
      'invalid_argument',
      'training labels mix the 0/1 and -1/+1 conventions (label 0 is 0, label 1 is -1)',
    );
    expectError(
      () => engine.fitClassifier({ inputs: { ...x, data: Float64Array.of(0, 0, 1, NaN, 2, 0) }, labels }),
      'non_finite',
      'training inputs row 1, column 1 is NaN',
    );
    expectError(
      () => engine.fitClassifier({ inputs: x, labels: Float64Array.of(0, 1) }),
      'dimension_mismatch',
      'training labels have 2 values, training inputs have 3 rows',
    );
    expectError(
      () => engine.fitClassifier({ inputs: x, labels, method: 'ep', likelihood: 'logistic' }),
      'invalid_argument',
      'EP is available with the probit likelihood only (its site moments are closed-form); use the Laplace method for the logistic likelihood',
    );
    expectError(
      () => engine.fitClassifier({ inputs: x, labels, kernel: { signalVariance: 1, lengthScales: [1, 0] } }),
      'invalid_argument',
      'length-scale 2 must be a finite number > 0, got 0',
    );
    expectError(
      () => engine.fitClassifier({ inputs: x, labels, kernel: { signalVariance: -1, lengthScales: [1] } }),
      'invalid_argument',
      'signal variance must be a finite number > 0, got -1',
    );
    expectError(
      () => engine.fitClassifier({ inputs: x, labels, kernel: { signalVariance: 1, lengthScales: [1, 2, 3] } }),
      'dimension_mismatch',
      '3 length-scales for 2 input columns',
    );
    expectError(
      () => engine.fitClassifier({ inputs: x, labels, method: 'vb' as ClassificationMethod }),
      'invalid_argument',
      "method must be laplace or ep, got 'vb'",
    );
    expectError(
      () => engine.fitClassifier({ inputs: x, labels: [0, 1, 1] as unknown as Float64Array }),
      'invalid_argument',
      'labels must be a Uint8Array, Int8Array, Int32Array or Float64Array',
    );
    const gpc = engine.fitClassifier({ inputs: x, labels });
    expectError(
      () => gpc.predict({ data: new Float64Array(3), rows: 1, cols: 3 }),
      'dimension_mismatch',
      'test inputs have 3 columns, training inputs have 2 columns',
    );
    expectError(
      () => gpc.predict({ data: Float64Array.of(Infinity, 0), rows: 1, cols: 2 }),
      'non_finite',
      'test inputs row 0, column 0 is +Inf',
    );
    gpc.dispose();
    expectError(() => gpc.predict(x), 'disposed', 'this classifier was disposed');
    expectError(
      () => engine.optimizeClassifier({ inputs: x, labels, restarts: -1 }),
      'invalid_argument',
      'restarts must be a non-negative integer, got -1',
    );
    // The module is still whole: a good fit after all of them.
    const ok = engine.fitClassifier({ inputs: x, labels });
    expect(Number.isFinite(ok.state.logMarginalLikelihood)).toBe(true);
    ok.dispose();
  });
});
