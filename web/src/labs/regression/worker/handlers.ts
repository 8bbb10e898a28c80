// The regression lab in the engine worker (protocol.ts). Each request is answered on its own
// from the data it carries, nothing kept between requests; so the optimiser and the Fig. 3 experiment
// (policy 'terminate') may run on the instance that a cancel terminates. Long predictions run in chunks
// with a cancel check between them. Every number comes from the core.
import { GpprobeError } from '../../../engine/errors.ts';
import type { Matrix } from '../../../engine/matrix.ts';
import { yieldToEventLoop } from '../../../engine/progress.ts';
import {
  PREDICTION_COLUMNS,
  type GpRegression,
  type RegressionPrediction,
} from '../../../engine/regression/regression.ts';
import { parseDelimitedBlob } from '../../../io/delimited.ts';
import { FileError } from '../../../io/table.ts';
import type { HandlerContext, Handlers } from '../../../common/worker/handler.ts';
import type { FitRequest, FitResult, RegressionRequests } from './protocol.ts';

/** Points of an example's true function. */
const TRUTH_POINTS = 400;
/** Test points per wasm call of a long prediction (a cancel is read between chunks). */
const PREDICT_CHUNK = 1024;
const TABLE_EXTENSIONS = /\.(csv|tsv|txt)$/i;

function checkCancelled(c: HandlerContext<'regression'>): void {
  if (c.signal.aborted) throw new GpprobeError('cancelled', 'cancelled');
}

/** Predictions at every row of `test`, PREDICT_CHUNK rows per wasm call, yielding between chunks. */
async function predictInChunks(
  gp: GpRegression,
  test: Matrix,
  c: HandlerContext<'regression'>,
): Promise<{ prediction: RegressionPrediction; clamped: number }> {
  const prediction = Object.fromEntries(
    PREDICTION_COLUMNS.map((k) => [k, new Float64Array(test.rows)]),
  ) as unknown as RegressionPrediction;
  let clamped = 0;
  for (let first = 0; first < test.rows; first += PREDICT_CHUNK) {
    checkCancelled(c);
    const count = Math.min(PREDICT_CHUNK, test.rows - first);
    const part = gp.predict({
      data: test.data.subarray(first * test.cols, (first + count) * test.cols),
      rows: count,
      cols: test.cols,
    });
    for (const k of PREDICTION_COLUMNS) prediction[k].set(part[k], first);
    clamped += part.clampedVariances;
    c.progress({ stage: 'predicting', done: first + count, total: test.rows });
    if (first + count < test.rows) await yieldToEventLoop();
  }
  return { prediction, clamped };
}

/** What the lab shows of a fitted regression: predictions at the data, the grid and held-out points, samples. */
async function describeFit(
  gp: GpRegression,
  r: FitRequest,
  start: number,
  c: HandlerContext<'regression'>,
): Promise<FitResult> {
  try {
    const notes: string[] = [];
    let clamped = 0;
    const at = async (m: Matrix | null) => {
      if (!m || m.rows === 0) return null;
      const p = await predictInChunks(gp, m, c);
      clamped += p.clamped;
      return p.prediction;
    };
    const data = (await at(r.x))!;
    const grid = await at(r.grid);
    const extra = await at(r.extra);
    let samples: Float64Array | null = null;
    if (r.grid && r.samples > 0) {
      checkCancelled(c);
      try {
        samples = gp.sample(r.grid, r.samples, r.seed).data as Float64Array;
      } catch (error) {
        if (!(error instanceof GpprobeError)) throw error;
        notes.push(`no posterior samples: ${error.message}`);
      }
    }
    if (clamped > 0) notes.push(`${clamped} predicted variance${clamped > 1 ? 's' : ''} rounded below 0 and set to 0`);
    return { state: gp.state, data, grid, samples, extra, notes, seconds: (performance.now() - start) / 1000 };
  } finally {
    gp.dispose();
  }
}

export const regressionHandlers: Handlers<RegressionRequests, 'regression'> = {
  'regression-vocabulary': (_r, c) => c.engines.regression.vocabulary(),
  'parse-table': async (r, c) => {
    if (!TABLE_EXTENSIONS.test(r.name)) {
      const extension = /\.[^.]*$/.exec(r.name)?.[0] ?? 'none';
      throw new FileError(r.name, `unsupported file type (${extension}); the regression lab reads .csv, .tsv or .txt`);
    }
    const parsed = await parseDelimitedBlob(r.file, r.name, {
      metadataOnly: true,
      signal: c.signal,
      onProgress: (f) => c.progress({ stage: 'reading', done: f, total: 1 }),
    });
    return { fileName: r.name, rows: parsed.rows, columns: parsed.columns };
  },
  'regression-example': (r, c) => {
    const engine = c.engines.regression;
    const example = engine.example(r.name, r.seed);
    const truthX = Float64Array.from(
      { length: TRUTH_POINTS },
      (_, i) => example.lower + ((example.upper - example.lower) * i) / (TRUTH_POINTS - 1),
    );
    return { example, truthX, truth: engine.exampleTruth(r.name, truthX) };
  },
  'regression-prior': (r, c) => {
    const s = c.engines.regression.samplePrior(r.kernel, r.grid, r.count, r.seed, r.mean);
    return { samples: s.data as Float64Array, count: s.rows };
  },
  'regression-fit': (r, c) => {
    const start = performance.now();
    const gp = c.engines.regression.fit({ x: r.x, y: r.y, kernel: r.kernel, noiseVariance: r.noiseVariance });
    return describeFit(gp, r, start, c);
  },
  'regression-optimize': (r, c) => {
    const start = performance.now();
    const gp = c.engines.regression.optimize({
      x: r.x,
      y: r.y,
      kernel: r.kernel,
      noiseVariance: r.noiseVariance,
      restarts: r.restarts,
      seed: r.seed,
      fixed: r.fixed,
      onProgress: c.progress,
    });
    return describeFit(gp, r, start, c);
  },
  'regression-predict': async (r, c) => {
    const gp = c.engines.regression.fit({ x: r.x, y: r.y, kernel: r.kernel, noiseVariance: r.noiseVariance });
    try {
      return (await predictInChunks(gp, r.test, c)).prediction;
    } finally {
      gp.dispose();
    }
  },
  'regression-classify': (r, c) => c.engines.regression.classify(r.y, r.prediction, { rho: r.rho, theta: r.theta }),
  'regression-roc': (r, c) => {
    const engine = c.engines.regression;
    const [ungated] = engine.rocSweep(r.scores, r.isAnomaly, null, [0]);
    const [gated] = engine.rocSweep(r.scores, r.isAnomaly, r.knowledge, [r.rho]);
    return { ungated, gated };
  },
  'anomaly-experiment': (r, c) =>
    c.engines.regression.anomalyExperiment({
      seed: r.seed,
      statusRho: r.statusRho,
      theta: r.theta,
      rhos: r.rhos,
      onProgress: c.progress,
    }),
};
