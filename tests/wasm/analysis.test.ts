// The view analyses through wasm against closed forms; resident matrices against plain ones.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  beliefAtObservedPoint,
  beliefEnvelope,
  betaDensities,
  createProbeEngine,
  GpprobeError,
  logitNormalDensities,
  principalComponents,
  type ProbeEngine,
} from '../../web/src/engine/index.ts';

let engine: ProbeEngine;
beforeAll(async () => {
  engine = await createProbeEngine();
});

describe('principal components', () => {
  it('recovers a constructed two-axis cloud exactly', () => {
    // Rows a_i u + b_i w + c with u = (0.6, 0.8, 0), w = (0, 0, 1), a ⟂ b, both mean 0.
    const a = [-2, -1, 0, 1, 2],
      b = [0.5, -1, 1, -1, 0.5],
      c = [10, -3, 7];
    const data = Float32Array.from(a.flatMap((ai, i) => [0.6 * ai + c[0], 0.8 * ai + c[1], b[i] + c[2]]));
    const pc = principalComponents(engine, { data, rows: 5, cols: 3 }, { k: 2 });
    expect(pc.explainedVariance[0]).toBeCloseTo(10 / 4, 5); // float32 inputs: ~1e-7 relative
    expect(pc.explainedVariance[1]).toBeCloseTo(3.5 / 4, 5);
    expect(pc.totalVariance).toBeCloseTo(13.5 / 4, 5);
    [0.6, 0.8, 0, 0, 0, 1].forEach((v, i) => expect(pc.components[i]).toBeCloseTo(v, 6));
    a.forEach((ai, i) => {
      expect(pc.scores[2 * i]).toBeCloseTo(ai, 5);
      expect(pc.scores[2 * i + 1]).toBeCloseTo(b[i], 5);
    });
  });

  it('gives the same map for a resident matrix and reports progress', () => {
    const x = engine.syntheticEmbeddings(3000, 32, 5).x;
    const resident = engine.upload(x, 'embeddings');
    const passes: number[] = [];
    const fromResident = principalComponents(engine, resident, {
      onProgress: ({ done }) => {
        passes.push(done);
      },
    });
    const fromPlain = principalComponents(engine, x);
    expect(Array.from(fromResident.scores)).toEqual(Array.from(fromPlain.scores));
    expect(passes).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    resident.dispose();
    expect(() => principalComponents(engine, resident)).toThrowError(GpprobeError);
  });
});

describe('beliefs', () => {
  it('evaluates Beta and logit-normal densities', () => {
    const grid = Float64Array.from([0.1, 0.5, 0.9]);
    const d = {
      beta: betaDensities(engine, grid, { a: 2, b: 3 }),
      logitNormal: logitNormalDensities(engine, grid, { mean: 0, variance: 2 }),
    };
    [0.1, 0.5, 0.9].forEach((y, i) => {
      expect(d.beta[i]).toBeCloseTo(12 * y * (1 - y) ** 2, 12);
      const z = Math.log(y / (1 - y));
      expect(d.logitNormal[i]).toBeCloseTo(Math.exp((-z * z) / 4) / (y * (1 - y) * Math.sqrt(4 * Math.PI)), 12);
    });
  });

  it('gives the probe belief after one positive and one negative observation at a point', () => {
    const eps = 0.1,
      s = 5;
    const b = beliefAtObservedPoint(engine, eps, s, 1, 1);
    expect(b.betaA).toBeCloseTo(eps + s, 14);
    expect(b.betaB).toBeCloseTo(eps + s, 14);
    expect(b.latentMean).toBeCloseTo(0, 12); // symmetric evidence
    // Each GP sees one (residual delta, noise n+) and one (0, v) observation of the same point:
    // var = v - v^2 (1/n+ + 1/v) / (1 + v/n+ + v/v) per GP.
    const v = Math.log(1 / eps + 1),
      nUp = Math.log(1 / (eps + s) + 1);
    const perGp = v - (v * v * (1 / nUp + 1 / v)) / (1 + v / nUp + 1);
    expect(b.latentVariance).toBeCloseTo(2 * perGp, 12);
  });

  it('bounds every probe output by the belief envelope', () => {
    const env = beliefEnvelope(engine, 0.1, { points: 400 });
    expect(env.judgedProbability[0]).toBe(0.5);
    expect(env.judgedProbability[399]).toBeCloseTo(0.999, 12);
    // Scores of a real probe never have less episteme than the envelope at their judged probability.
    const train = engine.syntheticEmbeddings(40, 12, 9);
    const probe = engine.fitProbe({ observations: train.x, labels: train.labels, epsilon: 0.1 });
    const r = probe.score(engine.syntheticEmbeddings(2000, 12, 10).x);
    let checked = 0;
    r.judgedProbability.forEach((j, i) => {
      const p = Math.max(j, 1 - j);
      if (p >= 0.999) return;
      let k = 1;
      while (env.judgedProbability[k] < p) k++;
      const w = (p - env.judgedProbability[k - 1]) / (env.judgedProbability[k] - env.judgedProbability[k - 1]);
      const bound = env.episteme[k - 1] + w * (env.episteme[k] - env.episteme[k - 1]);
      expect(r.episteme[i]).toBeGreaterThanOrEqual(bound - 1e-4);
      checked++;
    });
    expect(checked).toBeGreaterThan(1000);
    probe.dispose();
    expect(() => beliefEnvelope(engine, -1)).toThrowError('epsilon must be a finite number > 0, got -1');
  });
});

describe('resident matrices', () => {
  it('score in place exactly as plain matrices, whole or in chunks', async () => {
    const train = engine.syntheticEmbeddings(80, 24, 1);
    const queries = engine.syntheticEmbeddings(5000, 24, 2).x;
    const resident = engine.upload(queries, 'queries');
    const probe = engine.fitProbe({ observations: train.x, labels: train.labels });
    const plain = probe.score(queries);
    const inPlace = probe.score(resident);
    const chunked = await probe.scoreAsync(resident, { chunkRows: 777 });
    expect(Array.from(inPlace.judgedProbability)).toEqual(Array.from(plain.judgedProbability));
    expect(Array.from(chunked.latentVariance)).toEqual(Array.from(plain.latentVariance));
    // Observations may be resident too.
    const trainResident = engine.upload(train.x, 'observations');
    const probe2 = engine.fitProbe({ observations: trainResident, labels: train.labels });
    expect(Array.from(probe2.score(resident).alea)).toEqual(Array.from(plain.alea));
    probe.dispose();
    probe2.dispose();
    resident.dispose();
    trainResident.dispose();
  });
});
