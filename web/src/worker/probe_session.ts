// The worker's probe: kept up to date with the page's list of observations by adding and removing
// observations in place (the posterior is updated, not refitted) unless hyperparameters changed or
// so much changed that a fresh fit is cheaper.
import type { Probe, ProbeEngine } from '../engine/probe_engine.ts';
import type { ResidentMatrix } from '../engine/resident_matrix.ts';

interface Observation {
  row: number;
  label: number;
}

const key = (o: Observation): string => `${o.row}:${o.label}`;

export type ProbeUpdate = { kind: 'fit' } | { kind: 'incremental'; added: number; removed: number };

export class ProbeSession {
  #probe: Probe | null = null;
  #epsilon = NaN;
  #strength = NaN;
  #embeddings: ResidentMatrix | null = null;
  /** The probe's observations in its own order. */
  #current: Observation[] = [];

  get probe(): Probe | null {
    return this.#probe;
  }

  /** Forget the probe (new dataset). */
  reset(): void {
    this.#probe?.dispose();
    this.#probe = null;
    this.#current = [];
    this.#embeddings = null;
  }

  /** Brings the probe to exactly `target` observations; returns what it did. */
  update(engine: ProbeEngine, embeddings: ResidentMatrix, epsilon: number, strength: number,
    rows: Int32Array, labels: Uint8Array): ProbeUpdate {
    const target: Observation[] = Array.from(rows, (row, i) => ({ row, label: labels[i] }));
    const sameSetup = this.#probe && this.#embeddings === embeddings && this.#epsilon === epsilon && this.#strength === strength;
    if (sameSetup) {
      const wanted = new Map<string, number>();
      for (const o of target) wanted.set(key(o), (wanted.get(key(o)) ?? 0) + 1);
      const kept: Observation[] = [];
      const removals: number[] = [];
      this.#current.forEach((o, i) => {
        const left = wanted.get(key(o)) ?? 0;
        if (left > 0) {
          wanted.set(key(o), left - 1);
          kept.push(o);
        } else {
          removals.push(i);
        }
      });
      const additions = target.filter((o) => {
        const left = wanted.get(key(o)) ?? 0;
        if (left > 0) wanted.set(key(o), left - 1);
        return left > 0;
      });
      const changes = removals.length + additions.length;
      if (changes <= Math.max(16, 0.25 * target.length)) {
        // Highest index first, so earlier indices stay valid.
        for (let k = removals.length - 1; k >= 0; k--) this.#probe!.removeObservation(removals[k]);
        if (additions.length > 0) {
          const added = embeddings.gatherRows(additions.map((o) => o.row));
          additions.forEach((o, k) => this.#probe!.addObservation(added.data.subarray(k * added.cols, (k + 1) * added.cols), o.label));
        }
        this.#current = [...kept, ...additions];
        return { kind: 'incremental', added: additions.length, removed: removals.length };
      }
    }
    const observations = embeddings.gatherRows(rows);
    const probe = engine.fitProbe({ observations, labels, epsilon, strength, expectedQueries: embeddings.rows });
    this.#probe?.dispose();
    this.#probe = probe;
    this.#epsilon = epsilon;
    this.#strength = strength;
    this.#embeddings = embeddings;
    this.#current = target;
    return { kind: 'fit' };
  }
}
