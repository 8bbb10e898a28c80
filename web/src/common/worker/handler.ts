// What a request handler of the engine worker receives and returns (engine_worker.ts calls them; each
// lab's labs/<lab>/worker/lab_handlers.ts exports a table of them, one per kind of its protocol, and the
// registry's worker part, labs/worker.ts, joins the tables). The engines are common/worker/engines.ts.
import type { Progress } from '../../engine/progress.ts';
import type { EngineName, Engines } from './engines.ts';
import type { Request, RequestKind, ResultOf } from './protocol.ts';

export type { Engines } from './engines.ts';

/** What a handler gets beside its request; E: the engines it may use (its lab's, labs/index.ts). */
export interface HandlerContext<E extends EngineName = EngineName> {
  engines: Pick<Engines, E>;
  /** Aborted when the page cancels the request (policy 'between-chunks': check it between chunks). */
  signal: AbortSignal;
  progress(progress: Progress): void;
}

export type Handler<K extends RequestKind, E extends EngineName = EngineName> = (
  request: Request<K>,
  context: HandlerContext<E>,
) => ResultOf<K> | Promise<ResultOf<K>>;

/** One handler per kind of a lab's protocol (R: that lab's Requests interface; E: its engine). */
export type Handlers<R, E extends EngineName = EngineName> = { [K in keyof R & RequestKind]: Handler<K, E> };
