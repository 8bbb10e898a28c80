// The classification lab's multi-class requests in the engine worker (multiclass_protocol.ts): fit the
// softmax classifier from the request, predict at the data, the maps' grid and the held-out points in
// chunks (a cancel is read between them), and keep what the page shows: the class probabilities, each
// class's latent variance (the diagonal of the C × C covariance) and the predictive entropy. Every
// number comes from the core.
import type { MulticlassGpClassifier } from '../../../engine/classification/multiclass.ts';
import { GpprobeError } from '../../../engine/errors.ts';
import type { Matrix } from '../../../engine/matrix.ts';
import { yieldToEventLoop } from '../../../engine/progress.ts';
import { throttled } from '../../../common/worker/certify_progress.ts';
import type { HandlerContext, Handlers } from '../../../common/worker/handler.ts';
import type {
  MulticlassData,
  MulticlassFitRequest,
  MulticlassFitResult,
  MulticlassModel,
  MulticlassPredictionSummary,
  MulticlassRequests,
} from './multiclass_protocol.ts';

/** Points per wasm call (a cancel is read between chunks). */
const PREDICT_CHUNK = 2048;

/** The entropy −Σ_c p_c log p_c of each row of m × C probabilities (0 log 0 = 0). */
export function entropies(probability: Float64Array, classes: number): Float64Array {
  const m = probability.length / classes,
    out = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    let h = 0;
    for (let c = 0; c < classes; c++) {
      const p = probability[i * classes + c];
      if (p > 0) h -= p * Math.log(p);
    }
    out[i] = h;
  }
  return out;
}

async function predictInChunks(
  gpc: MulticlassGpClassifier,
  points: Matrix,
  classes: number,
  c: HandlerContext<'classification'>,
  stage: string,
): Promise<{ summary: MulticlassPredictionSummary; errorEstimate: number; unconverged: number; rules: string[] }> {
  const m = points.rows,
    C = classes;
  const summary: MulticlassPredictionSummary = {
    rows: m,
    classes: C,
    latentMean: new Float64Array(m * C),
    latentVariance: new Float64Array(m * C),
    probability: new Float64Array(m * C),
    entropy: new Float64Array(0),
  };
  let errorEstimate = 0,
    unconverged = 0;
  const rules = new Set<string>();
  for (let first = 0; first < m; first += PREDICT_CHUNK) {
    if (c.signal.aborted) throw new GpprobeError('cancelled', 'cancelled');
    const count = Math.min(PREDICT_CHUNK, m - first);
    const part = gpc.predict({
      data: points.data.subarray(first * points.cols, (first + count) * points.cols),
      rows: count,
      cols: points.cols,
    });
    summary.latentMean.set(part.latentMean, first * C);
    summary.probability.set(part.probability, first * C);
    for (let i = 0; i < count; i++) {
      for (let k = 0; k < C; k++)
        summary.latentVariance[(first + i) * C + k] = part.latentCovariance[(i * C + k) * C + k];
    }
    errorEstimate = Math.max(errorEstimate, part.errorEstimate);
    unconverged += part.unconverged;
    part.rules.forEach((r) => rules.add(r));
    c.progress({ stage, done: first + count, total: m });
    if (first + count < m) await yieldToEventLoop();
  }
  summary.entropy = entropies(summary.probability, C);
  return { summary, errorEstimate, unconverged, rules: [...rules] };
}

async function describe(
  gpc: MulticlassGpClassifier,
  r: MulticlassFitRequest,
  start: number,
  c: HandlerContext<'classification'>,
): Promise<MulticlassFitResult> {
  try {
    const C = gpc.classes;
    const parts = [await predictInChunks(gpc, r.x, C, c, 'softmax Laplace: predicting at the data')];
    const grid = r.grid ? await predictInChunks(gpc, r.grid, C, c, 'softmax Laplace: predicting the maps') : null;
    const test = r.test
      ? await predictInChunks(gpc, r.test, C, c, 'softmax Laplace: predicting the held-out points')
      : null;
    for (const p of [grid, test]) if (p) parts.push(p);
    const unconverged = parts.reduce((s, p) => s + p.unconverged, 0);
    const notes =
      unconverged > 0
        ? [
            `${unconverged} point${unconverged > 1 ? 's' : ''} whose class-probability quadrature stopped at its node budget`,
          ]
        : [];
    return {
      state: gpc.state,
      data: parts[0].summary,
      grid: grid?.summary ?? null,
      test: test?.summary ?? null,
      errorEstimate: Math.max(...parts.map((p) => p.errorEstimate)),
      notes,
      seconds: (performance.now() - start) / 1000,
    };
  } finally {
    gpc.dispose();
  }
}

const fitOptions = (r: MulticlassData & { model: MulticlassModel }) => ({
  inputs: r.x,
  labels: r.labels,
  likelihood: 'softmax' as const,
  classes: r.classes,
  kernel: { signalVariance: r.model.signalVariance, lengthScales: r.model.lengthScales },
});

export const multiclassHandlers: Handlers<MulticlassRequests, 'classification'> = {
  'classification-multiclass-fit': (r, c) => {
    const start = performance.now();
    return describe(c.engines.classification.fitClassifier(fitOptions(r)), r, start, c);
  },
  'classification-multiclass-optimize': (r, c) => {
    const start = performance.now();
    const gpc = c.engines.classification.optimizeClassifier({
      ...fitOptions(r),
      restarts: r.restarts,
      seed: r.seed,
      shared: true,
      signalVariancePrior: r.signalVariancePrior,
      lengthScalePrior: r.lengthScalePrior,
      onProgress: (p) => c.progress({ stage: `softmax Laplace: ${p.stage}`, done: p.done, total: p.total }),
    });
    return describe(gpc, r, start, c);
  },
  'classification-multiclass-certify': (r, c) => {
    const start = performance.now();
    c.progress({ stage: 'softmax Laplace: fitting', done: 0, total: 1 });
    const gpc = c.engines.classification.fitClassifier(fitOptions(r));
    try {
      // What is left of the certificate's time limit after the fit (a deadline already past: a millisecond, so the
      // searches keep their root bounds; 0 would mean no limit).
      const timeLimitSeconds =
        r.deadline === null ? r.options.timeLimitSeconds : Math.max(1e-3, (r.deadline - Date.now()) / 1000);
      const certificate = gpc.certifyRobustness(r.point, {
        ...r.options,
        timeLimitSeconds,
        classIndex: r.classIndex,
        onProgress: throttled(c, `class ${r.classIndex}, boxes split`),
      });
      return { certificate, seconds: (performance.now() - start) / 1000 };
    } finally {
      gpc.dispose();
    }
  },
};
