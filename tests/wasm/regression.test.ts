// GP regression through the wasm module and the TS API: scikit-learn fixtures, the lecture's learned
// hyperparameters, progress and cancel, knowledge, samples, anomalies, examples and every bad input.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createRegressionEngine,
  GpprobeError,
  type Matrix,
  type RegressionEngine,
} from '../../web/src/engine/index.ts';

let engine: RegressionEngine;
beforeAll(async () => {
  engine = await createRegressionEngine();
});

interface KernelJson {
  type: string;
  value?: number;
  length_scale?: number | number[];
  periodicity?: number;
  offset?: number;
  left?: KernelJson;
  right?: KernelJson;
}
interface Case {
  name: string;
  kernel: KernelJson;
  noise_variance: number;
  mean: number;
  x: number[][];
  y: number[];
  test: number[][];
  log_marginal_likelihood: number;
  predicted_mean: number[];
  predicted_observation_std: number[];
}

const fixture = (file: string): Case[] =>
  JSON.parse(readFileSync(new URL(`../reference/regression/${file}`, import.meta.url), 'utf8')).cases;

/** The fixture's kernel as a kernel expression. */
function expression(k: KernelJson): string {
  const list = (v: number | number[] | undefined): string => [v ?? []].flat().join(', ');
  switch (k.type) {
    case 'sum':
      return `(${expression(k.left!)} + ${expression(k.right!)})`;
    case 'product':
      return `${expression(k.left!)} * ${expression(k.right!)}`;
    case 'constant':
      return `constant(${k.value})`;
    case 'periodic':
      return `periodic(${k.length_scale}, ${k.periodicity})`;
    case 'linear':
      return `linear(${k.offset})`;
    case 'cosine':
      return 'cosine()';
    default:
      return `${k.type}(${list(k.length_scale)})`;
  }
}

const matrix = (rows: number[][]): Matrix => ({
  data: Float64Array.from(rows.flat()),
  rows: rows.length,
  cols: rows[0].length,
});
const column = (values: number[] | Float64Array): Matrix => ({
  data: Float64Array.from(values),
  rows: values.length,
  cols: 1,
});

function expectError(run: () => unknown, code: string, message: string): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(GpprobeError);
  expect((caught as GpprobeError).code).toBe(code);
  expect((caught as GpprobeError).message).toBe(message);
}

describe('regression against scikit-learn', () => {
  it('matches the log marginal likelihood and predictions of every kernel', () => {
    for (const c of fixture('likelihood.json')) {
      const gp = engine.fit({
        x: matrix(c.x),
        y: Float64Array.from(c.y),
        kernel: expression(c.kernel),
        noiseVariance: c.noise_variance,
        mean: c.mean,
      });
      expect(gp.state.logMarginalLikelihood, c.name).toBeCloseTo(c.log_marginal_likelihood, 6);
      const p = gp.predict(matrix(c.test));
      c.predicted_mean.forEach((m, i) => expect(p.mean[i]).toBeCloseTo(m, 8));
      c.predicted_observation_std.forEach((s, i) => expect(Math.sqrt(p.observationVariance[i])).toBeCloseTo(s, 8));
      gp.dispose();
    }
  });

  it('learns the lecture hyperparameters with progress, and cancels', () => {
    const data = engine.example('lecture', 1);
    let reports = 0;
    const gp = engine.optimize({
      x: data.x,
      y: data.y,
      kernel: { name: 'rbf', parameters: { 'rbf.length_scale': Math.sqrt(0.4) } },
      noiseVariance: 0.25,
      mean: 0,
      fixed: ['constant.value'],
      onProgress: () => {
        reports += 1;
      },
    });
    const s = gp.state;
    expect(Object.keys(s.kernel.parameters)).toEqual(['constant.value', 'rbf.length_scale']);
    expect(s.kernel.parameters['constant.value']).toBe(1);
    expect(Math.abs(s.kernel.parameters['rbf.length_scale'] - 0.55)).toBeLessThan(0.08);
    expect(Math.abs(Math.sqrt(s.noiseVariance) - 0.25)).toBeLessThan(0.06);
    expect(reports).toBeGreaterThan(3);
    gp.dispose();
    expectError(
      () =>
        engine.optimize({
          x: data.x,
          y: data.y,
          kernel: { name: 'rbf' },
          noiseVariance: 0.1,
          restarts: 1,
          onProgress: ({ done }) => done < 2,
        }),
      'cancelled',
      'hyperparameter fit cancelled in run 1 of 2',
    );
    const controller = new AbortController();
    controller.abort();
    expectError(
      () =>
        engine.optimize({
          x: data.x,
          y: data.y,
          kernel: { name: 'rbf' },
          noiseVariance: 0.1,
          signal: controller.signal,
        }),
      'cancelled',
      'hyperparameter fit cancelled in run 1 of 1',
    );
  });
});

describe('predictions, knowledge and samples', () => {
  it('bounds knowledge in [0, 1], lowers it beyond the data and in gaps, keeps the bands distinct', () => {
    const data = engine.example('missing-segments', 2);
    const gp = engine.fit({ x: data.x, y: data.y, kernel: 'constant(1) * rbf(0.5)', noiseVariance: 0.01 });
    const grid = column([2, 4.25, 9.75, 15.5, 24]);
    const p = gp.predict(grid);
    for (const g of p.knowledge) {
      expect(g).toBeGreaterThanOrEqual(0);
      expect(g).toBeLessThanOrEqual(1);
    }
    expect(p.knowledge[0]).toBeGreaterThan(0.99);
    expect(p.knowledge[1]).toBeGreaterThan(p.knowledge[2]);
    expect(p.knowledge[2]).toBeGreaterThan(p.knowledge[3]);
    expect(p.knowledge[4]).toBeLessThan(0.01);
    for (let i = 0; i < 5; ++i) {
      expect(p.observationVariance[i] - p.latentVariance[i]).toBeCloseTo(0.01, 12);
      expect(p.observationUpper[i]).toBeGreaterThan(p.latentUpper[i]);
      expect(p.latentUpper[i] - p.mean[i]).toBeCloseTo(1.959963984540054 * Math.sqrt(p.latentVariance[i]), 12);
    }
    const samples = gp.sample(grid, 3, 7);
    expect(samples.rows).toBe(3);
    expect(samples.cols).toBe(5);
    expect(gp.sample(grid, 3, 7).data).toEqual(samples.data);
    expect(gp.sample(grid, 3, 8).data).not.toEqual(samples.data);
    const prior = engine.samplePrior({ name: 'matern32', parameters: { 'matern32.length_scale': 2 } }, grid, 4, 1);
    expect(prior.data.length).toBe(20);
    gp.dispose();
  });

  it('reports prediction progress per block of 256 and cancels', () => {
    const data = engine.example('lecture', 2);
    const gp = engine.fit({
      x: data.x,
      y: data.y,
      kernel: { name: 'rbf', parameters: { 'rbf.length_scale': 0.55 } },
      noiseVariance: 0.06,
    });
    const grid = column(Array.from({ length: 600 }, (_, i) => i / 100));
    const seen: number[] = [];
    gp.predict(grid, {
      onProgress: ({ done }) => {
        seen.push(done);
      },
    });
    expect(seen).toEqual([256, 512, 600]);
    expectError(
      () => gp.predict(grid, { onProgress: ({ done }) => done < 256 }),
      'cancelled',
      'prediction cancelled after 256 test points of 600',
    );
    gp.dispose();
    expectError(() => gp.predict(grid), 'disposed', 'this regression was disposed');
  });
});

describe('anomalies and examples', () => {
  it('classifies with the knowledge gate and computes ROC curves', () => {
    const prediction = {
      mean: Float64Array.from([1, 1, 1]),
      observationVariance: Float64Array.from([0.25, 0.25, 0.25]),
      knowledge: Float64Array.from([0.9, 0.9, 0.1]),
      latentVariance: new Float64Array(3),
      latentLower: new Float64Array(3),
      latentUpper: new Float64Array(3),
      observationLower: new Float64Array(3),
      observationUpper: new Float64Array(3),
    };
    const r = engine.classify(Float64Array.from([1.5, 3, 9]), prediction, { rho: 0.5 });
    expect(Array.from(r.statuses)).toEqual([0, 1, 2]);
    expect(r.scores[1]).toBeCloseTo(4, 15);
    const curves = engine.rocSweep(
      Float64Array.from([0.9, 0.8, 0.8, 0.3, 0.1]),
      Uint8Array.from([1, 0, 1, 0, 0]),
      null,
      [0],
    );
    expect(curves[0].auc).toBeCloseTo(5.5 / 6, 15);
    expect(Array.from(curves[0].truePositiveRate)).toEqual([0, 0.5, 1, 1, 1]);
    expectError(
      () => engine.classify(Float64Array.from([1, 2, 3]), prediction, { rho: 2 }),
      'invalid_argument',
      'rho must be in [0, 1], got 2',
    );
  });

  it('reproduces the Fig. 3 experiment with the same numbers as the native build', () => {
    const e = engine.anomalyExperiment({ seed: 5 });
    expect(e.testX.length).toBe(1000);
    expect(e.trainX.length).toBe(50);
    // tests/core/regression/anomaly_detection_test.cpp prints these for seed 5 natively.
    expect(e.ungated.auc).toBeCloseTo(0.844459, 5);
    expect(e.gated[2].auc).toBeCloseTo(0.917636, 5);
    for (const c of e.gated) expect(c.auc).toBeGreaterThan(e.ungated.auc);
  });

  it('generates the bundled examples', () => {
    const lecture = engine.example('lecture', 7);
    expect(lecture.x.rows).toBe(50);
    expect(lecture.x.data[49]).toBe(5);
    const truth = engine.exampleTruth('lecture', Float64Array.from([1]));
    expect(truth[0]).toBeCloseTo(Math.sin(1) + 0.5 * Math.sin(4), 15);
    const tail = engine.example('periodic-extrapolation', 1);
    expect(Math.max(...tail.x.data)).toBeLessThan(8);
    expect(tail.x.rows + tail.heldOutX.rows).toBe(150);
  });
});

describe('bad input becomes a GpprobeError naming the problem', () => {
  const x = column([0, 1, 2]);
  const y = Float64Array.from([0, 1, 0.5]);
  it('names every bad input', () => {
    expectError(
      () => engine.fit({ x, y: Float64Array.from([0, 1]), kernel: 'rbf(1)', noiseVariance: 0.1 }),
      'dimension_mismatch',
      'training targets have 2 values, training inputs have 3 rows',
    );
    expectError(
      () => engine.fit({ x, y: Float64Array.from([0, NaN, 1]), kernel: 'rbf(1)', noiseVariance: 0.1 }),
      'non_finite',
      'training target 1 is NaN',
    );
    expectError(
      () => engine.fit({ x, y, kernel: 'rbf(1', noiseVariance: 0.1 }),
      'invalid_argument',
      "kernel expression 'rbf(1' at character 6: expected ')'",
    );
    expectError(
      () => engine.fit({ x, y, kernel: { name: 'rbf', parameters: { 'rbf.length_scale': -1 } }, noiseVariance: 0.1 }),
      'invalid_argument',
      'rbf.length_scale must be a finite number > 0, got -1',
    );
    expectError(
      () => engine.fit({ x, y, kernel: 'rbf(1)', noiseVariance: -1 }),
      'invalid_argument',
      'noise variance must be a finite number >= 0, got -1',
    );
    expectError(
      () => engine.optimize({ x, y, kernel: 'rbf(1)', noiseVariance: 0.1, fixed: ['variance'] }),
      'invalid_argument',
      "the kernel has no parameter 'variance' (it has: rbf.length_scale)",
    );
    expectError(
      () => engine.example('sine' as 'lecture'),
      'invalid_argument',
      "example must be lecture, periodic-extrapolation or missing-segments, got 'sine'",
    );
    const gp = engine.fit({ x, y, kernel: 'rbf(1)', noiseVariance: 0.1 });
    expectError(
      () => gp.predict({ data: new Float64Array(2), rows: 1, cols: 2 }),
      'dimension_mismatch',
      'test inputs have 2 columns, training inputs have 1 column',
    );
    expectError(
      () => gp.sample(column(new Array(4001).fill(0)), 1),
      'invalid_argument',
      'joint samples factorise an m by m covariance: at most 4000 test points, got 4001',
    );
    gp.dispose();
  });
});
