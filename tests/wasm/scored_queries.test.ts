// Kept scores through the library (scored_queries.ts): adds and removes update every query by a
// rank-one change in the core, and the columns equal a probe fitted afresh to the same observations.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createProbeEngine,
  keepScores,
  type Matrix,
  type ProbeEngine,
  type ProbeScores,
} from '../../web/src/engine/index.ts';
import { expectError } from './expect_error.ts';

let engine: ProbeEngine;
beforeAll(async () => {
  engine = await createProbeEngine();
});

const d = 16;

function rowsOf(m: Matrix, rows: number[]): Matrix {
  const data = new Float64Array(rows.length * m.cols);
  rows.forEach((r, k) => data.set(m.data.subarray(r * m.cols, (r + 1) * m.cols), k * m.cols));
  return { data, rows: rows.length, cols: m.cols };
}

function expectClose(actual: ProbeScores, expected: ProbeScores): void {
  for (const column of Object.keys(expected) as (keyof ProbeScores)[]) {
    for (let i = 0; i < expected[column].length; i++) {
      expect(Math.abs(actual[column][i] - expected[column][i]), `${column}[${i}]`).toBeLessThan(
        1e-9 * Math.max(1, Math.abs(expected[column][i])),
      );
    }
  }
}

describe('kept scores', () => {
  it('follow adds and removes like a refit, in both spaces, for the main and a second query set', async () => {
    const pool = engine.syntheticEmbeddings(80, d, 3);
    const q = engine.syntheticEmbeddings(200, d, 4).x;
    const main = engine.upload({ data: Float32Array.from(q.data), rows: q.rows, cols: d }, 'queries');
    const other = engine.upload(engine.syntheticEmbeddings(50, d, 5).x, 'OOD queries');
    for (const space of ['function', 'weight'] as const) {
      let order = Array.from({ length: 30 }, (_, i) => i);
      const probe = engine.fitProbe({
        observations: rowsOf(pool.x, order),
        labels: Uint8Array.from(order, (r) => pool.labels[r]),
        space,
      });
      const kept = await keepScores(probe, main);
      const follower = await keepScores(probe, other);
      for (let step = 0; step < 40; step++) {
        if (step % 3 === 2) {
          kept.removeObservation(probe, step % order.length);
          order.splice(step % order.length, 1);
        } else {
          const r = 30 + step;
          kept.addObservation(probe, pool.x.data.slice(r * d, (r + 1) * d), pool.labels[r]);
          order.push(r);
        }
        follower.follow(probe, kept);
      }
      expect(kept.status(probe)).toEqual({ current: true, fullRescores: 0 });
      expect(follower.status(probe)).toEqual({ current: true, fullRescores: 0 });
      const fresh = engine.fitProbe({
        observations: rowsOf(pool.x, order),
        labels: Uint8Array.from(order, (r) => pool.labels[r]),
        space: probe.space,
      });
      expectClose(kept.scores(), fresh.score(main));
      expectClose(follower.scores(), fresh.score(other));
      // A change made on the probe alone leaves them stale until scored again.
      probe.removeObservation(0);
      expect(kept.status(probe).current).toBe(false);
      await kept.score(probe);
      expect(kept.status(probe).current).toBe(true);
      for (const x of [fresh, probe, kept, follower]) x.dispose();
      order = [];
    }
    main.dispose();
    other.dispose();
  });

  it('reject bad changes with the probe and scores unchanged', async () => {
    const pool = engine.syntheticEmbeddings(10, d, 3);
    const queries = engine.upload(pool.x, 'queries');
    const probe = engine.fitProbe({ observations: pool.x, labels: pool.labels });
    const kept = await keepScores(probe, queries);
    const before = kept.scores();
    expectError(
      () => kept.addObservation(probe, new Float64Array(d + 1), 1),
      'dimension_mismatch',
      'the added observation has 17 columns, observations have 16 columns',
    );
    expectError(
      () => kept.addObservation(probe, new Float64Array(d), 2),
      'invalid_argument',
      'label must be 0 or 1, got 2',
    );
    expectError(
      () => kept.removeObservation(probe, 10),
      'invalid_argument',
      'cannot remove observation 10: the probe has 10 observations',
    );
    expect(probe.observationCount).toBe(10);
    expect(kept.scores()).toEqual(before);
    queries.dispose();
    expectError(() => kept.scores(), 'disposed', 'the queries of these kept scores were disposed');
    kept.dispose();
    probe.dispose();
  });
});
