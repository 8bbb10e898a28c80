// The one protocol between the page and the engine worker, for every lab. A request is
// { kind, ...fields }; each lab declares its kinds, with each one's result and cancel policy, in its
// own file (probe_protocol.ts, evaluation_protocol.ts, regression_protocol.ts, classification_protocol.ts)
// and this file joins them.
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
// How a request is cancelled is a property of its kind (CANCEL_POLICY, checked complete by the compiler):
//   'between-chunks'  its handler checks an AbortSignal between chunks (files, query blocks, trials,
//                     methods) and stops there with code "cancelled"
//   'terminate'       one long synchronous wasm call (the hyperparameter optimiser) cannot read a message:
//                     it runs on a second instance of the same worker, started when first needed and
//                     holding nothing but that work, and cancel terminates that instance (the next such
//                     request starts a fresh one). The first instance keeps the resident embeddings.
//   'none'            short work; cancel only drops the answer
//
// Adding a lab takes three files and two one-line registrations:
//   worker/<lab>_protocol.ts   `interface <Lab>Requests { '<kind>': { request: {...}; result: ... } }` and
//                              its policies; add `<Lab>Requests` to `Requests` and the policies below
//   worker/<lab>_handlers.ts   one function per kind (handler.ts); add them to engine_worker.ts's table
//   state/<lab>_store.ts + ui/<lab>/   send requests with engine_tasks.ts (startTask / request): the task
//                              bar shows progress and Cancel, and errors arrive as GpprobeErrors
import type { Progress } from '../../engine/progress.ts';
import { CERTIFY_POLICIES, type CertifyRequests } from '../../labs/classification/worker/certify_protocol.ts';
import { CLASSIFICATION_POLICIES, type ClassificationRequests } from '../../labs/classification/worker/protocol.ts';
import { EVALUATION_POLICIES, type EvaluationRequests } from '../../labs/evaluation/worker/protocol.ts';
import { PROBE_POLICIES, type ProbeRequests } from '../../labs/probe/worker/protocol.ts';
import { REGRESSION_POLICIES, type RegressionRequests } from '../../labs/regression/worker/protocol.ts';
import { VERDICT_POLICIES, type VerdictRequests } from '../../labs/probe/worker/verdict_protocol.ts';

export interface Requests extends ProbeRequests, EvaluationRequests, RegressionRequests, ClassificationRequests, CertifyRequests,
  VerdictRequests {}

export type RequestKind = keyof Requests;
/** The request of kind K (every kind when K is the whole union). */
export type Request<K extends RequestKind = RequestKind> = K extends RequestKind ? { kind: K } & Requests[K]['request'] : never;
export type ResultOf<K extends RequestKind> = Requests[K]['result'];

export type CancelPolicy = 'between-chunks' | 'terminate' | 'none';
/** The policies of a lab's request kinds. */
export type Policies<R> = { readonly [K in keyof R]: CancelPolicy };

export const CANCEL_POLICY: Policies<Requests> = {
  ...PROBE_POLICIES, ...EVALUATION_POLICIES, ...REGRESSION_POLICIES, ...CLASSIFICATION_POLICIES, ...CERTIFY_POLICIES,
  ...VERDICT_POLICIES,
};

/** Page -> worker. */
export type ToWorker =
  | { type: 'request'; id: number; request: Request }
  | { type: 'cancel'; id: number };

/** Worker -> page. id -1: the worker could not start. */
export type FromWorker =
  | { type: 'ready'; backend: string; threads: number; fused: boolean }
  | { type: 'progress'; id: number; progress: Progress }
  | { type: 'result'; id: number; kind: RequestKind; result: ResultOf<RequestKind> }
  | { type: 'error'; id: number; code: string; message: string };
