// Baselines, metrics and experiments through the built wasm module and the public TS API, against the
// same scikit-learn / reference-run fixtures as the native tests (tests/reference/evaluation).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  accuracy,
  auprc,
  auroc,
  createProbeEngine,
  pearson,
  rocCurve,
  runBaseline,
  runExperiment,
  type ExperimentKind,
  type Matrix,
  type ProbeEngine,
} from '../../web/src/engine/index.ts';
import { expectError } from './expect_error.ts';

function fixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../reference/evaluation/${name}`, import.meta.url), 'utf8')) as T;
}

interface BaselineCase {
  name: string;
  observations: number[][];
  labels: number[];
  queries: number[][];
  lp: { decision: number[]; probability: number[]; default_lbfgs_probability: number[] };
  svm: { decision: number[] };
  lpe: {
    members: number;
    seed: number;
    judged_probability: number[];
    variance: number[];
    episteme: number[];
    alea: number[];
  };
  maha: { distance: number[] };
  knn: { k1: number[]; k2: number[] };
}

interface MetricCase {
  name: string;
  labels: number[];
  scores: number[];
  probability: number[];
  other: number[];
  auroc: number;
  auprc: number;
  accuracy: number;
  pearson: number;
  roc: { false_positive_rate: number[]; true_positive_rate: number[]; thresholds_after_first: number[] };
}

interface ExperimentRun {
  experiment: ExperimentKind;
  uses_mask: boolean;
  options: { trials: number; seed: number; max_observations: number; max_queries: number; members: number; k: number };
  observation_counts: number[];
  curves: { method: string; values: number[][] }[];
  clouds: {
    method: string;
    label_probability: number;
    observations: number;
    rows: number[];
    judged_probability: number[];
    episteme: number[];
    alea: number[];
  }[];
}

const baselines = fixture<{ cases: BaselineCase[] }>('baselines.json').cases;
const metrics = fixture<{ cases: MetricCase[] }>('metrics.json').cases;
const experiments = fixture<{
  embeddings: number[][];
  labels: number[];
  ood: number[][];
  query_mask: number[];
  runs: ExperimentRun[];
}>('experiments.json');

const matrix = (rows: number[][], Type: Float32ArrayConstructor | Float64ArrayConstructor = Float64Array): Matrix => ({
  data: Type.from(rows.flat()),
  rows: rows.length,
  cols: rows[0].length,
});

function expectClose(actual: ArrayLike<number>, expected: number[], tolerance: number, what: string): void {
  expect(actual.length, what).toBe(expected.length);
  for (let i = 0; i < expected.length; ++i) {
    expect(
      Math.abs(actual[i] - expected[i]),
      `${what}[${i}] = ${actual[i]}, expected ${expected[i]}`,
    ).toBeLessThanOrEqual(tolerance * Math.max(1, Math.abs(expected[i])));
  }
}

let engine: ProbeEngine;
beforeAll(async () => {
  engine = await createProbeEngine();
});

describe('baselines equal scikit-learn through wasm', () => {
  for (const c of baselines) {
    it(c.name, () => {
      const base = {
        observations: matrix(c.observations),
        labels: Uint8Array.from(c.labels),
        queries: matrix(c.queries),
      };
      const lp = runBaseline(engine, { ...base, method: 'lp' });
      expectClose(lp.score, c.lp.decision, 1e-6, 'lp decision');
      expectClose(lp.probability!, c.lp.probability, 1e-9, 'lp probability');
      expectClose(lp.probability!, c.lp.default_lbfgs_probability, 1e-4, 'lp vs default LogisticRegression()');
      expect(lp.episteme).toBeUndefined();
      expectClose(runBaseline(engine, { ...base, method: 'svm' }).score, c.svm.decision, 1e-9, 'svm decision');
      const msp = runBaseline(engine, { ...base, method: 'msp' });
      expectClose(
        msp.score,
        c.lp.probability.map((p) => Math.max(p, 1 - p)),
        1e-9,
        'msp',
      );
      const lpe = runBaseline(engine, { ...base, method: 'lpe', seed: c.lpe.seed, members: c.lpe.members });
      expectClose(lpe.probability!, c.lpe.judged_probability, 1e-9, 'lpe judged');
      expectClose(
        lpe.score,
        c.lpe.variance.map((v) => -v),
        1e-9,
        'lpe ood score',
      );
      expectClose(lpe.alea!, c.lpe.alea, 1e-8, 'lpe alea');
      expectClose(lpe.episteme!, c.lpe.episteme, 1e-6, 'lpe episteme');
      expectClose(
        runBaseline(engine, { ...base, method: 'maha' }).score,
        c.maha.distance.map((d) => -d),
        1e-9,
        'maha',
      );
      expectClose(
        runBaseline(engine, { ...base, method: 'knn', k: 2 }).score,
        c.knn.k2.map((d) => -d),
        1e-7,
        'knn',
      );
    });
  }

  it('takes float32 embeddings within their rounding', () => {
    const c = baselines[0];
    const lp = runBaseline(engine, {
      method: 'lp',
      observations: matrix(c.observations, Float32Array),
      labels: Uint8Array.from(c.labels),
      queries: matrix(c.queries, Float32Array),
    });
    expectClose(lp.probability!, c.lp.probability, 1e-5, 'float32 lp probability');
  });
});

describe('metrics equal scikit-learn and scipy through wasm', () => {
  for (const c of metrics) {
    it(c.name, () => {
      const y = Uint8Array.from(c.labels);
      const s = Float64Array.from(c.scores);
      expect(auroc(engine, y, s)).toBeCloseTo(c.auroc, 14);
      expect(auprc(engine, y, s)).toBeCloseTo(c.auprc, 14);
      expect(accuracy(engine, y, Float64Array.from(c.probability))).toBeCloseTo(c.accuracy, 14);
      expect(pearson(engine, s, Float64Array.from(c.other))).toBeCloseTo(c.pearson, 13);
      const roc = rocCurve(engine, y, s);
      expectClose(roc.falsePositiveRate, c.roc.false_positive_rate, 1e-15, 'fpr');
      expectClose(roc.truePositiveRate, c.roc.true_positive_rate, 1e-15, 'tpr');
      expect(roc.thresholds[0]).toBe(Infinity);
      expectClose(roc.thresholds.slice(1), c.roc.thresholds_after_first, 0, 'thresholds');
    });
  }
});

describe('experiments equal the independent reference run through wasm', () => {
  const data = {
    embeddings: matrix(experiments.embeddings),
    labels: Uint8Array.from(experiments.labels),
    ood: matrix(experiments.ood),
  };
  for (const run of experiments.runs) {
    it(run.experiment, async () => {
      const o = run.options;
      let lastProgress = [0, 0];
      const r = await runExperiment(
        engine,
        {
          ...data,
          experiment: run.experiment,
          trials: o.trials,
          seed: o.seed,
          maxObservations: o.max_observations,
          maxQueries: o.max_queries,
          members: o.members,
          k: o.k,
          queryMask: run.uses_mask ? Uint8Array.from(experiments.query_mask) : undefined,
        },
        {
          onProgress: ({ done, total }) => {
            lastProgress = [done, total];
          },
        },
      );
      expect(r.observationCounts).toEqual(run.observation_counts);
      const points = run.observation_counts.length;
      expect(lastProgress).toEqual([o.trials * points, o.trials * points]);
      expect(r.curves.map((c) => c.method)).toEqual(run.curves.map((c) => c.method));
      run.curves.forEach((expected, c) => {
        const curve = r.curves[c];
        expect(curve.metric).toBe(run.experiment === 'fuzzy' ? 'pearson' : 'auroc');
        expectClose(curve.values, expected.values.flat(), 1e-8, `${run.experiment} ${curve.method}`);
        const [a, b] = expected.values;
        expectClose(
          curve.mean,
          a.map((v, j) => (v + b[j]) / 2),
          1e-8,
          'mean',
        );
        expectClose(
          curve.sd,
          a.map((v, j) => Math.abs(v - b[j]) / Math.SQRT2),
          1e-8,
          'sd',
        );
      });
      expect(r.clouds.length).toBe(run.clouds.length);
      run.clouds.forEach((expected, k) => {
        const cloud = r.clouds[k];
        expect([cloud.method, cloud.labelProbability, cloud.observations]).toEqual([
          expected.method,
          expected.label_probability,
          expected.observations,
        ]);
        expect(Array.from(cloud.rows)).toEqual(expected.rows);
        expectClose(cloud.judgedProbability, expected.judged_probability, 1e-8, 'cloud judged');
        expectClose(cloud.alea, expected.alea, 1e-8, 'cloud alea');
        expectClose(cloud.episteme, expected.episteme, 1e-6, 'cloud episteme');
      });
    });
  }
});

describe('experiments on matrices resident in the wasm heap', () => {
  it('give the same numbers as on plain arrays, and stop cleanly when the data is disposed mid-run', async () => {
    const plain = {
      embeddings: matrix(experiments.embeddings, Float32Array),
      ood: matrix(experiments.ood, Float32Array),
    };
    const resident = { embeddings: engine.upload(plain.embeddings), ood: engine.upload(plain.ood) };
    const common = {
      experiment: 'ood' as const,
      labels: Uint8Array.from(experiments.labels),
      trials: 2,
      maxObservations: 8,
      members: 5,
    };
    try {
      const a = await runExperiment(engine, { ...common, ...plain });
      const b = await runExperiment(engine, { ...common, ...resident });
      expect(b.observationCounts).toEqual(a.observationCounts);
      a.curves.forEach((curve, c) => expect(Array.from(b.curves[c].values)).toEqual(Array.from(curve.values)));
      // Disposed between trials (as a worker would when new data arrives), never during a wasm call.
      const run = runExperiment(
        engine,
        { ...common, ...resident },
        {
          onProgress: ({ done }) => {
            if (done === 1) setTimeout(() => resident.ood.dispose(), 0);
          },
        },
      );
      await expect(run).rejects.toMatchObject({ code: 'disposed', message: 'this resident matrix was disposed' });
    } finally {
      resident.embeddings.dispose();
      resident.ood.dispose();
    }
  });
});

describe('bad input becomes a GpprobeError, cancel stops the work, the engine survives', () => {
  const obs = matrix([
    [1, 0],
    [0, 1],
    [1, 1],
  ]);
  const queries = matrix([[0.5, 0.5]]);

  it('names the problem', () => {
    expectError(
      () => runBaseline(engine, { method: 'lp', observations: obs, labels: Uint8Array.from([1, 1, 1]), queries }),
      'invalid_argument',
      'lp needs observations of both classes; all 3 labels are 1',
    );
    expectError(
      () =>
        runBaseline(engine, {
          method: 'forest' as 'lp',
          observations: obs,
          labels: Uint8Array.from([1, 0, 1]),
          queries,
        }),
      'invalid_argument',
      "method must be lp, svm, lpe, msp, maha or knn, got 'forest'",
    );
    expectError(
      () =>
        runBaseline(engine, {
          method: 'knn',
          observations: obs,
          labels: Uint8Array.from([1, 0, 1]),
          queries: matrix([[1, 2, 3]]),
        }),
      'dimension_mismatch',
      'queries have 3 columns, observations have 2 columns',
    );
    expectError(
      () => auroc(engine, Uint8Array.from([1, 1]), Float64Array.from([0.1, 0.2])),
      'invalid_argument',
      'auroc needs both classes; all 2 labels are 1',
    );
    expectError(
      () => auroc(engine, Uint8Array.from([1, 0]), Float64Array.from([0.1])),
      'dimension_mismatch',
      'scores have 1 values, labels have 2',
    );
    expectError(
      () => pearson(engine, Float64Array.from([1, 1]), Float64Array.from([1, 2])),
      'invalid_argument',
      'pearson is undefined: x is constant',
    );
    expectError(
      () => rocCurve(engine, Uint8Array.from([1, 0]), Float64Array.from([NaN, 1])),
      'non_finite',
      'roc_curve: scores entry 0 is NaN',
    );
    expectError(
      () =>
        runBaseline(engine, { method: 'knn', observations: obs, labels: Uint8Array.from([1, 0, 1]), queries, k: -1 }),
      'invalid_argument',
      'k must be a non-negative integer, got -1',
    );
  });

  it('rejects experiments with a message', async () => {
    const data = { embeddings: matrix(experiments.embeddings), labels: Uint8Array.from(experiments.labels) };
    await expect(runExperiment(engine, { ...data, experiment: 'ood' })).rejects.toMatchObject({
      code: 'invalid_argument',
      message: 'the ood experiment needs ood embeddings (0 rows given)',
    });
    await expect(
      runExperiment(engine, { ...data, experiment: 'probing', labels: Uint8Array.from([1, 0]) }),
    ).rejects.toMatchObject({ code: 'dimension_mismatch', message: 'labels have 2 entries, embeddings have 48 rows' });
    await expect(runExperiment(engine, { ...data, experiment: 'probing', trials: 0 })).rejects.toMatchObject({
      code: 'invalid_argument',
      message: 'trials must be at least 1, got 0',
    });
    await expect(runExperiment(engine, { ...data, experiment: 'probing', maxObservations: 2.5 })).rejects.toMatchObject(
      { code: 'invalid_argument', message: 'maxObservations must be a non-negative integer, got 2.5' },
    );
    await expect(runExperiment(engine, { ...data, experiment: 'probing', maxObservations: 1 })).rejects.toMatchObject({
      code: 'invalid_argument',
      message: 'max_observations must be at least 2, got 1',
    });
  });

  it('cancels a baseline from its progress callback and an experiment from an AbortSignal', async () => {
    const c = baselines[0];
    expectError(
      () =>
        runBaseline(engine, {
          method: 'lpe',
          observations: matrix(c.observations),
          labels: Uint8Array.from(c.labels),
          queries: matrix(c.queries),
          onProgress: ({ done }) => done < 2,
        }),
      'cancelled',
      'lpe fitting cancelled after 2 members of 100',
    );
    const controller = new AbortController();
    const run = runExperiment(
      engine,
      {
        embeddings: matrix(experiments.embeddings),
        labels: Uint8Array.from(experiments.labels),
        experiment: 'probing',
        trials: 3,
        maxObservations: 16,
        members: 8,
      },
      {
        signal: controller.signal,
        onProgress: ({ done }) => {
          if (done === 2) controller.abort();
        },
      },
    );
    await expect(run).rejects.toMatchObject({
      code: 'cancelled',
      message: 'probing experiment cancelled after 2 steps of 4',
    });
    // Still usable afterwards.
    const lp = runBaseline(engine, {
      method: 'lp',
      observations: matrix(c.observations),
      labels: Uint8Array.from(c.labels),
      queries: matrix(c.queries),
    });
    expectClose(lp.probability!, c.lp.probability, 1e-9, 'lp after cancel');
  });
});
