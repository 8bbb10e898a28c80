// What the binary (classification.ts) and softmax (multiclass.ts) classifiers share on their way into the
// core: the training data checked and copied into the heap for a new handle's fit or optimize, and the
// optimiser's report taken off the handle's answer.
import type { GpprobeModule } from '../generated/gpprobe.mjs';
import { GpprobeError } from '../errors.ts';
import { filledHandle } from '../heap.ts';
import { checkCount, checkMatrix, type Matrix } from '../matrix.ts';

export type TrainingLabels = Uint8Array | Int8Array | Int32Array | Float64Array;

/** The optimiser's report: the best log marginal likelihood (plus log prior) of each run, the iterations
 * over all runs. */
export interface Optimization {
  runValues: Float64Array;
  iterations: number;
  startLogMarginalLikelihood: number;
  /** log p of the hyperparameters at the optimum under the MAP priors (0 without a prior). */
  logPrior: number;
  converged: boolean;
}

type Answer = { code: string; message: string };

const LABEL_TYPES = [Uint8Array, Int8Array, Int32Array, Float64Array];

export function float64(data: ArrayLike<number>): Float64Array {
  return data instanceof Float64Array ? data : Float64Array.from(data);
}

/** Throws a GpprobeError unless `inputs` is a matrix and `labels` one typed label per row. */
export function checkTraining(options: { inputs: Matrix; labels: TrainingLabels }): void {
  checkMatrix('inputs', options.inputs);
  if (!LABEL_TYPES.some((T) => options.labels instanceof T)) {
    throw new GpprobeError('invalid_argument', 'labels must be a Uint8Array, Int8Array, Int32Array or Float64Array');
  }
  if (options.labels.length !== options.inputs.rows) {
    throw new GpprobeError(
      'dimension_mismatch',
      `training labels have ${options.labels.length} values, training inputs have ${options.inputs.rows} rows`,
    );
  }
}

/** `handle` after `call` fitted it on the (checked) training data copied into the heap; deleted if it failed. */
export function trainedHandle<H extends { delete(): void }>(
  module: GpprobeModule,
  handle: H,
  options: { inputs: Matrix; labels: TrainingLabels },
  call: (handle: H, x: number, y: number) => Answer,
): H {
  return filledHandle(module, handle, (heap) =>
    call(
      handle,
      heap.copyIn(float64(options.inputs.data), 'training inputs'),
      heap.copyIn(float64(options.labels), 'training labels'),
    ),
  );
}

/** Throws a GpprobeError unless the restarts and seed given are counts. */
export function checkOptimizerCounts(options: { restarts?: number; seed?: number }): void {
  for (const key of ['restarts', 'seed'] as const) if (options[key] !== undefined) checkCount(key, options[key]);
}

/** Splits an optimize() answer into its status (for filledHandle) and the report, which `keep` receives. */
export function optimizationOf(answer: Optimization & Answer, keep: (o: Optimization) => void): Answer {
  const { runValues, iterations, startLogMarginalLikelihood, logPrior, converged, code, message } = answer;
  keep({ runValues, iterations, startLogMarginalLikelihood, logPrior, converged });
  return { code, message };
}
