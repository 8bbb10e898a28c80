// The engine's thread: loads the wasm module once, parses uploads, keeps the embeddings resident in
// the wasm heap, keeps the probe up to date, and answers the page's requests (protocol.ts) with
// progress. A cancel message aborts the request at its next chunk boundary.
import { beliefAtObservedPoint, beliefDensities, beliefEnvelope, principalComponents } from '../engine/analysis.ts';
import { GpprobeError } from '../engine/errors.ts';
import { createProbeEngine, type ProbeEngine, type ProbeScores } from '../engine/probe_engine.ts';
import type { ResidentMatrix } from '../engine/resident_matrix.ts';
import { loadDataset, type Dataset } from '../io/load_files.ts';
import { FileError } from '../io/table.ts';
import { handleEvaluation } from './evaluation_handlers.ts';
import { ProbeSession } from './probe_session.ts';
import type { BeliefCurve, DatasetRole, DatasetSummary, FromWorker, Request, Results, ToWorker } from './protocol.ts';
import { buffersOf } from './transferables.ts';

/** A loaded dataset as the worker keeps it: only the embeddings, resident in the wasm heap. */
interface Loaded {
  name: string;
  resident: ResidentMatrix;
}

const scope = self as unknown as { postMessage(message: FromWorker, transfer?: Transferable[]): void; onmessage: ((e: MessageEvent<ToWorker>) => void) | null };

const enginePromise: Promise<ProbeEngine> = createProbeEngine();
const loaded: Partial<Record<DatasetRole, Loaded>> = {};
const session = new ProbeSession();
const running = new Map<number, AbortController>();

function post(message: FromWorker, transfer: Transferable[] = []): void {
  scope.postMessage(message, transfer);
}

function summary(role: DatasetRole, d: Dataset): DatasetSummary {
  return { role, name: d.name, files: d.files, rows: d.embeddings.rows, cols: d.embeddings.cols, columns: d.columns, notes: d.notes };
}

async function adopt(role: DatasetRole, dataset: Dataset, signal: AbortSignal): Promise<DatasetSummary> {
  const engine = await enginePromise;
  // The last moment a cancel can keep what was loaded before.
  if (signal.aborted) throw new FileError(dataset.name, 'loading cancelled');
  const main = loaded.main;
  if (role === 'ood' && main && dataset.embeddings.cols !== main.resident.cols) {
    throw new FileError(dataset.name, `has ${dataset.embeddings.cols} columns, the embeddings have ${main.resident.cols}`);
  }
  // Only now, with the new data fully parsed, replace what was loaded.
  const resident = engine.upload(dataset.embeddings, role === 'main' ? 'embeddings' : 'OOD embeddings');
  loaded[role]?.resident.dispose();
  // From here the embeddings live once, in the wasm heap; the page keeps the metadata columns.
  loaded[role] = { name: dataset.name, resident };
  if (role === 'main') {
    session.reset();
    if (loaded.ood && loaded.ood.resident.cols !== resident.cols) {
      loaded.ood.resident.dispose();
      delete loaded.ood;
    }
  }
  return summary(role, dataset);
}

function stages(id: number, stage: string) {
  return (done: number, total: number) => post({ type: 'progress', id, stage, fraction: total > 0 ? done / total : 0 });
}

async function scoreAll(probe: NonNullable<ProbeSession['probe']>, id: number, signal: AbortSignal): Promise<{ scores: ProbeScores; oodScores: ProbeScores | null }> {
  const main = loaded.main!;
  const ood = loaded.ood;
  const total = main.resident.rows + (ood?.resident.rows ?? 0);
  const scores = await probe.scoreAsync(main.resident, {
    signal, chunkRows: 4096, onProgress: (done) => post({ type: 'progress', id, stage: 'scoring', fraction: done / total }),
  });
  const oodScores = ood ? await probe.scoreAsync(ood.resident, {
    signal, chunkRows: 4096, onProgress: (done) => post({ type: 'progress', id, stage: 'scoring OOD set', fraction: (main.resident.rows + done) / total }),
  }) : null;
  return { scores, oodScores };
}

function beliefCurve(engine: ProbeEngine, grid: Float64Array, epsilon: number, strength: number, positives: number, negatives: number): BeliefCurve {
  const b = beliefAtObservedPoint(engine, epsilon, strength, positives, negatives);
  const d = beliefDensities(engine, grid, { mean: b.latentMean, variance: b.latentVariance }, { a: b.betaA, b: b.betaB });
  return { beta: d.beta, approximation: d.logitNormal };
}

async function handle(id: number, request: Request, signal: AbortSignal): Promise<Results[Request['kind']]> {
  const engine = await enginePromise;
  switch (request.kind) {
    case 'load-files': {
      const dataset = await loadDataset(request.files, { signal, onProgress: (f) => post({ type: 'progress', id, stage: 'reading', fraction: f }) });
      return adopt(request.role, dataset, signal);
    }
    case 'load-urls': {
      const files: { blob: Blob; name: string }[] = [];
      for (const [k, u] of request.urls.entries()) {
        post({ type: 'progress', id, stage: `downloading ${u.name}`, fraction: k / request.urls.length });
        const response = await fetch(u.url, { signal });
        if (!response.ok) throw new FileError(u.name, `could not be downloaded (HTTP ${response.status})`);
        files.push({ blob: await response.blob(), name: u.name });
      }
      const dataset = await loadDataset(files, { signal, onProgress: (f) => post({ type: 'progress', id, stage: 'reading', fraction: f }) });
      dataset.name = request.name;
      return adopt(request.role, dataset, signal);
    }
    case 'clear-dataset': {
      loaded[request.role]?.resident.dispose();
      delete loaded[request.role];
      if (request.role === 'main') session.reset();
      return null;
    }
    case 'probe': {
      const main = loaded.main;
      if (!main) throw new GpprobeError('invalid_argument', 'no embeddings are loaded');
      const start = performance.now();
      post({ type: 'progress', id, stage: 'fitting', fraction: 0 });
      const update = session.update(engine, main.resident, request.epsilon, request.strength, request.observations, request.labels);
      const probe = session.probe!;
      const { scores, oodScores } = await scoreAll(probe, id, signal);
      return { scores, oodScores, space: probe.space, observationCount: probe.observationCount, update, seconds: (performance.now() - start) / 1000 };
    }
    case 'map': {
      const main = loaded.main;
      if (!main) throw new GpprobeError('invalid_argument', 'no embeddings are loaded');
      const pc = principalComponents(engine, main.resident, { k: 2, onProgress: stages(id, 'computing the map') });
      const n = main.resident.rows;
      const x = new Float64Array(n), y = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        x[i] = pc.scores[2 * i];
        y[i] = pc.scores[2 * i + 1];
      }
      return { x, y, explained: [pc.explainedVariance[0], pc.explainedVariance[1]], totalVariance: pc.totalVariance };
    }
    case 'belief-preview': {
      const { epsilon, strength, grid } = request;
      return {
        prior: beliefCurve(engine, grid, epsilon, strength, 0, 0),
        oneNegative: beliefCurve(engine, grid, epsilon, strength, 0, 1),
        onePositiveOneNegative: beliefCurve(engine, grid, epsilon, strength, 1, 1),
      };
    }
    case 'query-belief': {
      const prior = beliefAtObservedPoint(engine, request.epsilon, 1, 0, 0);
      const posterior = beliefDensities(engine, request.grid, { mean: request.mean, variance: request.variance }, { a: 1, b: 1 });
      const priorDensity = beliefDensities(engine, request.grid, { mean: prior.latentMean, variance: prior.latentVariance }, { a: 1, b: 1 });
      return { posterior: posterior.logitNormal, prior: priorDensity.logitNormal };
    }
    case 'envelope':
      return beliefEnvelope(engine, request.epsilon, { points: 160 });
    case 'experiment':
    case 'ood-baselines':
      return handleEvaluation(engine, request, {
        main: loaded.main?.resident, ood: loaded.ood?.resident, signal, progress: (stage, fraction) => post({ type: 'progress', id, stage, fraction }),
      });
  }
}

scope.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  if (message.type === 'cancel') {
    running.get(message.id)?.abort();
    return;
  }
  const { id, request } = message;
  const controller = new AbortController();
  running.set(id, controller);
  handle(id, request, controller.signal).then(
    (result) => post({ type: 'result', id, kind: request.kind, result }, buffersOf(result)),
    (error: unknown) => {
      const cancelled = controller.signal.aborted;
      const code = cancelled ? 'cancelled' : error instanceof GpprobeError ? error.code : error instanceof FileError ? 'parse_error' : 'internal_error';
      const text = error instanceof Error ? error.message : String(error);
      post({ type: 'error', id, code, message: cancelled ? 'cancelled' : text });
    },
  ).finally(() => running.delete(id));
};

enginePromise.then(
  (engine) => post({ type: 'ready', backend: engine.backend }),
  (error: unknown) => post({ type: 'error', id: -1, code: 'internal_error', message: `the engine could not start: ${String(error)}` }),
);
