// The page's side of the engine worker: typed requests that resolve with their results, progress
// callbacks, and cancel(). The main thread never runs the engine; it only draws.
import { GpprobeError, type GpprobeErrorCode } from '../engine/errors.ts';
import type { FromWorker, Request, Results, ToWorker } from './protocol.ts';

export interface Progress {
  stage: string;
  fraction: number;
}

export interface RunningRequest<T> {
  id: number;
  result: Promise<T>;
  cancel(): void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  onProgress?: (p: Progress) => void;
}

/** Error codes of the worker that are not engine codes. */
const CODES = new Set(['invalid_argument', 'dimension_mismatch', 'non_finite', 'numerical_failure', 'parse_error',
  'io_error', 'out_of_memory', 'cancelled', 'internal_error', 'disposed']);

export class EngineClient {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  readonly ready: Promise<string>;

  constructor(worker: Worker) {
    this.#worker = worker;
    let resolveReady!: (backend: string) => void, rejectReady!: (e: Error) => void;
    this.ready = new Promise((resolve, reject) => {
      resolveReady = resolve;
      rejectReady = reject;
    });
    worker.onmessage = (event: MessageEvent<FromWorker>) => {
      const m = event.data;
      if (m.type === 'ready') {
        resolveReady(m.backend);
        return;
      }
      if (m.type === 'error' && m.id === -1) {
        rejectReady(new GpprobeError('internal_error', m.message));
        return;
      }
      const pending = this.#pending.get(m.id);
      if (!pending) return;
      if (m.type === 'progress') {
        pending.onProgress?.({ stage: m.stage, fraction: m.fraction });
        return;
      }
      this.#pending.delete(m.id);
      if (m.type === 'result') pending.resolve(m.result);
      else pending.reject(new GpprobeError((CODES.has(m.code) ? m.code : 'internal_error') as GpprobeErrorCode, m.message));
    };
    worker.onerror = (event) => {
      const error = new GpprobeError('internal_error', `the engine worker failed: ${event.message}`);
      rejectReady(error);
      for (const p of this.#pending.values()) p.reject(error);
      this.#pending.clear();
    };
  }

  /** Sends `request`; its result arrives typed by the request's kind. */
  request<R extends Request>(request: R, onProgress?: (p: Progress) => void): RunningRequest<Results[R['kind']]> {
    const id = this.#nextId++;
    const result = new Promise<Results[R['kind']]>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onProgress });
    });
    const message: ToWorker = { type: 'request', id, request };
    const transfer = request.kind === 'probe' ? [request.observations.buffer, request.labels.buffer] as Transferable[] : [];
    this.#worker.postMessage(message, transfer);
    return { id, result, cancel: () => this.#worker.postMessage({ type: 'cancel', id } satisfies ToWorker) };
  }

  terminate(): void {
    this.#worker.terminate();
  }
}
