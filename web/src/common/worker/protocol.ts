// The one protocol between the page and the engine worker, for every lab. A request is
// { kind, ...fields }; each lab declares its kinds, with each one's result and cancel policy, in its
// own labs/<lab>/worker/lab_protocol.ts, and the lab registry (labs/protocol.ts) joins them: it fills in
// common/registry.ts, from which this file derives the union of every kind (no lab is imported here).
//
//   page -> worker  { type: 'request', id, request }  |  { type: 'cancel', id }
//   worker -> page  { type: 'ready', backend, threads, fused }  |  { type: 'progress', id, progress: { stage, done, total, detail? } }
//                   { type: 'result', id, kind, result }  |  { type: 'error', id, code, message }
//
// `detail` (engine/progress.ts ProgressDetail, a union by `kind`) carries what a view draws while the work
// runs: 'root' (a certificate's one-box bounds) and 'interval' (branch and bound's current interval).
//
// Arrays travel as typed arrays (results are transferred, requests copied so one can be sent again).
//
// How a request is cancelled is a property of its kind (labs/protocol.ts CANCEL_POLICY, checked complete
// by the compiler; the policies are in policies.ts):
//   'between-chunks'  its handler checks an AbortSignal between chunks (files, query blocks, trials,
//                     methods) and stops there with code "cancelled"
//   'terminate'       one long synchronous wasm call (the hyperparameter optimiser) cannot read a message:
//                     it runs on a second instance of the same worker, started when first needed and
//                     holding nothing but that work, and cancel terminates that instance (the next such
//                     request starts a fresh one). The first instance keeps the resident embeddings.
//   'none'            short work; cancel only drops the answer
//
// Adding a lab: docs/architecture.md "How to add a lab" (a registry entry in labs/index.ts; its kinds,
// handlers and view in its own folder's worker/lab_protocol.ts, worker/lab_handlers.ts, ui/lab_view.ts).
import type { Progress } from '../../engine/progress.ts';
import type { RegisteredRequests } from '../registry.ts';

export type { CancelPolicy, Policies } from './policies.ts';

/** Every request kind of every lab (common/registry.ts LabRequests), with its request and result. */
export type Requests = RegisteredRequests;

export type RequestKind = keyof Requests;
/** The request of kind K (every kind when K is the whole union). */
export type Request<K extends RequestKind = RequestKind> = K extends RequestKind
  ? { kind: K } & Requests[K]['request']
  : never;
export type ResultOf<K extends RequestKind> = Requests[K]['result'];

/** A request sent to the worker: its result, and cancel() by its kind's policy (app/engine_client.ts). */
export interface RunningRequest<T> {
  id: number;
  result: Promise<T>;
  cancel(): void;
}

/** Page -> worker. */
export type ToWorker = { type: 'request'; id: number; request: Request } | { type: 'cancel'; id: number };

/** Worker -> page. id -1: the worker could not start. */
export type FromWorker =
  | { type: 'ready'; backend: string; threads: number; fused: boolean }
  | { type: 'progress'; id: number; progress: Progress }
  | { type: 'result'; id: number; kind: RequestKind; result: ResultOf<RequestKind> }
  | { type: 'error'; id: number; code: string; message: string };
