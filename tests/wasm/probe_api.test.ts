// The TS API over the wasm module: errors, memory exhaustion, progress and cancel, incremental updates.
import { beforeAll, describe, expect, it } from 'vitest';
import { createProbeEngine, type Matrix, type ProbeEngine } from '../../web/src/engine/index.ts';
import { expectError } from './expect_error.ts';

let engine: ProbeEngine;
beforeAll(async () => {
  engine = await createProbeEngine();
});

const obs: Matrix = { data: Float64Array.from([1, 0, 0, 1, 1, 1]), rows: 3, cols: 2 };
const labels = Uint8Array.from([1, 0, 1]);
const queries: Matrix = { data: Float64Array.from([1, 0, 0.5, 0.5]), rows: 2, cols: 2 };

/** A fit and score that must still give the golden numbers: the instance survived. */
function expectEngineStillWorks(): void {
  const probe = engine.fitProbe({ observations: obs, labels });
  expect(probe.score(queries).judgedProbability[0]).toBeCloseTo(0.9759243192367366, 12);
  probe.dispose();
}

describe('bad input becomes a GpprobeError with a code, never an abort', () => {
  it('rejects non-finite values naming row and column', () => {
    const bad = { ...obs, data: Float64Array.from([1, 0, 0, NaN, 1, 1]) };
    expectError(
      () => engine.fitProbe({ observations: bad, labels }),
      'non_finite',
      'observations row 1, column 1 is NaN',
    );
    const probe = engine.fitProbe({ observations: obs, labels });
    const q = { data: Float32Array.from([1, Infinity]), rows: 1, cols: 2 };
    expectError(() => probe.score(q), 'non_finite', 'queries row 0, column 1 is +Inf');
    probe.dispose();
    expectEngineStillWorks();
  });

  it('rejects shapes that do not fit', () => {
    const probe = engine.fitProbe({ observations: obs, labels });
    expectError(
      () => probe.score({ data: new Float64Array(3), rows: 1, cols: 3 }),
      'dimension_mismatch',
      'queries have 3 columns, observations have 2 columns',
    );
    expectError(
      () => probe.score({ data: new Float64Array(0), rows: 0, cols: 2 }),
      'invalid_argument',
      'queries are empty (0 rows)',
    );
    expectError(
      () => probe.score({ data: new Float64Array(5), rows: 2, cols: 2 }),
      'dimension_mismatch',
      'queries.data has 5 values, expected rows × cols = 2 × 2 = 4',
    );
    probe.dispose();
    expectError(
      () => engine.fitProbe({ observations: obs, labels: Uint8Array.from([1, 0]) }),
      'dimension_mismatch',
      'labels have 2 entries, observations have 3 rows',
    );
    expectError(
      () => engine.fitProbe({ observations: obs, labels: Uint8Array.from([1, 3, 0]) }),
      'invalid_argument',
      'label 1 is 3; labels must be 0 or 1',
    );
    expectEngineStillWorks();
  });

  it('rejects hyperparameters outside their domain', () => {
    expectError(
      () => engine.fitProbe({ observations: obs, labels, epsilon: 0 }),
      'invalid_argument',
      'epsilon must be a finite number > 0, got 0',
    );
    expectError(
      () => engine.fitProbe({ observations: obs, labels, epsilon: NaN }),
      'invalid_argument',
      'epsilon must be a finite number > 0, got nan',
    );
    expectError(
      () => engine.fitProbe({ observations: obs, labels, strength: -1 }),
      'invalid_argument',
      'strength must be a finite number > 0, got -1',
    );
    expectEngineStillWorks();
  });

  it('reports memory exhaustion as out_of_memory and keeps working', () => {
    // 40,000 observations in function space: a 40,000² kernel matrix (12.8 GB) cannot fit in 4 GB.
    const n = 40_000;
    const big = { data: new Float32Array(n * 2).fill(0.5), rows: n, cols: 2 };
    expectError(
      () => engine.fitProbe({ observations: big, labels: new Uint8Array(n), space: 'function' }),
      'out_of_memory',
      'out of memory: the wasm heap cannot grow further (4 GB at most)',
    );
    expectEngineStillWorks();
  });

  it('refuses use after dispose', () => {
    const probe = engine.fitProbe({ observations: obs, labels });
    probe.dispose();
    expectError(() => probe.score(queries), 'disposed', 'this probe was disposed');
  });
});

describe('scoring', () => {
  const data = () => {
    const synthetic = engine.syntheticEmbeddings(200, 16, 3);
    const q = engine.syntheticEmbeddings(3000, 16, 4).x;
    return { synthetic, q };
  };

  it('weight space equals function space to 1e-9 relative', () => {
    const { synthetic, q } = data();
    const f = engine.fitProbe({ observations: synthetic.x, labels: synthetic.labels, space: 'function' });
    const w = engine.fitProbe({ observations: synthetic.x, labels: synthetic.labels, space: 'weight' });
    const rf = f.score(q),
      rw = w.score(q);
    for (const key of ['latentMean', 'latentVariance', 'judgedProbability', 'episteme', 'alea'] as const) {
      for (let i = 0; i < q.rows; i++) {
        const scale = Math.max(Math.abs(rf[key][i]), 1e-300);
        expect(Math.abs(rw[key][i] - rf[key][i]) / scale, `${key}[${i}]`).toBeLessThan(1e-9);
      }
    }
    f.dispose();
    w.dispose();
  });

  it('scoreAsync equals score, reports progress and can be cancelled', async () => {
    const { synthetic, q } = data();
    const probe = engine.fitProbe({ observations: synthetic.x, labels: synthetic.labels });
    const whole = probe.score(q);
    const seen: number[] = [];
    const chunked = await probe.scoreAsync(q, {
      chunkRows: 1000,
      onProgress: ({ done }) => {
        seen.push(done);
      },
    });
    expect(seen).toEqual([1000, 2000, 3000]);
    expect(Array.from(chunked.episteme)).toEqual(Array.from(whole.episteme));
    const controller = new AbortController();
    const pending = probe.scoreAsync(q, {
      chunkRows: 1000,
      signal: controller.signal,
      onProgress: ({ done }) => {
        if (done === 1000) controller.abort();
      },
    });
    await expect(pending).rejects.toMatchObject({
      code: 'cancelled',
      message: 'scoring cancelled after 1000 of 3000 queries',
    });
    // Synchronous progress from inside the core, in blocks of 256; returning false cancels.
    const blocks: number[] = [];
    probe.score(q, {
      onProgress: ({ done }) => {
        blocks.push(done);
      },
    });
    expect(blocks.slice(0, 3)).toEqual([256, 512, 768]);
    expect(blocks.at(-1)).toBe(3000);
    probe.dispose();
  });

  it('adding and removing observations equals refitting', () => {
    const { synthetic, q } = data();
    const head = { data: synthetic.x.data.subarray(0, 150 * 16), rows: 150, cols: 16 };
    const probe = engine.fitProbe({ observations: head, labels: synthetic.labels.subarray(0, 150) });
    for (let i = 150; i < 200; i++)
      probe.addObservation(synthetic.x.data.subarray(i * 16, (i + 1) * 16), synthetic.labels[i]);
    probe.removeObservation(7);
    expect(probe.observationCount).toBe(199);
    const keep = [...Array(200).keys()].filter((i) => i !== 7);
    const refit = engine.fitProbe({
      observations: {
        data: Float64Array.from(keep.flatMap((i) => Array.from(synthetic.x.data.subarray(i * 16, (i + 1) * 16)))),
        rows: 199,
        cols: 16,
      },
      labels: Uint8Array.from(keep.map((i) => synthetic.labels[i])),
    });
    expect(Array.from(probe.labels)).toEqual(keep.map((i) => synthetic.labels[i]));
    const a = probe.score(q),
      b = refit.score(q);
    for (let i = 0; i < q.rows; i++) {
      expect(Math.abs(a.latentVariance[i] - b.latentVariance[i]) / b.latentVariance[i]).toBeLessThan(1e-9);
      expect(Math.abs(a.latentMean[i] - b.latentMean[i])).toBeLessThan(1e-9 * Math.max(1, Math.abs(b.latentMean[i])));
    }
    expectError(
      () => probe.addObservation(new Float64Array(3), 1),
      'dimension_mismatch',
      'the added observation has 3 columns, observations have 16 columns',
    );
    expectError(
      () => probe.removeObservation(500),
      'invalid_argument',
      'cannot remove observation 500: the probe has 199 observations',
    );
    probe.dispose();
    refit.dispose();
  });

  it('prior with zero observations, and stays finite for extreme inputs', () => {
    const prior = engine.fitProbe({
      observations: { data: new Float64Array(0), rows: 0, cols: 0 },
      labels: new Uint8Array(0),
    });
    const r = prior.score({ data: Float64Array.from([1e30, -1e30, 0, 0]), rows: 2, cols: 2 });
    for (const j of r.judgedProbability) expect(j).toBeCloseTo(0.5, 15);
    expect(r.latentVariance[0]).toBeCloseTo(4.795790545596741, 14);
    prior.dispose();
    // 400 duplicates of one positive point: variance tiny, mean large; every measure finite.
    const n = 400;
    const dup = engine.fitProbe({
      observations: { data: new Float64Array(n * 2).fill(3), rows: n, cols: 2 },
      labels: new Uint8Array(n).fill(1),
      strength: 1000,
    });
    const s = dup.score({ data: Float64Array.from([3, 3]), rows: 1, cols: 2 });
    for (const key of [
      'judgedProbability',
      'episteme',
      'alea',
      'latentMean',
      'latentVariance',
      'knowledge',
      'oodScore',
    ] as const) {
      expect(Number.isFinite(s[key][0]), key).toBe(true);
    }
    // Positives inform f_beta only with noise v, so its variance stays near v/(n+1).
    expect(s.latentVariance[0]).toBeCloseTo(Math.log(11) / 401, 4);
    expect(s.judgedProbability[0]).toBeGreaterThan(0.999);
    dup.dispose();
    // Both labels 400 times at one point with s = 1000: both GPs pinned, variance ~ 2 var(eps+s)/400.
    const labels2 = new Uint8Array(2 * n);
    labels2.fill(1, 0, n);
    const pinned = engine.fitProbe({
      observations: { data: new Float64Array(4 * n).fill(3), rows: 2 * n, cols: 2 },
      labels: labels2,
      strength: 1000,
    });
    const t = pinned.score({ data: Float64Array.from([3, 3]), rows: 1, cols: 2 });
    expect(t.latentVariance[0]).toBeLessThan(1e-5);
    expect(Math.abs(t.latentMean[0])).toBeLessThan(1e-9);
    expect(t.alea[0]).toBeCloseTo(Math.log(2), 5);
    expect(Number.isFinite(t.episteme[0]) && t.episteme[0] > 5).toBe(true);
    pinned.dispose();
  });
});
