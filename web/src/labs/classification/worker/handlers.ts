// The classification lab in the engine worker (protocol.ts). Each request is answered
// on its own from the data it carries; grid predictions run in chunks with a cancel check and a yield
// between them, so a superseded fit stops early. Every number comes from the core.
import type { GpClassifier } from '../../../engine/classification/classification.ts';
import { GpprobeError } from '../../../engine/errors.ts';
import type { Matrix } from '../../../engine/matrix.ts';
import { yieldToEventLoop } from '../../../engine/progress.ts';
import {
  modelLabel,
  type ClassificationRequests,
  type ClassifierData,
  type ClassifierFitResult,
  type Prediction,
} from './protocol.ts';
import type { HandlerContext, Handlers } from '../../../common/worker/handler.ts';
import { multiclassHandlers } from './multiclass_handlers.ts';

/** Points per wasm call of a grid prediction (a cancel is read between chunks). */
const PREDICT_CHUNK = 4096;

async function predictInChunks(
  gpc: GpClassifier,
  points: Matrix,
  c: HandlerContext<'classification'>,
  stage: string,
): Promise<{ prediction: Prediction; clamped: number }> {
  const m = points.rows;
  const prediction: Prediction = {
    latentMean: new Float64Array(m),
    latentVariance: new Float64Array(m),
    probability: new Float64Array(m),
  };
  let clamped = 0;
  for (let first = 0; first < m; first += PREDICT_CHUNK) {
    if (c.signal.aborted) throw new GpprobeError('cancelled', 'cancelled');
    const count = Math.min(PREDICT_CHUNK, m - first);
    const part = gpc.predict({
      data: points.data.subarray(first * points.cols, (first + count) * points.cols),
      rows: count,
      cols: points.cols,
    });
    prediction.latentMean.set(part.latentMean, first);
    prediction.latentVariance.set(part.latentVariance, first);
    prediction.probability.set(part.probability, first);
    clamped += part.clampedVariances;
    c.progress({ stage, done: first + count, total: m });
    if (first + count < m) await yieldToEventLoop();
  }
  return { prediction, clamped };
}

/** What the lab shows of a fitted classifier: predictions at the data and on the grid. Disposes it. */
async function describe(
  gpc: GpClassifier,
  r: ClassifierData,
  start: number,
  c: HandlerContext<'classification'>,
  label: string,
): Promise<ClassifierFitResult> {
  try {
    const data = await predictInChunks(gpc, r.x, c, `${label}: predicting at the data`);
    const grid = r.grid ? await predictInChunks(gpc, r.grid, c, `${label}: predicting the maps`) : null;
    const clamped = data.clamped + (grid?.clamped ?? 0);
    const notes =
      clamped > 0 ? [`${clamped} latent variance${clamped > 1 ? 's' : ''} rounded below 0 and set to 0`] : [];
    const state = gpc.state,
      engine = c.engines.classification;
    const mackay = (p: Prediction) => engine.mackayApproximation(p.latentMean, p.latentVariance);
    return {
      state,
      data: data.prediction,
      grid: grid?.prediction ?? null,
      notes,
      seconds: (performance.now() - start) / 1000,
      mackay:
        state.likelihood === 'logistic'
          ? { data: mackay(data.prediction), grid: grid ? mackay(grid.prediction) : null }
          : null,
    };
  } finally {
    gpc.dispose();
  }
}

export const classificationHandlers: Handlers<ClassificationRequests, 'classification'> = {
  ...multiclassHandlers,
  'classification-vocabulary': (_r, c) => c.engines.classification.vocabulary(),
  'classification-example': (r, c) => c.engines.classification.example(r.name, r.seed),
  'classification-fit': (r, c) => {
    const start = performance.now();
    const gpc = c.engines.classification.fitClassifier({ inputs: r.x, labels: r.labels, ...r.model });
    return describe(gpc, r, start, c, modelLabel(r.model));
  },
  'classification-optimize': async (r, c) => {
    const results: ClassifierFitResult[] = [];
    for (const [k, model] of r.models.entries()) {
      const start = performance.now(),
        label = modelLabel(model);
      const gpc = c.engines.classification.optimizeClassifier({
        inputs: r.x,
        labels: r.labels,
        ...model,
        restarts: r.restarts,
        seed: r.seed,
        sharedLengthScale: r.sharedLengthScale,
        signalVariancePrior: r.signalVariancePrior,
        lengthScalePrior: r.lengthScalePrior,
        onProgress: (p) =>
          c.progress({ stage: `${label} (${k + 1} of ${r.models.length}): ${p.stage}`, done: p.done, total: p.total }),
      });
      results.push(await describe(gpc, r, start, c, label));
    }
    return results;
  },
};
