// The regression lab's thread: loads the wasm module once and answers regression_protocol.ts requests,
// each on its own (no state kept between requests, so a terminated worker loses nothing). Long work
// (the hyperparameter fit, the Fig. 3 experiment, blocked predictions) reports progress; it is
// cancelled by terminating this worker, because a synchronous wasm call cannot read a cancel message.
import { GpprobeError } from '../engine/errors.ts';
import { createRegressionEngine, type GpRegression, type RegressionEngine } from '../engine/regression.ts';
import { parseDelimitedBlob } from '../io/delimited.ts';
import { FileError } from '../io/table.ts';
import type {
  ExperimentResult, FitRequest, FitResult, FromRegressionWorker, RegressionRequest, RegressionResponse, ToRegressionWorker,
} from './regression_protocol.ts';
import { buffersOf } from './transferables.ts';

/** Points of the example's true function and of the Fig. 3 model's curve. */
const TRUTH_POINTS = 400;
const TABLE_EXTENSIONS = /\.(csv|tsv|txt)$/i;

const enginePromise: Promise<RegressionEngine> = createRegressionEngine();

function post(message: FromRegressionWorker, transfer: Transferable[] = []): void {
  self.postMessage(message, { transfer });
}

function fit(engine: RegressionEngine, r: FitRequest, progress: (stage: string, done: number, total: number) => void): FitResult {
  const start = performance.now();
  const common = { x: r.x, y: r.y, kernel: r.kernel, noiseVariance: r.noiseVariance };
  const gp: GpRegression = r.optimize
    ? engine.optimize({ ...common, ...r.optimize, onProgress: (done, total) => progress('L-BFGS iteration budget used', done, total) })
    : engine.fit(common);
  try {
    progress('predicting', 0, 1);
    const data = gp.predict(r.x);
    const grid = r.grid ? gp.predict(r.grid) : null;
    const extra = r.extra && r.extra.rows > 0 ? gp.predict(r.extra) : null;
    const notes: string[] = [];
    let samples: Float64Array | null = null;
    if (r.grid && r.samples > 0) {
      try {
        samples = Float64Array.from(gp.sample(r.grid, r.samples, r.seed).data);
      } catch (error) {
        if (!(error instanceof GpprobeError)) throw error;
        notes.push(`no posterior samples: ${error.message}`);
      }
    }
    return { state: gp.state, data, grid, samples, extra, notes, seconds: (performance.now() - start) / 1000 };
  } finally {
    gp.dispose();
  }
}

/** The experiment's model on a grid over its test range: the learned kernel and noise refitted to
 * the normal training points (the experiment's own predictions are at scattered test points). */
function experimentGrid(engine: RegressionEngine, e: ExperimentResult['data']): Pick<ExperimentResult, 'gridX' | 'grid'> {
  const normal = Array.from(e.trainAnomaly.keys()).filter((i) => !e.trainAnomaly[i]);
  const x = Float64Array.from(normal, (i) => e.trainX[i]);
  const gp = engine.fit({ x: { data: x, rows: x.length, cols: 1 }, y: Float64Array.from(normal, (i) => e.trainY[i]),
    kernel: e.kernel, noiseVariance: e.noiseVariance });
  try {
    const lo = Math.min(...e.testX), hi = Math.max(...e.testX);
    const gridX = Float64Array.from({ length: TRUTH_POINTS }, (_, i) => lo + ((hi - lo) * i) / (TRUTH_POINTS - 1));
    return { gridX, grid: gp.predict({ data: gridX, rows: TRUTH_POINTS, cols: 1 }) };
  } finally {
    gp.dispose();
  }
}

async function handle(id: number, request: RegressionRequest): Promise<RegressionResponse> {
  const engine = await enginePromise;
  const progress = (stage: string, done: number, total: number) => post({ type: 'progress', id, stage, done, total });
  switch (request.kind) {
    case 'parse-csv': {
      if (!TABLE_EXTENSIONS.test(request.name)) {
        const extension = /\.[^.]*$/.exec(request.name)?.[0] ?? 'none';
        throw new FileError(request.name, `unsupported file type (${extension}); the regression lab reads .csv, .tsv or .txt`);
      }
      const parsed = await parseDelimitedBlob(request.file, request.name, {
        metadataOnly: true, onProgress: (f) => progress('reading', f, 1),
      });
      return { kind: 'parse-csv', value: { fileName: request.name, rows: parsed.rows, columns: parsed.columns } };
    }
    case 'example': {
      const example = engine.example(request.name, request.seed);
      const truthX = Float64Array.from({ length: TRUTH_POINTS },
        (_, i) => example.lower + ((example.upper - example.lower) * i) / (TRUTH_POINTS - 1));
      return { kind: 'example', value: { example, truthX, truth: engine.exampleTruth(request.name, truthX) } };
    }
    case 'prior': {
      const s = engine.samplePrior(request.kernel, request.grid, request.count, request.seed, request.mean);
      return { kind: 'prior', value: { samples: Float64Array.from(s.data), count: s.rows } };
    }
    case 'fit':
      return { kind: 'fit', value: fit(engine, request, progress) };
    case 'predict': {
      const gp = engine.fit({ x: request.x, y: request.y, kernel: request.kernel, noiseVariance: request.noiseVariance });
      try {
        return { kind: 'predict', value: gp.predict(request.test, { onProgress: (d, t) => progress('predicting', d, t) }) };
      } finally {
        gp.dispose();
      }
    }
    case 'classify':
      return { kind: 'classify', value: engine.classify(request.y, request.prediction, { rho: request.rho, theta: request.theta }) };
    case 'roc': {
      const [ungated] = engine.rocSweep(request.scores, request.isAnomaly, null, [0]);
      const [gated] = engine.rocSweep(request.scores, request.isAnomaly, request.knowledge, [request.rho]);
      return { kind: 'roc', value: { ungated, gated } };
    }
    case 'experiment': {
      const { status: _status, ...data } = engine.anomalyExperiment({
        seed: request.seed, statusRho: request.statusRho, theta: request.theta, rhos: request.rhos,
        onProgress: (done, total) => progress('fitting hyperparameters', done, total),
      });
      return { kind: 'experiment', value: { data, ...experimentGrid(engine, data) } };
    }
  }
}

self.addEventListener('message', (event: MessageEvent<ToRegressionWorker>) => {
  const { id, request } = event.data;
  handle(id, request).then(
    (response) => post({ type: 'result', id, response }, buffersOf(response)),
    (error: unknown) => {
      const code = error instanceof GpprobeError ? error.code : error instanceof FileError ? 'parse_error' : 'internal_error';
      post({ type: 'error', id, code, message: error instanceof Error ? error.message : String(error) });
    },
  );
});

enginePromise.then(
  () => post({ type: 'ready' }),
  (error: unknown) => post({ type: 'start-failed', message: `the regression engine could not start: ${String(error)}` }),
);
