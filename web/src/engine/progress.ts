// The one progress shape of the whole app, from the core's callbacks up to the task bar:
// { stage, done, total } — what is being done, and how far along (done of total units: queries,
// optimiser iterations, trials, bytes). Every engine call that takes `onProgress` reports this shape,
// the worker forwards it unchanged, and the TaskBar draws it. A report may carry a typed `detail`
// (ProgressDetail, a union by `kind`) for a view that draws the work as it goes.
import type { RobustnessCertificate } from './certify/classification_certify.ts';

/** Branch and bound's current interval [lower, upper] of one extreme, after `iterations` splits
 * (certified robustness: the library reports it after each split). */
export interface IntervalDetail {
  kind: 'interval';
  extremum: 'minimum' | 'maximum';
  iterations: number;
  lower: number;
  upper: number;
}

/** A certificate's bounds over the whole set, before branch and bound refines them (the engine
 * worker's certify handler sends it first, so the page shows the root bounds at once). */
export interface RootDetail {
  kind: 'root';
  certificate: RobustnessCertificate;
}

export type ProgressDetail = IntervalDetail | RootDetail;

export interface Progress {
  stage: string;
  done: number;
  total: number;
  detail?: ProgressDetail;
}

/** Returning false cancels a call that cannot see an AbortSignal (it stops with code "cancelled"). */
export type ProgressListener = (progress: Progress) => boolean | void;

/** The callback a core binding takes (done, total) for work called `stage`: it forwards progress and
 * answers false once `signal` is aborted or the listener returns false; null when neither is given. */
export function coreProgress(
  stage: string,
  listener?: ProgressListener,
  signal?: AbortSignal,
): ((done: number, total: number) => boolean) | null {
  if (!listener && !signal) return null;
  return (done, total) => listener?.({ stage, done, total }) !== false && !signal?.aborted;
}

/** Lets the event loop run (a worker reads its messages, e.g. a cancel) between chunks of long work. */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
