// The page's side of the regression worker: one typed method per request kind, progress callbacks,
// and cancel(). A running wasm call cannot be interrupted from inside, so cancelling terminates the
// worker and starts a fresh one; the other requests that were waiting are sent again (every request
// carries its own data), and only the cancelled one fails, with code "cancelled".
import { GpprobeError, type GpprobeErrorCode } from '../engine/errors.ts';
import type {
  ExampleResult, ExperimentResult, FitRequest, FitResult, FromRegressionWorker, ParsedTable, RegressionRequest, RegressionResponse, RocResult,
  ToRegressionWorker,
} from './regression_protocol.ts';
import type { AnomalyClassification, RegressionPrediction } from '../engine/regression.ts';

export interface RegressionProgress {
  stage: string;
  done: number;
  total: number;
}

export interface Running<T> {
  result: Promise<T>;
  cancel(): void;
}

interface Pending {
  request: RegressionRequest;
  resolve(response: RegressionResponse): void;
  reject(error: Error): void;
  onProgress?: (p: RegressionProgress) => void;
}

const CODES: readonly GpprobeErrorCode[] = ['invalid_argument', 'dimension_mismatch', 'non_finite', 'numerical_failure',
  'parse_error', 'io_error', 'out_of_memory', 'cancelled', 'internal_error', 'disposed'];

function errorOf(code: string, message: string): GpprobeError {
  return new GpprobeError(CODES.find((c) => c === code) ?? 'internal_error', message);
}

type Request<K extends RegressionRequest['kind']> = Extract<RegressionRequest, { kind: K }>;

/** What the client needs of a Worker (a browser Worker is one; tests pass a stand-in). */
export interface WorkerPort {
  onmessage: ((event: MessageEvent<FromRegressionWorker>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
  postMessage(message: ToRegressionWorker): void;
  terminate(): void;
}

export class RegressionClient {
  readonly #spawn: () => WorkerPort;
  #worker: WorkerPort;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;

  /** `spawn` makes a new worker; it is called again after each cancel. */
  constructor(spawn: () => WorkerPort) {
    this.#spawn = spawn;
    this.#worker = this.#start();
  }

  #start(): WorkerPort {
    const worker = this.#spawn();
    worker.onmessage = (event) => this.#receive(event.data);
    worker.onerror = (event) => {
      const error = new GpprobeError('internal_error', `the regression worker failed: ${event.message}`);
      for (const p of this.#pending.values()) p.reject(error);
      this.#pending.clear();
    };
    return worker;
  }

  #receive(m: FromRegressionWorker): void {
    if (m.type === 'ready') return;
    if (m.type === 'start-failed') {
      for (const p of this.#pending.values()) p.reject(new GpprobeError('internal_error', m.message));
      this.#pending.clear();
      return;
    }
    const pending = this.#pending.get(m.id);
    if (!pending) return;  // a request that was cancelled meanwhile
    if (m.type === 'progress') {
      pending.onProgress?.({ stage: m.stage, done: m.done, total: m.total });
      return;
    }
    this.#pending.delete(m.id);
    if (m.type === 'result') pending.resolve(m.response);
    else pending.reject(errorOf(m.code, m.message));
  }

  #post(id: number, request: RegressionRequest): void {
    // Copied, not transferred: the page keeps its arrays, and the request can be sent again.
    this.#worker.postMessage({ id, request } satisfies ToRegressionWorker);
  }

  #cancel(id: number): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    // Whatever the old worker had already posted must not answer requests that now run elsewhere.
    this.#worker.onmessage = null;
    this.#worker.onerror = null;
    this.#worker.terminate();
    this.#worker = this.#start();
    for (const [other, p] of this.#pending) this.#post(other, p.request);
    pending.reject(new GpprobeError('cancelled', 'cancelled'));
  }

  #run<T>(request: RegressionRequest, unwrap: (r: RegressionResponse) => T | undefined,
    onProgress?: (p: RegressionProgress) => void): Running<T> {
    const id = this.#nextId++;
    const result = new Promise<T>((resolve, reject) => {
      this.#pending.set(id, {
        request, reject, onProgress,
        resolve: (response) => {
          const value = unwrap(response);
          if (value === undefined) reject(new GpprobeError('internal_error', `a ${request.kind} request was answered with ${response.kind}`));
          else resolve(value);
        },
      });
    });
    this.#post(id, request);
    return { result, cancel: () => this.#cancel(id) };
  }

  parseCsv(r: Request<'parse-csv'>, onProgress?: (p: RegressionProgress) => void): Running<ParsedTable> {
    return this.#run(r, (x) => (x.kind === 'parse-csv' ? x.value : undefined), onProgress);
  }

  example(r: Request<'example'>): Running<ExampleResult> {
    return this.#run(r, (x) => (x.kind === 'example' ? x.value : undefined));
  }

  prior(r: Request<'prior'>): Running<{ samples: Float64Array; count: number }> {
    return this.#run(r, (x) => (x.kind === 'prior' ? x.value : undefined));
  }

  fit(r: FitRequest, onProgress?: (p: RegressionProgress) => void): Running<FitResult> {
    return this.#run(r, (x) => (x.kind === 'fit' ? x.value : undefined), onProgress);
  }

  predict(r: Request<'predict'>, onProgress?: (p: RegressionProgress) => void): Running<RegressionPrediction> {
    return this.#run(r, (x) => (x.kind === 'predict' ? x.value : undefined), onProgress);
  }

  classify(r: Request<'classify'>): Running<AnomalyClassification> {
    return this.#run(r, (x) => (x.kind === 'classify' ? x.value : undefined));
  }

  roc(r: Request<'roc'>): Running<RocResult> {
    return this.#run(r, (x) => (x.kind === 'roc' ? x.value : undefined));
  }

  experiment(r: Request<'experiment'>, onProgress?: (p: RegressionProgress) => void): Running<ExperimentResult> {
    return this.#run(r, (x) => (x.kind === 'experiment' ? x.value : undefined), onProgress);
  }

  terminate(): void {
    this.#worker.terminate();
    for (const p of this.#pending.values()) p.reject(new GpprobeError('cancelled', 'the regression worker was stopped'));
    this.#pending.clear();
  }
}
