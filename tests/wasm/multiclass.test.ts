// Multi-class (softmax) GP classification through the wasm module and the public TS API, in Node: every
// case of tests/reference/gpc_multiclass_golden.json to the tolerances (|a − b| ≤ tol · max(1, |b|):
// latent mean and covariance 1e-8, probabilities and LML 1e-9, gradient 1e-7), hyperparameter learning
// against the reference's LML, a certificate whose bounds hold 10,000 sampled points of its box with
// witnesses that predict confirms to 1e-12, cancelling, and the errors of bad labels and kernels.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClassificationEngine, type ClassificationEngine, type Matrix } from '../../web/src/engine/index.ts';
import { expectError } from './expect_error.ts';

interface GoldenCase {
  name: string;
  C: number;
  n: number;
  d: number;
  X_train: number[][];
  y: number[];
  shared_kernel: boolean;
  kernels: { signal_variance: number; lengthscales: number[] }[];
  newton_iterations: number;
  log_marginal_likelihood: number;
  lml_gradient: number[][];
  X_test: number[][];
  latent_mean: number[][];
  latent_cov: number[][][];
  prob: number[][];
}

const golden = JSON.parse(
  readFileSync(new URL('../reference/gpc_multiclass_golden.json', import.meta.url), 'utf8'),
) as { cases: GoldenCase[] };
const matrix = (rows: number[][]): Matrix => ({
  data: Float64Array.from(rows.flat()),
  rows: rows.length,
  cols: rows[0].length,
});

let engine: ClassificationEngine;
beforeAll(async () => {
  engine = await createClassificationEngine();
});

function expectNear(actual: ArrayLike<number>, expected: number[], tol: number, what: string): void {
  expect(actual.length, what).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    const error = Math.abs(actual[i] - expected[i]) / Math.max(1, Math.abs(expected[i]));
    expect(error, `${what}[${i}] = ${actual[i]}, expected ${expected[i]}`).toBeLessThanOrEqual(tol);
  }
}

function fit(c: GoldenCase) {
  const kernels = c.kernels.map((k) => ({ signalVariance: k.signal_variance, lengthScales: k.lengthscales }));
  return engine.fitClassifier({
    inputs: matrix(c.X_train),
    labels: Float64Array.from(c.y),
    likelihood: 'softmax',
    ...(c.shared_kernel ? { kernel: kernels[0] } : { kernels }),
  });
}

describe('the multi-class golden reference through the library', () => {
  it('has six cases', () => expect(golden.cases.length).toBe(6));
  for (const c of golden.cases) {
    it(`reproduces ${c.name}`, () => {
      const gpc = fit(c);
      try {
        const s = gpc.state;
        expect(s.classes).toBe(c.C);
        expect(s.sharedKernel).toBe(c.shared_kernel);
        expect(s.size).toBe(c.n);
        expect(s.dimension).toBe(c.d);
        expect(s.iterations).toBe(c.newton_iterations);
        expectNear([s.logMarginalLikelihood], [c.log_marginal_likelihood], 1e-9, 'log marginal likelihood');
        expect(s.gradient.length).toBe(c.C);
        s.gradient.forEach((g, k) => expectNear(g, c.lml_gradient[k], 1e-7, `gradient of class ${k}`));
        s.kernels.forEach((k, i) => {
          expect(k.signalVariance).toBe(c.kernels[i].signal_variance);
          expectNear(k.lengthScales, c.kernels[i].lengthscales, 0, `length-scales of class ${i}`);
        });
        const counts = new Array<number>(c.C).fill(0);
        for (const y of c.y) counts[y]++;
        expect([...s.classCounts]).toEqual(counts);

        const p = gpc.predict(matrix(c.X_test));
        expect(p.rows).toBe(c.X_test.length);
        expect(p.classes).toBe(c.C);
        expect(p.unconverged).toBe(0);
        expectNear(p.latentMean, c.latent_mean.flat(), 1e-8, 'latent mean');
        expectNear(p.latentCovariance, c.latent_cov.flat(2), 1e-8, 'latent covariance');
        expectNear(p.probability, c.prob.flat(), 1e-9, 'probability');
      } finally {
        gpc.dispose();
      }
    });
  }
});

describe('learning the hyperparameters', () => {
  it('raises the log marginal likelihood from the reference kernels, tied or per class', () => {
    for (const c of golden.cases.slice(0, 2)) {
      const kernels = c.kernels.map((k) => ({ signalVariance: k.signal_variance, lengthScales: k.lengthscales }));
      let reports = 0;
      const gpc = engine.optimizeClassifier({
        inputs: matrix(c.X_train),
        labels: Float64Array.from(c.y),
        likelihood: 'softmax',
        ...(c.shared_kernel ? { kernel: kernels[0] } : { kernels }),
        onProgress: () => {
          reports++;
          return true;
        },
      });
      try {
        const s = gpc.state;
        expect(s.optimization).not.toBeNull();
        expectNear([s.optimization!.startLogMarginalLikelihood], [c.log_marginal_likelihood], 1e-9, `${c.name} start`);
        expect(s.logMarginalLikelihood).toBeGreaterThan(c.log_marginal_likelihood + 1e-3);
        expect(s.sharedKernel).toBe(c.shared_kernel);
        expect(reports).toBeGreaterThan(0);
      } finally {
        gpc.dispose();
      }
    }
  });
});

// A seeded uniform generator (mulberry32), for reproducible samples of a box.
function uniform(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const margin = (p: ArrayLike<number>, predicted: number): number =>
  p[predicted] - Math.max(...Array.from(p).filter((_, c) => c !== predicted));

describe('certified robustness of a class and of the prediction', () => {
  it('bounds hold 10,000 sampled points of the box and the witnesses attain the stated ends', () => {
    const c = golden.cases[0];
    const gpc = fit(c);
    try {
      const x = c.X_test[0],
        gamma = 0.3,
        C = c.C,
        d = c.d;
      const cert = gpc.certifyRobustness(x, { gamma });
      expect(cert.classes).toBe(C);
      expectNear(cert.probabilityAtPoint, c.prob[0], 1e-9, 'probability at the point');
      const predicted = c.prob[0].indexOf(Math.max(...c.prob[0]));
      expect(cert.classIndex).toBe(predicted);
      expect(cert.safety.predictedClass).toBe(predicted);
      expectNear(
        cert.box.lower,
        x.map((v) => v - gamma),
        0,
        'box lower',
      );
      expectNear(
        cert.box.upper,
        x.map((v) => v + gamma),
        0,
        'box upper',
      );
      for (const e of [cert.minimum, cert.maximum]) {
        expect(e.status).toBe('converged');
        expect(e.upper - e.lower).toBeLessThanOrEqual(0.02);
      }
      const { marginLower, marginUpper, status } = cert.safety;
      expect(status).toBe(marginLower > 0 ? 'certified' : marginUpper < 0 ? 'refuted' : 'unknown');

      const witnesses = gpc.predict(
        matrix([Array.from(cert.minimum.witness), Array.from(cert.maximum.witness), Array.from(cert.safety.witness)]),
      );
      expect(Math.abs(witnesses.probability[0 * C + predicted] - cert.minimum.upper)).toBeLessThanOrEqual(1e-12);
      expect(Math.abs(witnesses.probability[1 * C + predicted] - cert.maximum.lower)).toBeLessThanOrEqual(1e-12);
      expect(
        Math.abs(margin(witnesses.probability.subarray(2 * C, 3 * C), predicted) - marginUpper),
      ).toBeLessThanOrEqual(1e-12);
      expectNear(
        cert.safety.witnessProbabilities,
        Array.from(witnesses.probability.subarray(2 * C, 3 * C)),
        1e-12,
        'witness probabilities',
      );

      const random = uniform(25);
      const m = 10000;
      const points = new Float64Array(m * d);
      for (let i = 0; i < m; i++) for (let j = 0; j < d; j++) points[i * d + j] = x[j] - gamma + 2 * gamma * random();
      const sampled = gpc.predict({ data: points, rows: m, cols: d });
      let smallest = 1,
        largest = 0,
        smallestMargin = 1;
      for (let i = 0; i < m; i++) {
        const p = sampled.probability.subarray(i * C, (i + 1) * C);
        smallest = Math.min(smallest, p[predicted]);
        largest = Math.max(largest, p[predicted]);
        smallestMargin = Math.min(smallestMargin, margin(p, predicted));
      }
      expect(cert.minimum.lower).toBeLessThanOrEqual(smallest);
      expect(cert.maximum.upper).toBeGreaterThanOrEqual(largest);
      expect(marginLower).toBeLessThanOrEqual(smallestMargin);
      // The attained ends are values of pi, so no sample lies beyond them by more than the tolerance.
      expect(cert.minimum.upper - smallest).toBeLessThanOrEqual(0.02);
      expect(largest - cert.maximum.lower).toBeLessThanOrEqual(0.02);
    } finally {
      gpc.dispose();
    }
  });

  it('certifies the class asked for, and stops when progress says so', () => {
    // A cancel while the class probabilities at the point (the certificate's reference values) are computed
    // refuses the certificate; a cancel during the searches (progress with the searches' total) returns what
    // they proved so far, each search marked cancelled.
    const c = golden.cases[2]; // four quadrants
    const gpc = fit(c);
    try {
      const cert = gpc.certifyRobustness(c.X_test[1], { gamma: 0.25, classIndex: 3 });
      expect(cert.classIndex).toBe(3);
      expect(cert.minimum.upper).toBeLessThanOrEqual(c.prob[1][3] + 1e-12);
      expect(cert.maximum.lower).toBeGreaterThanOrEqual(c.prob[1][3] - 1e-12);
      expectError(
        () => gpc.certifyRobustness(c.X_test[1], { gamma: 0.25, classIndex: 3, onProgress: () => false }),
        'cancelled',
        'the certification was cancelled while the class probabilities at the point were computed',
      );
      const stopped = gpc.certifyRobustness(c.X_test[1], {
        gamma: 0.25,
        classIndex: 3,
        tolerance: 0,
        onProgress: (p) => p.total === 0,
      });
      expect(stopped.minimum.status).toBe('cancelled');
      expect(stopped.maximum.status).toBe('cancelled');
      expect(stopped.safety.stop).toBe('cancelled');
      expect(stopped.minimum.lower).toBeLessThanOrEqual(cert.minimum.upper);
      expect(stopped.maximum.upper).toBeGreaterThanOrEqual(cert.maximum.lower);
      expectError(
        () => gpc.certifyRobustness(c.X_test[1], { gamma: 0.25, classIndex: 4 }),
        'invalid_argument',
        'classIndex is 4; the model has 4 classes',
      );
    } finally {
      gpc.dispose();
    }
  });
});

describe('bad inputs', () => {
  const inputs = matrix([
    [0, 0],
    [1, 1],
    [2, 2],
  ]);
  it('names the label, the class count and the kernel lists', () => {
    expectError(
      () => engine.fitClassifier({ inputs, labels: Float64Array.from([0, 1.5, 2]), likelihood: 'softmax' }),
      'invalid_argument',
      'training label 1 is 1.5; labels must be integers 0 to 2 (3 classes)',
    );
    expectError(
      () => engine.fitClassifier({ inputs, labels: Float64Array.from([0, 0, 0]), likelihood: 'softmax' }),
      'invalid_argument',
      'the number of classes must be at least 2, got 1',
    );
    expectError(
      () =>
        engine.fitClassifier({
          inputs,
          labels: Float64Array.from([0, 1, 2]),
          likelihood: 'softmax',
          kernels: [
            { signalVariance: 1, lengthScales: [1] },
            { signalVariance: 1, lengthScales: [1] },
          ],
        }),
      'invalid_argument',
      'signalVariances has 2 values for 3 classes: give 1 or 3',
    );
    expectError(
      () =>
        engine.fitClassifier({
          inputs,
          labels: Float64Array.from([0, 1, 2]),
          likelihood: 'softmax',
          kernel: { signalVariance: 1, lengthScales: [1, 1, 1] },
        }),
      'dimension_mismatch',
      'kernel of class 0: 3 length-scales for 2 input columns',
    );
  });

  it('allows a class without an example: it is never the most probable at the data', () => {
    const gpc = engine.fitClassifier({ inputs, labels: Float64Array.from([0, 2, 2]), likelihood: 'softmax' });
    try {
      expect([...gpc.state.classCounts]).toEqual([1, 0, 2]);
      const p = gpc.predict(inputs);
      for (let i = 0; i < 3; i++)
        expect(p.probability[i * 3 + 1]).toBeLessThan(Math.max(p.probability[i * 3], p.probability[i * 3 + 2]));
    } finally {
      gpc.dispose();
    }
  });
});
