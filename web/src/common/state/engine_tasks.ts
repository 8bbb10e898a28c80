// The one task store: work sent to the engine worker as the user sees it, for every lab — running
// tasks with their progress ({ stage, done, total }) and, when their kind can be cancelled, a Cancel —
// and the messages (errors, notices) the app shows. Every request to the worker goes through here
// (startTask / request); the TaskBar component draws the tasks.
import { signal } from '@preact/signals';
import { isCancelled } from '../../engine/errors.ts';
import type { Progress } from '../../engine/progress.ts';
import type { CancelPolicy, Request, RequestKind, ResultOf, RunningRequest } from '../worker/protocol.ts';

export interface Task {
  id: number;
  label: string;
  kind: RequestKind;
  progress: Progress | null;
  /** Null when the work cannot stop part-way (policy 'none': short work). */
  cancel: (() => void) | null;
}

export interface Message {
  id: number;
  kind: 'error' | 'info';
  text: string;
  /** How many times it was said (an identical message is not shown twice: its count goes up). */
  count: number;
}

export const tasks = signal<Task[]>([]);
export const messages = signal<Message[]>([]);

/** What the task store needs of the worker's client (app/engine_client.ts EngineClient). */
export interface TaskClient {
  request<K extends RequestKind>(request: Request<K>, onProgress?: (p: Progress) => void): RunningRequest<ResultOf<K>>;
  policyOf(kind: RequestKind): CancelPolicy;
}

let client: TaskClient | null = null;

/** The worker client all requests go through (set once at start-up). */
export function setEngineClient(c: TaskClient): void {
  client = c;
}

function engine(): TaskClient {
  if (!client) throw new Error('the engine is not started');
  return client;
}

let nextMessage = 1;
export function notify(kind: Message['kind'], text: string): void {
  const same = messages.value.find((m) => m.kind === kind && m.text === text);
  const others = messages.value.filter((m) => m !== same);
  // A repeat moves to the end with a new id (so a notice's timer starts again) and one more in its count.
  messages.value = [...others.slice(-4), { id: nextMessage++, kind, text, count: (same?.count ?? 0) + 1 }];
}

export function dismiss(id: number): void {
  messages.value = messages.value.filter((m) => m.id !== id);
}

/** Shows an error unless it is a cancellation. */
export function report(error: unknown): void {
  if (!isCancelled(error)) notify('error', error instanceof Error ? error.message : String(error));
}

/**
 * Sends a request to the worker; unless `label` is null it is shown as a task (progress, and Cancel
 * when its kind's policy allows) until it settles. The caller may cancel it too, and may watch its
 * progress (`onProgress`: e.g. the details a view draws while it runs).
 */
export function startTask<K extends RequestKind>(
  label: string | null,
  r: Request<K>,
  onProgress?: (p: Progress) => void,
): RunningRequest<ResultOf<K>> {
  let id = -1;
  const client = engine();
  const running = client.request(r, (progress) => {
    onProgress?.(progress);
    tasks.value = tasks.value.map((t) => (t.id === id ? { ...t, progress } : t));
  });
  id = running.id;
  if (label === null) return running;
  tasks.value = [
    ...tasks.value,
    { id, label, kind: r.kind, progress: null, cancel: client.policyOf(r.kind) === 'none' ? null : running.cancel },
  ];
  const result = running.result.finally(() => {
    tasks.value = tasks.value.filter((t) => t.id !== id);
  });
  return { ...running, result };
}

export function request<K extends RequestKind>(label: string | null, r: Request<K>): Promise<ResultOf<K>> {
  return startTask(label, r).result;
}
