// The verdict through the wasm module: each observation's leave-one-out judged probability equals the
// probe fitted without it (function and weight space), labels unrelated to 32-dimensional data are at
// chance, the digits demo's concepts are not; the knowledge gain is the knowledge that adding the
// label brings; an experiment says what ended its observation counts.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProbeEngine, runExperiment, type Matrix, type ProbeEngine } from '../../web/src/engine/index.ts';
import { parseNpy } from '../../web/src/io/npy.ts';
import { normals } from '../web/fixtures.ts';

let engine: ProbeEngine;
beforeAll(async () => {
  engine = await createProbeEngine();
});

function randomMatrix(rows: number, cols: number, seed: number): Matrix {
  const z = normals(seed);
  return { data: Float64Array.from({ length: rows * cols }, z), rows, cols };
}

function without(m: Matrix, row: number): Matrix {
  const data = new Float64Array((m.rows - 1) * m.cols);
  data.set(m.data.subarray(0, row * m.cols));
  data.set(m.data.subarray((row + 1) * m.cols), row * m.cols);
  return { data, rows: m.rows - 1, cols: m.cols };
}

function demo(concept: string): { x: Matrix; labels: Uint8Array } {
  const npy = parseNpy(readFileSync('web/public/demo/digits/embeddings.npy'), 'embeddings.npy');
  const [header, ...lines] = readFileSync('web/public/demo/digits/metadata.csv', 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split(','));
  return {
    x: { data: npy.data, rows: npy.shape[0], cols: npy.shape[1] },
    labels: Uint8Array.from(lines, (cells) => Number(cells[header.indexOf(concept)])),
  };
}

describe('leave-one-out', () => {
  it('equals refitting the probe without each observation, in either space', () => {
    // 12 observations of 20 dimensions: function space; 40 of 3: weight space.
    for (const [rows, cols, epsilon, strength] of [
      [12, 20, 0.1, 5],
      [40, 3, 0.01, 2],
    ]) {
      const x = randomMatrix(rows, cols, rows);
      const labels = Uint8Array.from({ length: rows }, (_, i) =>
        x.data[i * cols] + 0.5 * x.data[i * cols + 1] > 0 ? 1 : 0,
      );
      labels[0] = 1;
      labels[1] = 0;
      const probe = engine.fitProbe({ observations: x, labels, epsilon, strength, expectedQueries: rows });
      expect(probe.space).toBe(rows < cols ? 'function' : 'weight');
      const loo = probe.leaveOneOut();
      probe.dispose();
      let worst = 0;
      for (let i = 0; i < rows; i++) {
        const refit = engine.fitProbe({
          observations: without(x, i),
          labels: Uint8Array.from([...labels.slice(0, i), ...labels.slice(i + 1)]),
          epsilon,
          strength,
        });
        const s = refit.score({ data: x.data.slice(i * cols, (i + 1) * cols), rows: 1, cols });
        refit.dispose();
        worst = Math.max(
          worst,
          Math.abs(loo.judgedProbability[i] - s.judgedProbability[0]),
          Math.abs(loo.latentMean[i] - s.latentMean[0]),
          Math.abs(loo.latentVariance[i] - s.latentVariance[0]),
        );
      }
      expect(worst).toBeLessThan(1e-9);
      expect(loo.positives + loo.negatives).toBe(rows);
    }
  });

  it('warns on 32-dimensional data whose labels are unrelated to it (16 observations)', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const probe = engine.fitProbe({
        observations: randomMatrix(16, 32, 100 + seed),
        labels: Uint8Array.from({ length: 16 }, (_, i) => i % 2),
      });
      const loo = probe.leaveOneOut();
      probe.dispose();
      expect(loo.verdict, `seed ${seed}: AUROC ${loo.auroc} ± ${loo.aurocStandardError}, log loss ${loo.logLoss}`).toBe(
        'chance',
      );
    }
  });

  // The app's draw, 8 per class, seed 1. closed_loop (the demo's concept) separates. even and ge5 rank well
  // (AUROC 0.875 and 0.844, DeLong's intervals above ½) but the honest interval reaches ½ (0.49–1 and 0.46–1 by
  // scripts/fixtures/reference_compare_draws.py's honest_interval on these AUROCs and standard errors): too few.
  it("does not call the digits demo chance (the app's draw: 8 per class, seed 1)", () => {
    for (const [concept, verdict] of [
      ['closed_loop', 'separates'],
      ['even', 'too_few'],
      ['ge5', 'too_few'],
    ]) {
      const { x, labels } = demo(concept);
      const rows = engine.drawObservations(labels, 8, 1);
      const resident = engine.upload(x);
      const probe = engine.fitProbe({
        observations: resident.gatherRows(rows),
        labels: Uint8Array.from(rows, (r) => labels[r]),
      });
      const loo = probe.leaveOneOut();
      probe.dispose();
      resident.dispose();
      expect(
        loo.verdict,
        `${concept}: AUROC ${loo.auroc} ± ${loo.aurocStandardError}, log loss ${loo.logLoss} ± ${loo.logLossStandardError}`,
      ).toBe(verdict);
      // DeLong's AUROC interval and the log loss's: value -/+ z standard errors at the 99% level,
      // z = scipy.stats.norm.ppf(0.995).
      expect(loo.confidence).toBe(0.99);
      for (const [value, se, lower, upper] of [
        [loo.auroc, loo.aurocStandardError, loo.aurocDelongLower, loo.aurocDelongUpper],
        [loo.logLoss, loo.logLossStandardError, loo.logLossLower, loo.logLossUpper],
      ]) {
        expect(lower).toBeCloseTo(value - 2.5758293035489004 * se, 12);
        expect(upper).toBeCloseTo(value + 2.5758293035489004 * se, 12);
      }
      expect(loo.aurocDelongLower).toBeGreaterThan(0.5);
      // The interval the verdict judges: the honest one, never narrower than DeLong's clipped to [0, 1].
      expect(loo.aurocLower).toBeLessThanOrEqual(loo.aurocDelongLower);
      expect(loo.aurocUpper).toBe(1);
      expect(loo.aurocLower > 0.5, `${concept}: honest lower ${loo.aurocLower}`).toBe(verdict === 'separates');
    }
  });

  it('is empty without observations and too few with one of a class', () => {
    const none = engine.fitProbe({
      observations: { data: new Float64Array(0), rows: 0, cols: 4 },
      labels: new Uint8Array(0),
    });
    expect(none.leaveOneOut()).toMatchObject({ verdict: 'too_few', positives: 0, negatives: 0 });
    expect(none.leaveOneOut().judgedProbability.length).toBe(0);
    none.dispose();
    const one = engine.fitProbe({ observations: randomMatrix(5, 4, 3), labels: Uint8Array.from([1, 0, 0, 0, 0]) });
    const loo = one.leaveOneOut();
    one.dispose();
    expect(loo.verdict).toBe('too_few');
    expect(Number.isNaN(loo.aurocStandardError)).toBe(true);
    expect(Number.isNaN(loo.aurocLower) && Number.isNaN(loo.aurocUpper)).toBe(true);
    expect(Number.isFinite(loo.auroc)).toBe(true);
  });
});

describe('the knowledge gain of a label', () => {
  it('is the rise of the knowledge score that adding the label brings, expected over the judged probability', async () => {
    const x = randomMatrix(10, 6, 21),
      labels = Uint8Array.from([1, 0, 1, 0, 0, 1, 1, 0, 0, 1]);
    const queries = randomMatrix(300, 6, 22);
    const probe = engine.fitProbe({ observations: x, labels });
    const gain = await probe.knowledgeGainAsync(queries, { chunkRows: 64 });
    const now = probe.score(queries);
    for (const q of [0, 77, 299]) {
      const row = queries.data.slice(q * 6, (q + 1) * 6);
      let expected = 0;
      for (const label of [0, 1]) {
        const more = engine.fitProbe({ observations: x, labels });
        more.addObservation(row, label);
        const after = more.score({ data: row, rows: 1, cols: 6 }).knowledge[0];
        more.dispose();
        const p = now.judgedProbability[q];
        expected += (label ? p : 1 - p) * (after - now.knowledge[q]);
      }
      expect(gain[q]).toBeCloseTo(expected, 12);
    }
    const controller = new AbortController();
    const pending = probe.knowledgeGainAsync(queries, {
      chunkRows: 100,
      signal: controller.signal,
      onProgress: ({ done }) => {
        if (done >= 100) controller.abort();
      },
    });
    await expect(pending).rejects.toMatchObject({
      code: 'cancelled',
      message: 'knowledge gain cancelled after 100 of 300 queries',
    });
    probe.dispose();
  });
});

describe("an experiment's schedule", () => {
  it("says what ended it early, in the core's words", async () => {
    const { x, labels } = demo('closed_loop');
    // 20 positives: each trial keeps 10 for observations, so O stops at 16.
    const keep = Array.from({ length: x.rows }, (_, i) => i)
      .filter((i) => labels[i] === 0 || i < 120)
      .filter((i, k, all) => labels[i] === 0 || all.slice(0, k).filter((j) => labels[j] === 1).length < 20);
    const sub: Matrix = {
      data: Float32Array.from(keep.flatMap((i) => Array.from(x.data.subarray(i * x.cols, (i + 1) * x.cols)))),
      rows: keep.length,
      cols: x.cols,
    };
    const r = await runExperiment(engine, {
      experiment: 'probing',
      embeddings: sub,
      labels: Uint8Array.from(keep, (i) => labels[i]),
      trials: 1,
      members: 3,
      maxQueries: 600,
      gpc: false,
    });
    expect(r.observationCounts.at(-1)).toBe(16);
    expect(r.scheduleLimit).toBe(
      'stopped at O = 16 (up to 512 asked): each trial keeps 10 of the 20 positive examples (label 1) for observations (the other 10 are held-out queries), and O = 32 needs 16 of each class',
    );
  });
});
