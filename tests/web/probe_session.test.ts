// The worker's probe session is transactional: when an add or a remove fails half-way, its list of
// observations still names exactly the probe's observations (so later removals by index hit the right
// rows), and the update falls back to a fresh fit of the target; a fit that fails keeps the old probe.
import { describe, expect, it } from 'vitest';
import { GpprobeError } from '../../web/src/engine/errors.ts';
import type { Probe, ProbeEngine } from '../../web/src/engine/probe/probe_engine.ts';
import type { ResidentMatrix } from '../../web/src/engine/resident_matrix.ts';
import { ProbeSession, type Observation } from '../../web/src/labs/probe/worker/probe_session.ts';

/** A probe that keeps its rows (the embeddings' first column holds the row index) and can be told to fail. */
class FakeProbe {
  rows: Observation[];
  failAdd = Infinity; // fail the n-th add (0-based) from now
  failRemove = Infinity;
  disposed = false;
  constructor(rows: Observation[]) {
    this.rows = [...rows];
  }
  addObservation(row: Float64Array, label: number): void {
    if (this.failAdd-- === 0) throw new GpprobeError('out_of_memory', 'no room');
    this.rows.push({ row: row[0], label });
  }
  removeObservation(index: number): void {
    if (this.failRemove-- === 0) throw new GpprobeError('numerical_failure', 'downdate failed');
    this.rows.splice(index, 1);
  }
  dispose(): void {
    this.disposed = true;
  }
}

const embeddings = {
  rows: 100,
  gatherRows: (rows: ArrayLike<number>) => ({ data: Float64Array.from(rows), rows: rows.length, cols: 1 }),
} as unknown as ResidentMatrix;

function fakeEngine(fits: FakeProbe[], failFit = false): ProbeEngine {
  return {
    fitProbe: ({ observations, labels }: { observations: { data: Float64Array }; labels: Uint8Array }) => {
      if (failFit) throw new GpprobeError('numerical_failure', 'fit failed');
      const probe = new FakeProbe(Array.from(observations.data, (row, i) => ({ row, label: labels[i] })));
      fits.push(probe);
      return probe as unknown as Probe;
    },
  } as unknown as ProbeEngine;
}

const target = (rows: number[]) => ({ rows: Int32Array.from(rows), labels: Uint8Array.from(rows, (r) => r % 2) });

describe('the probe session', () => {
  it("updates in place, and keeps its list equal to the probe's when a change fails half-way", () => {
    const fits: FakeProbe[] = [];
    const engine = fakeEngine(fits);
    const session = new ProbeSession();
    const update = (rows: number[]) => {
      const t = target(rows);
      return session.update(engine, embeddings, 0.1, 5, t.rows, t.labels);
    };
    expect(update([1, 2, 3, 4, 5])).toEqual({ kind: 'fit' });
    expect(update([1, 3, 5, 6])).toEqual({ kind: 'incremental', added: 1, removed: 2 });
    expect(fits[0].rows).toEqual(session.observations);

    // The second removal fails after the first succeeded: the session falls back to a fresh fit.
    fits[0].failRemove = 1;
    expect(update([1, 7])).toEqual({ kind: 'fit' });
    expect(fits[0].disposed).toBe(true);
    expect(fits[1].rows).toEqual([
      { row: 1, label: 1 },
      { row: 7, label: 1 },
    ]);
    expect(session.observations).toEqual(fits[1].rows);

    // The second add fails and so does the fresh fit: the old probe stays, its list still names its rows.
    const failing = new ProbeSession();
    const brokenFits: FakeProbe[] = [];
    expect(
      failing.update(fakeEngine(brokenFits), embeddings, 0.1, 5, target([1, 7]).rows, target([1, 7]).labels),
    ).toEqual({ kind: 'fit' });
    brokenFits[0].failAdd = 1;
    const t = target([1, 7, 8, 9]);
    expect(() => failing.update(fakeEngine([], true), embeddings, 0.1, 5, t.rows, t.labels)).toThrow('fit failed');
    expect(brokenFits[0].rows).toEqual([
      { row: 1, label: 1 },
      { row: 7, label: 1 },
      { row: 8, label: 0 },
    ]);
    expect(failing.observations).toEqual(brokenFits[0].rows);
    // ... and the next update removes by index from the right list.
    expect(failing.update(fakeEngine([]), embeddings, 0.1, 5, target([7]).rows, target([7]).labels)).toEqual({
      kind: 'incremental',
      added: 0,
      removed: 2,
    });
    expect(brokenFits[0].rows).toEqual([{ row: 7, label: 1 }]);
    expect(failing.observations).toEqual(brokenFits[0].rows);
  });
});
