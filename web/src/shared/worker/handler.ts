// What a request handler of the engine worker receives and returns (engine_worker.ts calls them; each
// lab's <lab>_handlers.ts exports a table of them, one per kind of its protocol).
import type { ClassificationEngine } from '../../engine/classification/classification.ts';
import type { Progress } from '../../engine/progress.ts';
import type { ProbeEngine } from '../../engine/probe/probe_engine.ts';
import type { RegressionEngine } from '../../engine/regression/regression.ts';
import type { Request, RequestKind, ResultOf } from './protocol.ts';

/** The engines of the worker's one wasm module. */
export interface Engines {
  probe: ProbeEngine;
  regression: RegressionEngine;
  classification: ClassificationEngine;
}

export interface HandlerContext {
  engines: Engines;
  /** Aborted when the page cancels the request (policy 'between-chunks': check it between chunks). */
  signal: AbortSignal;
  progress(progress: Progress): void;
}

export type Handler<K extends RequestKind> = (request: Request<K>, context: HandlerContext) => ResultOf<K> | Promise<ResultOf<K>>;

/** One handler per kind of a lab's protocol (R: that lab's Requests interface). */
export type Handlers<R> = { [K in keyof R & RequestKind]: Handler<K> };
