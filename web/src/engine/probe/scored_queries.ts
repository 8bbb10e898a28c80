// Scores of one resident query set kept up to date while a probe gains and loses observations: each
// add or remove updates every query by a rank-one change in the core (scored_queries.h), O(d) per
// query instead of a full re-score, with a drift guard that re-scores when an accuracy check fails.
//
//   const kept = await keepScores(probe, resident);     // one full pass, chunked (progress, cancel)
//   kept.addObservation(probe, row, 1);                  // probe and every query updated
//   kept.removeObservation(probe, 0);
//   const scores = kept.scores();                        // ProbeScores, as probe.score(resident) gives
//   kept.dispose();
//
// A second set kept for the same probe follows the first one's changes with follow().
import type { GpprobeModule, ScoredQueriesHandle } from '../generated/gpprobe.mjs';
import { GpprobeError, throwIfFailed } from '../errors.ts';
import { dtypeOf, HeapScope } from '../heap.ts';
import { checkMatrix } from '../matrix.ts';
import { SCORE_COLUMNS, type Probe, type ProbeScores, type ScoreAsyncOptions } from './probe_engine.ts';
import { yieldToEventLoop } from '../progress.ts';
import type { ResidentMatrix } from '../resident_matrix.ts';

export class ScoredQueries {
  readonly queries: ResidentMatrix;
  #handle: ScoredQueriesHandle | null;
  readonly #module: GpprobeModule;

  /** @internal Use keepScores. */
  constructor(probe: Probe, queries: ResidentMatrix) {
    const { module } = probe.binding;
    this.queries = queries;
    this.#module = module;
    this.#handle = new module.ScoredQueriesHandle();
    try {
      throwIfFailed(this.#handle.track(queries.pointer(), queries.rows, queries.cols, queries.dtype));
    } catch (error) {
      this.dispose();
      throw error;
    }
  }

  #live(): ScoredQueriesHandle {
    if (!this.#handle) throw new GpprobeError('disposed', 'these kept scores were disposed');
    if (this.queries.disposed) throw new GpprobeError('disposed', 'the queries of these kept scores were disposed');
    return this.#handle;
  }

  get rows(): number {
    return this.queries.rows;
  }
  /**
   * `current`: every query is scored by `probe` as it is now (else scores() are those of an earlier
   * state); `fullRescores`: full passes after the first (the drift guard's, or after changes made elsewhere).
   */
  status(probe: Probe): { current: boolean; fullRescores: number } {
    const s = throwIfFailed(this.#live().state(probe.binding.handle));
    return { current: s.current, fullRescores: s.fullRescores };
  }

  /** Scores every query afresh with `probe` in chunks, yielding between them (cancel with `signal`). */
  async score(probe: Probe, options: ScoreAsyncOptions = {}): Promise<void> {
    const handle = this.#live();
    const chunk = Math.max(1, Math.floor(options.chunkRows ?? 4096));
    if (this.rows === 0) throwIfFailed(handle.scoreRows(probe.binding.handle, 0, 0));
    for (let first = 0; first < this.rows; first += chunk) {
      if (options.signal?.aborted) {
        throw new GpprobeError('cancelled', `scoring cancelled after ${first} of ${this.rows} queries`);
      }
      const count = Math.min(chunk, this.rows - first);
      throwIfFailed(handle.scoreRows(probe.binding.handle, first, count));
      options.onProgress?.({ stage: 'scoring', done: first + count, total: this.rows });
      if (first + count < this.rows) await yieldToEventLoop();
    }
  }

  /** Adds an observation to `probe` and updates every kept score with it. */
  addObservation(probe: Probe, row: Float32Array | Float64Array, label: number): void {
    const handle = this.#live();
    checkMatrix('observation', { data: row, rows: 1, cols: row.length });
    const heap = new HeapScope(probe.binding.module);
    try {
      throwIfFailed(
        handle.addObservation(probe.binding.handle, heap.copyIn(row, 'observation'), row.length, dtypeOf(row), label),
      );
    } finally {
      heap.free();
    }
  }

  /** Removes observation `index` (the probe's order) from `probe` and updates every kept score. */
  removeObservation(probe: Probe, index: number): void {
    if (!Number.isInteger(index) || index < 0) {
      throw new GpprobeError('invalid_argument', `observation index must be a non-negative integer, got ${index}`);
    }
    throwIfFailed(this.#live().removeObservation(probe.binding.handle, index));
  }

  /** Brings these scores to `probe` after `leader` changed it: its rank-one update, or a full pass. */
  follow(probe: Probe, leader: ScoredQueries): void {
    throwIfFailed(this.#live().follow(probe.binding.handle, leader.#live()));
  }

  /** Every column for every query (the measures computed from the kept latent means and variances). */
  scores(): ProbeScores {
    const handle = this.#live();
    const n = this.rows;
    const heap = new HeapScope(this.#module);
    try {
      const out = heap.allocate(7 * n * 8, 'scores');
      throwIfFailed(handle.write(out, 0, n));
      // One copy out of the heap per column, each its own buffer (a worker can transfer them).
      return Object.fromEntries(
        SCORE_COLUMNS.map((column, k) => [column, heap.readFloat64(out + k * n * 8, n)]),
      ) as unknown as ProbeScores;
    } finally {
      heap.free();
    }
  }

  dispose(): void {
    this.#handle?.delete();
    this.#handle = null;
  }
}

/** Scores `queries` (resident in the wasm heap) with `probe` and keeps them up to date through the returned object. */
export async function keepScores(
  probe: Probe,
  queries: ResidentMatrix,
  options: ScoreAsyncOptions = {},
): Promise<ScoredQueries> {
  const kept = new ScoredQueries(probe, queries);
  try {
    await kept.score(probe, options);
  } catch (error) {
    kept.dispose();
    throw error;
  }
  return kept;
}
