// Which representation holds the concept? The same concept, with the same observation rows, probed in
// several embeddings of the same items, for JavaScript:
//
//   const r = await engine.compareRepresentations({
//     embeddings: [{ name: 'layer_0.npy', embeddings: x0 }, { name: 'layer_1.npy', embeddings: x1 }],
//     concepts: [{ name: 'closed_loop', labels, observations }],
//   }, { onProgress, signal });
//   // r.concepts[0].probes[k].heldoutAuroc, .looAurocLower, ...; r.concepts[0].sentence
//
// The numbers are the core's (core/include/gpprobe/compare/representation_comparison.h): one probe per
// (concept, embedding), each equal to fitting that probe alone; DeLong's paired tests between embeddings;
// the sentence. The embeddings enter the wasm heap one at a time (copied in, every concept probed,
// freed), so K embeddings of n x d float32 need K n d 4 bytes of JavaScript memory and n d 4 bytes of heap,
// never a float64 copy of them all; an embedding given as a function is only asked for when its turn
// comes. Between (concept, embedding) cells the call yields to the event loop, reports progress and
// stops with a GpprobeError "cancelled" once `signal` is aborted.
//
// With `draws: R` (R >= 2) the comparison is repeated over R draws of the observations
// (core/include/gpprobe/compare/draw_comparison.h, = `gpprobe compare --draws R`): each concept's `draws`
// gives every embedding's AUROC over the draws (mean, spread, 99 % interval of the mean) and a t-test
// across the draws against the best, Holm-corrected; its sentence speaks of them and of what they are
// conditional on. A concept without observations is redrawn (`perClass` labelled rows of each class per
// draw, the first draw seeded `seed` as without draws); one with observations is bootstrapped (its rows
// resampled within each class). Every concept of an embedding is probed in every draw in one wasm call,
// cancelled from its progress.
import type {
  ConceptComparisonValue,
  DrawnComparisonValue,
  DrawnProbeValue,
  RepresentationProbeValue,
} from '../generated/gpprobe.mjs';
import { GpprobeError, throwIfFailed } from '../errors.ts';
import { HeapScope } from '../heap.ts';
import { checkCount, type Matrix } from '../matrix.ts';
import type { ProbeEngine } from '../probe/probe_engine.ts';
import { yieldToEventLoop, type ProgressListener } from '../progress.ts';
import type { MatrixInput } from '../resident_matrix.ts';
import { DEFAULTS } from '../vocabulary.ts';

/** A row label: 0, 1, or UNLABELLED (a query that is neither an observation nor a held-out row). */
export const UNLABELLED = 255;

export interface ComparedEmbedding {
  /** The file or tensor name: the table's `embedding`; layer numbers are read from it ("layer_07.npy"). */
  name: string;
  /** n × d rows, the same n rows (items, order) as every other embedding; or a function giving them when their turn comes. */
  embeddings: MatrixInput | (() => Matrix | Promise<Matrix>);
  /** m × d out-of-distribution rows of this embedding: adds the OOD AUROC. */
  ood?: MatrixInput;
}

export interface ComparedConcept {
  name: string;
  /** n values: 0, 1 or UNLABELLED (255). */
  labels: Uint8Array;
  /** Observation rows, the same in every embedding; default: `perClass` random labelled rows of each class (the core's draw over the labelled rows, = `gpprobe compare --per-class N --seed S`). */
  observations?: ArrayLike<number>;
}

export interface CompareRepresentationsOptions {
  embeddings: ComparedEmbedding[];
  /** One concept gives the table; several give the concept × representation grid. */
  concepts: ComparedConcept[];
  /** The draw of a concept without observations: rows of each class (8) and seed (0). */
  perClass?: number;
  seed?: number;
  /** The probes' prior Beta(epsilon, epsilon) and observation strength (DEFAULTS). */
  epsilon?: number;
  strength?: number;
  /** A query is decided when its judged probability is < decided or > 1 - decided (0.1). */
  decided?: number;
  /** Episteme a decided query needs to count; default: the episteme one observation gives at its own point. */
  epistemeThreshold?: number;
  /** Draws of the observations to compare over (1, the default: the one set of observations alone; 2 to 10,000). */
  draws?: number;
  /** How the draws are made: "redraw" (perClass labelled rows of each class per draw) or "bootstrap" (each
   * concept's observations resampled within each class). Default: bootstrap when every concept has observations,
   * else redraw (which ignores the observations given). */
  drawMode?: 'redraw' | 'bootstrap';
}

export interface RunCompareOptions {
  /** Aborting stops the run with a GpprobeError of code "cancelled" (checked between cells and inside each). */
  signal?: AbortSignal;
  /** Stage "<embedding>: <concept>", done of total rows scored (n per concept and embedding). */
  onProgress?: ProgressListener;
}

/** One concept probed in one embedding (gpprobe.d.mts RepresentationProbeValue). */
export type RepresentationProbe = RepresentationProbeValue;

/** One embedding over the draws (gpprobe.d.mts DrawnProbeValue). */
export type DrawnProbe = DrawnProbeValue;

export interface DrawnComparison extends Omit<DrawnComparisonValue, 'probes'> {
  mode: 'none' | 'redraw' | 'bootstrap';
  probes: DrawnProbe[];
}

export interface ConceptComparison extends Omit<ConceptComparisonValue, 'probes' | 'draws'> {
  /** The observation rows every embedding's probe was fitted on (the first draw's). */
  observations: Int32Array;
  probes: RepresentationProbe[];
  /** Over the draws of the observations; mode "none" (nothing else set) without draws. */
  draws: DrawnComparison;
}

export interface RepresentationComparison {
  epistemeThreshold: number;
  decided: number;
  /** Layer numbers read from the names (the profile's order), when every name carries one. */
  layers: { layered: boolean; noun: string; numbers: number[] };
  concepts: ConceptComparison[];
}

/** `perClass` random labelled rows of each class, by the core's draw over the labelled rows only. */
function drawnRows(engine: ProbeEngine, labels: Uint8Array, perClass: number, seed: number): Int32Array {
  const labelled: number[] = [];
  labels.forEach((y, i) => {
    if (y !== UNLABELLED) labelled.push(i);
  });
  const compact = Uint8Array.from(labelled, (i) => labels[i]);
  return Int32Array.from(engine.drawObservations(compact, perClass, seed), (k) => labelled[k]);
}

function observationRows(engine: ProbeEngine, c: ComparedConcept, perClass: number, seed: number): Int32Array {
  if (!(c.labels instanceof Uint8Array))
    throw new GpprobeError('invalid_argument', `concept '${c.name}': labels must be a Uint8Array`);
  if (c.observations === undefined) return drawnRows(engine, c.labels, perClass, seed);
  const rows = Int32Array.from(c.observations);
  rows.forEach((r, i) => {
    if (!Number.isInteger(c.observations![i]) || r < 0) {
      throw new GpprobeError(
        'invalid_argument',
        `concept '${c.name}': observation ${i} is ${c.observations![i]}, not a row index`,
      );
    }
  });
  return rows;
}

async function matrixOf(e: ComparedEmbedding): Promise<MatrixInput> {
  return typeof e.embeddings === 'function' ? await e.embeddings() : e.embeddings;
}

/**
 * Probes every concept in every embedding (one fit each, the same observations, epsilon and strength),
 * with DeLong's paired tests between the embeddings and a sentence per concept. Every number equals
 * probing each embedding alone (tests/wasm/compare.test.ts).
 */
export async function compareRepresentations(
  engine: ProbeEngine,
  options: CompareRepresentationsOptions,
  run: RunCompareOptions = {},
): Promise<RepresentationComparison> {
  const module = engine.module;
  const { embeddings, concepts } = options;
  if (!Array.isArray(embeddings) || embeddings.length === 0)
    throw new GpprobeError('invalid_argument', 'compare needs at least one embedding');
  if (!Array.isArray(concepts) || concepts.length === 0)
    throw new GpprobeError('invalid_argument', 'compare needs at least one concept');
  const perClass = options.perClass ?? 8,
    seed = options.seed ?? 0;
  checkCount('perClass', perClass);
  checkCount('seed', seed);
  const draws = options.draws ?? 1;
  checkCount('draws', draws);
  if (draws < 1 || draws > 10000)
    throw new GpprobeError('invalid_argument', `draws must be a whole number from 1 to 10000, got ${draws}`);
  const drawMode = options.drawMode ?? (concepts.every((c) => c.observations !== undefined) ? 'bootstrap' : 'redraw');
  if (drawMode !== 'redraw' && drawMode !== 'bootstrap')
    throw new GpprobeError('invalid_argument', `drawMode must be "redraw" or "bootstrap", got "${String(drawMode)}"`);
  const drawn = draws > 1;
  // Redrawn concepts: the first draw is the one `perClass`/`seed` gives without draws.
  const observations = concepts.map((c) =>
    drawn && drawMode === 'redraw'
      ? observationRows(engine, { ...c, observations: undefined }, perClass, seed)
      : observationRows(engine, c, perClass, seed),
  );
  const settings = {
    epsilon: options.epsilon ?? DEFAULTS.epsilon,
    strength: options.strength ?? DEFAULTS.strength,
    decided: options.decided ?? 0.1,
    epistemeThreshold: options.epistemeThreshold ?? Number.NaN,
  };
  const handle = new module.CompareHandle();
  const started = new HeapScope(module);
  try {
    let first: MatrixInput | null = await matrixOf(embeddings[0]);
    const n = first.rows;
    const labels = new Uint8Array(concepts.length * n);
    concepts.forEach((c, i) => {
      if (c.labels.length !== n) {
        throw new GpprobeError(
          'dimension_mismatch',
          `concept '${c.name}' has ${c.labels.length} labels for the ${n} rows of ${embeddings[0].name}`,
        );
      }
      labels.set(c.labels, i * n);
    });
    const rows = Uint32Array.from(observations.flatMap((o) => Array.from(o)));
    const counts = Uint32Array.from(observations, (o) => o.length);
    const bytes = (a: Uint32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    const args = [
      embeddings.map((e) => e.name),
      n,
      concepts.map((c) => c.name),
      started.copyIn(labels, 'concept labels'),
      started.copyIn(bytes(rows), 'observation rows'),
      started.copyIn(bytes(counts), 'observation counts'),
      settings,
    ] as const;
    throwIfFailed(
      drawn ? handle.startDrawn(...args, { draws, mode: drawMode, perClass, seed }) : handle.start(...args),
    );
    started.free();
    const total = embeddings.length * concepts.length * n * (drawn ? draws : 1);
    for (let k = 0; k < embeddings.length; k++) {
      const x = first ?? (await matrixOf(embeddings[k]));
      first = null;
      // One embedding (and its OOD set) in the heap at a time; a resident one is used in place.
      const heap = new HeapScope(module);
      try {
        const placed = heap.matrix(x, embeddings[k].name);
        const ood = embeddings[k].ood ? heap.matrix(embeddings[k].ood!, `the OOD set of ${embeddings[k].name}`) : null;
        if (drawn) {
          // Every concept in every draw in one call; the core's progress counts R × C × (n + OOD rows).
          if (run.signal?.aborted) {
            throw new GpprobeError(
              'cancelled',
              `comparison cancelled after ${k} of ${embeddings.length} representations`,
            );
          }
          const share = concepts.length * n * draws;
          throwIfFailed(
            handle.probeDrawn(
              k,
              placed.pointer,
              placed.rows,
              placed.cols,
              placed.dtype,
              ood?.pointer ?? 0,
              ood?.rows ?? 0,
              (done, all) =>
                run.onProgress?.({
                  stage: `${embeddings[k].name}: ${draws} draws`,
                  done: k * share + Math.round((done / Math.max(1, all)) * share),
                  total,
                }) !== false && !run.signal?.aborted,
            ),
          );
          await yieldToEventLoop();
        }
        for (let c = 0; c < (drawn ? 0 : concepts.length); c++) {
          const cell = k * concepts.length + c;
          if (run.signal?.aborted) {
            throw new GpprobeError(
              'cancelled',
              `comparison cancelled after ${cell} of ${embeddings.length * concepts.length} probes`,
            );
          }
          const stage = `${embeddings[k].name}: ${concepts[c].name}`;
          throwIfFailed(
            handle.probe(
              c,
              k,
              placed.pointer,
              placed.rows,
              placed.cols,
              placed.dtype,
              ood?.pointer ?? 0,
              ood?.rows ?? 0,
              (done, all) =>
                run.onProgress?.({ stage, done: cell * n + Math.round((done / Math.max(1, all)) * n), total }) !==
                  false && !run.signal?.aborted,
            ),
          );
          await yieldToEventLoop();
        }
      } finally {
        heap.free();
      }
    }
    const r = throwIfFailed(handle.result());
    return {
      epistemeThreshold: r.epistemeThreshold,
      decided: r.decided,
      layers: { layered: r.layered, noun: r.layerNoun, numbers: Array.from(r.layerNumbers) },
      concepts: r.concepts.map((c, i) => ({
        concept: c.concept,
        basis: c.basis,
        basisRows: c.basisRows,
        best: c.best,
        difference: c.difference,
        standardError: c.standardError,
        pValue: c.pValue,
        sentence: c.sentence,
        observations: observations[i],
        probes: c.probes.map((p) => ({ ...p })),
        draws: {
          ...c.draws,
          mode: c.draws.mode as DrawnComparison['mode'],
          probes: c.draws.probes.map((p) => ({ ...p })),
        },
      })),
    };
  } finally {
    started.free();
    handle.delete();
  }
}

/**
 * An AUROC's interval that stays honest at the edges and at small samples (core auroc_interval.h): the hull of
 * Newcombe's score-type interval and DeLong's auroc -/+ z standardError clipped to [0, 1], at the two-sided
 * level `confidence`. With 8 + 8 observations ranked perfectly it is about 0.63–1 at 99 %, not 1.00–1.00.
 */
export function honestAurocInterval(
  engine: ProbeEngine,
  auroc: number,
  standardError: number,
  positives: number,
  negatives: number,
  confidence = 0.99,
): { lower: number; upper: number } {
  const r = throwIfFailed(engine.module.aurocInterval(auroc, standardError, positives, negatives, confidence));
  return { lower: r.lower, upper: r.upper };
}
