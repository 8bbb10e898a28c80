// The Gaussian process probe for JavaScript: fit once, score any number of query batches.
//
//   const engine = await createProbeEngine();
//   const probe = engine.fitProbe({ observations, labels, epsilon: 0.1, strength: 5 });
//   const r = probe.score(queries);   // r.judgedProbability, r.episteme, r.alea, ... (Float64Array)
//   probe.dispose();
//
// All numbers come from the C++ core; this file only moves whole arrays in and out of the wasm heap.
import {
  compareRepresentations,
  type CompareRepresentationsOptions,
  type RepresentationComparison,
  type RunCompareOptions,
} from '../compare/compare_representations.ts';
import type { GpprobeModule, LeaveOneOutValue, ProbeHandle } from '../generated/gpprobe.mjs';
import { GpprobeError, throwIfFailed } from '../errors.ts';
import { dtypeOf, HeapScope } from '../heap.ts';
import { loadModule, type LoadOptions } from '../load_module.ts';
import { checkCount, checkLabels, checkMatrix, sliceRows, type Matrix } from '../matrix.ts';
import { certifyQuery, type CertifyOptions, type ProbeCertificate } from '../certify/probe_certify.ts';
import { readProbeFile, type ProbeFile } from './probe_file.ts';
import { coreProgress, yieldToEventLoop, type ProgressListener } from '../progress.ts';
import { ResidentMatrix, type MatrixInput } from '../resident_matrix.ts';
import { DEFAULTS } from '../vocabulary.ts';

export type PosteriorSpace = 'automatic' | 'function' | 'weight';

export interface FitProbeOptions {
  /** O by d embeddings of the labelled examples (O may be 0: the probe is its prior). */
  observations: MatrixInput;
  /** O labels, 0 or 1. */
  labels: Uint8Array;
  /** Prior Beta(epsilon, epsilon); > 0, default DEFAULTS.epsilon (0.1). */
  epsilon?: number;
  /** Observation strength s; > 0, default DEFAULTS.strength (5). */
  strength?: number;
  /** Function or weight space; "automatic" (the default) picks the cheaper for O, d and expectedQueries. */
  space?: PosteriorSpace;
  /** How many queries the probe will score (guides "automatic"); default DEFAULTS.expectedQueries. */
  expectedQueries?: number;
  /**
   * Score Float32Array queries with float32 products where that is accurate (weight space, long passes):
   * about twice as fast in wasm, within the bound docs/performance.md "Accuracy of the probe's scores" states of the exact
   * scores instead of 1e-9; queries whose variance would cancel are scored in float64. Float64Array
   * queries are not affected. Default false.
   */
  float32Products?: boolean;
}

/** Per-query results, one Float64Array of length queries.rows each. */
export interface ProbeScores {
  judgedProbability: Float64Array;
  episteme: Float64Array;
  alea: Float64Array;
  latentMean: Float64Array;
  latentVariance: Float64Array;
  /** 1 − latentVariance / (2v): the fraction of prior variance the observations removed. */
  knowledge: Float64Array;
  /** −latentVariance: higher means more in-distribution. */
  oodScore: Float64Array;
}

export const SCORE_COLUMNS = [
  'judgedProbability',
  'episteme',
  'alea',
  'latentMean',
  'latentVariance',
  'knowledge',
  'oodScore',
] as const satisfies readonly (keyof ProbeScores)[];

/**
 * The leave-one-out check of a probe (core/include/gpprobe/probe/leave_one_out.h): each observation judged by
 * the probe fitted on the others, in closed form, and what that says about the whole.
 */
export type LeaveOneOut = Omit<LeaveOneOutValue, 'code' | 'message'>;

export interface ScoreAsyncOptions {
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  /** Queries per wasm call between yields to the event loop; default 2048. */
  chunkRows?: number;
}

/** Runs `run(first, count)` over `rows` in chunks, yielding to the event loop between them; stops with
 * "cancelled" once `options.signal` is aborted. */
async function inChunks(
  rows: number,
  stage: string,
  options: ScoreAsyncOptions,
  run: (first: number, count: number) => void,
): Promise<void> {
  const chunk = Math.max(1, Math.floor(options.chunkRows ?? 2048));
  for (let first = 0; first < rows; first += chunk) {
    if (options.signal?.aborted)
      throw new GpprobeError('cancelled', `${stage} cancelled after ${first} of ${rows} queries`);
    const count = Math.min(chunk, rows - first);
    run(first, count);
    options.onProgress?.({ stage, done: first + count, total: rows });
    if (first + count < rows) await yieldToEventLoop();
  }
}

/** @internal Seven zeroed columns of n rows. */
export function emptyScores(n: number): ProbeScores {
  return {
    judgedProbability: new Float64Array(n),
    episteme: new Float64Array(n),
    alea: new Float64Array(n),
    latentMean: new Float64Array(n),
    latentVariance: new Float64Array(n),
    knowledge: new Float64Array(n),
    oodScore: new Float64Array(n),
  };
}

export class Probe {
  readonly #module: GpprobeModule;
  #handle: ProbeHandle | null;

  /** @internal Use ProbeEngine.fitProbe. */
  constructor(module: GpprobeModule, handle: ProbeHandle) {
    this.#module = module;
    this.#handle = handle;
  }

  #live(): ProbeHandle {
    if (!this.#handle) throw new GpprobeError('disposed', 'this probe was disposed');
    return this.#handle;
  }

  get observationCount(): number {
    return this.#state().observationCount;
  }
  get dimension(): number {
    return this.#state().dimension;
  }
  /** The space the posterior lives in: "function" or "weight". */
  get space(): PosteriorSpace {
    return this.#state().space as PosteriorSpace;
  }
  /** The labels in the probe's current order. */
  get labels(): Uint8Array {
    return this.#state().labels;
  }

  #state() {
    return throwIfFailed(this.#live().state());
  }

  /** @internal The module and live handle, for ScoredQueries (scored_queries.ts). */
  get binding(): { module: GpprobeModule; handle: ProbeHandle } {
    return { module: this.#module, handle: this.#live() };
  }

  /** Scores every query in one wasm call; progress (stage "scoring") after each block of 256 queries. */
  score(queries: MatrixInput, options: { onProgress?: ProgressListener } = {}): ProbeScores {
    if (!(queries instanceof ResidentMatrix)) checkMatrix('queries', queries);
    const scores = emptyScores(queries.rows);
    this.#scoreInto(queries, scores, 0, coreProgress('scoring', options.onProgress));
    return scores;
  }

  /**
   * Scores in chunks, yielding to the event loop between them so a worker stays responsive; an
   * aborted `signal` stops it with a GpprobeError of code "cancelled".
   */
  async scoreAsync(queries: MatrixInput, options: ScoreAsyncOptions = {}): Promise<ProbeScores> {
    if (!(queries instanceof ResidentMatrix)) checkMatrix('queries', queries);
    const scores = emptyScores(queries.rows);
    if (queries.rows === 0) this.#scoreInto(queries, scores, 0, null); // the core's "empty" error
    await inChunks(queries.rows, 'scoring', options, (first, count) =>
      this.#scoreInto(queries, scores, first, null, count),
    );
    return scores;
  }

  /**
   * Each observation judged by the probe fitted on all the others, in closed form (no refits), with the
   * verdict: do these observations separate the concept at all? (core: leave_one_out.h)
   */
  leaveOneOut(): LeaveOneOut {
    const { code: _code, message: _message, ...loo } = throwIfFailed(this.#live().leaveOneOut());
    return loo;
  }

  /**
   * For each query, the expected rise of its knowledge score if it were labelled and added as an
   * observation (core: knowledge_gain.h): what to label next. In chunks, like scoreAsync.
   */
  async knowledgeGainAsync(queries: MatrixInput, options: ScoreAsyncOptions = {}): Promise<Float64Array> {
    if (!(queries instanceof ResidentMatrix)) checkMatrix('queries', queries);
    const gain = new Float64Array(queries.rows);
    const handle = this.#live();
    const into = (first: number, count: number) => {
      const heap = new HeapScope(this.#module);
      try {
        const q =
          queries instanceof ResidentMatrix
            ? { pointer: queries.pointer(first), cols: queries.cols, dtype: queries.dtype }
            : heap.matrix(sliceRows(queries, first, count), 'queries');
        const out = heap.allocate(count * 8, 'knowledge gain');
        throwIfFailed(handle.knowledgeGain(q.pointer, count, q.cols, q.dtype, out, null));
        gain.set(heap.readFloat64(out, count), first);
      } finally {
        heap.free();
      }
    };
    if (queries.rows === 0) into(0, 0); // the core's "empty" error
    await inChunks(queries.rows, 'knowledge gain', options, into);
    return gain;
  }

  // Scores rows [first, first + count) of `queries` into `scores` at the same offsets.
  #scoreInto(
    queries: MatrixInput,
    scores: ProbeScores,
    first: number,
    progress: ((done: number, total: number) => boolean) | null,
    count = queries.rows - first,
  ): void {
    const handle = this.#live();
    const heap = new HeapScope(this.#module);
    try {
      const q =
        queries instanceof ResidentMatrix
          ? { pointer: queries.pointer(first), cols: queries.cols, dtype: queries.dtype }
          : heap.matrix(sliceRows(queries, first, count), 'queries');
      const out = heap.allocate(7 * count * 8, 'scores');
      throwIfFailed(handle.score(q.pointer, count, q.cols, q.dtype, out, progress));
      SCORE_COLUMNS.forEach((column, k) => scores[column].set(heap.readFloat64(out + k * count * 8, count), first));
    } finally {
      heap.free();
    }
  }

  /** Adds one labelled observation; the posterior is updated in place, not refitted. */
  addObservation(row: Float32Array | Float64Array, label: number): void {
    const handle = this.#live();
    checkMatrix('observation', { data: row, rows: 1, cols: row.length });
    const heap = new HeapScope(this.#module);
    try {
      throwIfFailed(handle.addObservation(heap.copyIn(row, 'observation'), row.length, dtypeOf(row), label));
    } finally {
      heap.free();
    }
  }

  /** Removes observation `index` (in the probe's current order). */
  removeObservation(index: number): void {
    throwIfFailed(this.#live().removeObservation(index));
  }

  /** Certified bounds of the probe's outputs over the set of queries within gamma of `query` (d values;
   * certify/probe_certify.ts): = `gpprobe probe --certify-gamma` for one query. */
  certify(query: Float32Array | Float64Array, options: CertifyOptions): ProbeCertificate {
    return certifyQuery(this.#module, this.#live(), query, options);
  }

  /** Frees the wasm memory of this probe. Further calls throw a GpprobeError with code "disposed". */
  dispose(): void {
    this.#handle?.delete();
    this.#handle = null;
  }
}

export class ProbeEngine {
  readonly #module: GpprobeModule;

  /** @internal Use createProbeEngine. */
  constructor(module: GpprobeModule) {
    this.#module = module;
  }

  /** "wasm-simd128" for the SIMD build. */
  get backend(): string {
    return throwIfFailed(this.#module.vocabulary()).backend;
  }
  /** Whether the products' multiply-adds fuse (measured in the module: the relaxed build on x86 FMA3 or ARM). */
  get fusedMultiplyAdd(): boolean {
    return throwIfFailed(this.#module.vocabulary()).fusedMultiplyAdd;
  }

  /** Threads the scoring runs on: 1 unless the threaded module loaded (load_module.ts). */
  get threads(): number {
    return throwIfFailed(this.#module.vocabulary()).threads;
  }

  /** @internal The module, for sibling engine files (regression, baselines). */
  get module(): GpprobeModule {
    return this.#module;
  }

  fitProbe(options: FitProbeOptions): Probe {
    const { observations, labels } = options;
    if (!(labels instanceof Uint8Array)) {
      throw new GpprobeError('invalid_argument', 'labels must be a Uint8Array of 0/1 values');
    }
    const handle = new this.#module.ProbeHandle();
    const heap = new HeapScope(this.#module);
    try {
      const x = heap.matrix(observations, 'observations');
      const y = heap.copyIn(labels, 'labels');
      throwIfFailed(
        handle.fit(
          x.pointer,
          x.rows,
          x.cols,
          x.dtype,
          y,
          labels.length,
          options.epsilon ?? DEFAULTS.epsilon,
          options.strength ?? DEFAULTS.strength,
          options.space ?? DEFAULTS.space,
          options.expectedQueries ?? DEFAULTS.expectedQueries,
          options.float32Products ?? false,
        ),
      );
    } catch (error) {
      handle.delete();
      throw error;
    } finally {
      heap.free();
    }
    return new Probe(this.#module, handle);
  }

  /**
   * Reads a probe file (probe_file.ts: the app's "Export probe") with the core's reader, the one the CLI and
   * Python call: its fields, or a GpprobeError (parse_error) "probe file: " and what is wrong.
   */
  readProbeFile(file: Uint8Array | ArrayBuffer | string): ProbeFile {
    return readProbeFile(this.#module, file);
  }

  /**
   * Fits the probe a probe file describes (probe_file.ts: the app's "Export probe"), with the file's
   * hyperparameters, observations, labels and posterior space, so it scores new queries with the same
   * numbers as the app and `gpprobe probe --probe FILE`. `expectedQueries` only matters for a file
   * whose space is "automatic".
   */
  loadProbe(file: Uint8Array | ArrayBuffer | string, options: { expectedQueries?: number } = {}): Probe {
    const p = readProbeFile(this.#module, file);
    return this.fitProbe({
      observations: p.observations,
      labels: p.labels,
      epsilon: p.epsilon,
      strength: p.strength,
      space: p.space,
      expectedQueries: options.expectedQueries,
    });
  }

  /** Copies `m` into the wasm heap once, for many calls; dispose() it when done. */
  upload(m: Matrix, what = 'matrix'): ResidentMatrix {
    return new ResidentMatrix(this.#module, m, what);
  }

  /**
   * `perClass` random rows of each label (fewer when a class is smaller), ascending: the core's draw
   * (observation_draw.h), the same rows `gpprobe draw --per-class N --seed S` prints for these labels.
   */
  drawObservations(labels: Uint8Array, perClass: number, seed: number): Int32Array {
    checkLabels('labels', labels);
    checkCount('perClass', perClass);
    checkCount('seed', seed);
    const heap = new HeapScope(this.#module);
    try {
      return Int32Array.from(
        throwIfFailed(this.#module.drawObservations(heap.copyIn(labels, 'labels'), labels.length, perClass, seed)).rows,
      );
    } finally {
      heap.free();
    }
  }

  /**
   * Which representation holds the concept: the same concepts and observation rows probed in several
   * embeddings of the same rows, with DeLong's paired tests (engine/compare/compare_representations.ts).
   */
  compareRepresentations(
    options: CompareRepresentationsOptions,
    run: RunCompareOptions = {},
  ): Promise<RepresentationComparison> {
    return compareRepresentations(this, options, run);
  }

  /** Seeded synthetic embeddings from the core (two Gaussian classes): the benchmark's workload. */
  syntheticEmbeddings(rows: number, dimension: number, seed: number): { x: Matrix; labels: Uint8Array } {
    const heap = new HeapScope(this.#module);
    try {
      const x = heap.allocate(rows * dimension * 8, 'synthetic embeddings');
      const y = heap.allocate(rows, 'synthetic labels');
      throwIfFailed(this.#module.syntheticEmbeddings(rows, dimension, seed, x, y));
      return {
        x: { data: heap.readFloat64(x, rows * dimension), rows, cols: dimension },
        labels: heap.readUint8(y, rows),
      };
    } finally {
      heap.free();
    }
  }
}

/** Loads the wasm module (once per call) and returns an engine over it. */
export async function createProbeEngine(options: LoadOptions = {}): Promise<ProbeEngine> {
  return new ProbeEngine(await loadModule(options));
}
