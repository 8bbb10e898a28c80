// The page's one client of the engine worker: typed requests of every lab that resolve with their
// results, progress in the one shape { stage, done, total }, and cancel() by the policy of the request's
// kind (labs/protocol.ts CANCEL_POLICY):
//
//   'between-chunks'  the worker is told; the request ends (code "cancelled") at its next chunk boundary
//   'none'            the worker is told (it skips the request if it has not started); the answer is dropped
//   'terminate'       the request runs on a second instance of the same worker script, started when first
//                     needed; cancel terminates that instance at once, even inside a wasm call, and the
//                     other requests waiting there are sent again to a fresh one (every such request
//                     carries its own data, and that instance holds nothing else)
//
// The first instance holds the resident embeddings and is never terminated by a cancel. So the default
// page (the probe lab) runs one wasm module instance; a second one exists only from the first
// hyperparameter fit (regression or classification lab) or Fig. 3 run, until a cancel ends it.
import { errorOf, GpprobeError } from '../engine/errors.ts';
import type { Progress } from '../engine/progress.ts';
import type {
  CancelPolicy,
  FromWorker,
  Request,
  RequestKind,
  ResultOf,
  RunningRequest,
  ToWorker,
} from '../common/worker/protocol.ts';
import { CANCEL_POLICY } from '../labs/protocol.ts';

export type { RunningRequest } from '../common/worker/protocol.ts';

/** What the client needs of a Worker (a browser Worker is one; tests pass a stand-in). */
export interface WorkerPort {
  onmessage: ((event: MessageEvent<FromWorker>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
  postMessage(message: ToWorker): void;
  terminate(): void;
}

interface Pending {
  request: Request;
  port: WorkerPort;
  resolve(value: unknown): void;
  reject(error: Error): void;
  onProgress?: (p: Progress) => void;
}

/** What the engine worker reports once its module is loaded. */
export interface EngineInfo {
  backend: string;
  threads: number;
  /** Whether the products' multiply-adds fuse (the relaxed-SIMD build on an engine with FMA). */
  fused: boolean;
}

export class EngineClient {
  readonly #spawn: () => WorkerPort;
  readonly #resident: WorkerPort;
  #terminable: WorkerPort | null = null;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  /** The resident instance's backend ("wasm-relaxed-simd" or "wasm-simd128") and threads, once its module is loaded. */
  readonly ready: Promise<EngineInfo>;

  /** `spawn` starts an instance of the engine worker script (engine_worker.ts). */
  constructor(spawn: () => WorkerPort) {
    this.#spawn = spawn;
    let resolveReady!: (info: EngineInfo) => void, rejectReady!: (e: Error) => void;
    this.ready = new Promise((resolve, reject) => {
      resolveReady = resolve;
      rejectReady = reject;
    });
    this.ready.catch(() => undefined); // reported by whoever awaits it
    this.#resident = this.#start(resolveReady, rejectReady);
  }

  /** How a request of `kind` is cancelled (the task bar offers Cancel unless 'none'). */
  policyOf(kind: RequestKind): CancelPolicy {
    return CANCEL_POLICY[kind];
  }

  /** Sends `request`; its result arrives typed by the request's kind. */
  request<K extends RequestKind>(request: Request<K>, onProgress?: (p: Progress) => void): RunningRequest<ResultOf<K>> {
    const id = this.#nextId++;
    const port = CANCEL_POLICY[request.kind] === 'terminate' ? this.#terminablePort() : this.#resident;
    const result = new Promise<ResultOf<K>>((resolve, reject) => {
      this.#pending.set(id, { request, port, resolve: resolve as (value: unknown) => void, reject, onProgress });
    });
    port.postMessage({ type: 'request', id, request });
    return { id, result, cancel: () => this.#cancel(id) };
  }

  /** Stops every instance; what was pending fails with "cancelled". */
  terminate(): void {
    this.#resident.terminate();
    this.#terminable?.terminate();
    for (const p of this.#pending.values()) p.reject(new GpprobeError('cancelled', 'the engine was stopped'));
    this.#pending.clear();
  }

  #terminablePort(): WorkerPort {
    this.#terminable ??= this.#start(
      () => undefined,
      () => undefined,
    ); // failures reach its requests
    return this.#terminable;
  }

  #start(onReady: (info: EngineInfo) => void, onFailure: (e: Error) => void): WorkerPort {
    const port = this.#spawn();
    const fail = (error: Error) => {
      onFailure(error);
      this.#failAll(port, error);
    };
    port.onmessage = (event) => {
      const m = event.data;
      if (m.type === 'ready') onReady({ backend: m.backend, threads: m.threads, fused: m.fused });
      else if (m.type === 'error' && m.id === -1) fail(new GpprobeError('internal_error', m.message));
      else this.#receive(m);
    };
    port.onerror = (event) => fail(new GpprobeError('internal_error', `the engine worker failed: ${event.message}`));
    return port;
  }

  #receive(m: Exclude<FromWorker, { type: 'ready' }>): void {
    const pending = this.#pending.get(m.id);
    if (!pending) return; // cancelled meanwhile, or answered by an instance since replaced
    if (m.type === 'progress') {
      pending.onProgress?.(m.progress);
      return;
    }
    this.#pending.delete(m.id);
    if (m.type === 'error') pending.reject(errorOf(m.code, m.message));
    else if (m.kind !== pending.request.kind) {
      pending.reject(
        new GpprobeError('internal_error', `a ${pending.request.kind} request was answered with ${m.kind}`),
      );
    } else pending.resolve(m.result);
  }

  #failAll(port: WorkerPort, error: Error): void {
    for (const [id, p] of this.#pending) {
      if (p.port !== port) continue;
      this.#pending.delete(id);
      p.reject(error);
    }
  }

  #cancel(id: number): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    const policy = CANCEL_POLICY[pending.request.kind];
    if (policy === 'between-chunks') {
      pending.port.postMessage({ type: 'cancel', id });
      return;
    }
    this.#pending.delete(id);
    if (policy === 'none') {
      pending.port.postMessage({ type: 'cancel', id });
    } else {
      // Whatever the old instance had already posted must not answer requests that now run elsewhere.
      const old = pending.port;
      old.onmessage = null;
      old.onerror = null;
      old.terminate();
      this.#terminable = null;
      for (const [other, p] of this.#pending) {
        if (p.port !== old) continue;
        p.port = this.#terminablePort();
        p.port.postMessage({ type: 'request', id: other, request: p.request });
      }
    }
    pending.reject(new GpprobeError('cancelled', 'cancelled'));
  }
}
