// Work sent to the engine worker as the user sees it: running tasks with progress and Cancel, and the
// messages (errors, notices) the app shows. Every request to the worker goes through here.
import { signal } from '@preact/signals';
import type { Results } from '../worker/protocol.ts';
import type { EngineClient, Progress, RunningRequest } from '../worker/worker_client.ts';

export interface Task {
  id: number;
  label: string;
  progress: Progress | null;
  /** Null when the work cannot stop part-way (one uninterruptible wasm call). */
  cancel: (() => void) | null;
}

export interface Message {
  id: number;
  kind: 'error' | 'info';
  text: string;
}

export const tasks = signal<Task[]>([]);
export const messages = signal<Message[]>([]);

let client: EngineClient | null = null;

/** The worker client all requests go through (set once at start-up). */
export function setEngineClient(c: EngineClient): void {
  client = c;
}

export function engine(): EngineClient {
  if (!client) throw new Error('the engine is not started');
  return client;
}

let nextMessage = 1;
export function notify(kind: Message['kind'], text: string): void {
  messages.value = [...messages.value.slice(-4), { id: nextMessage++, kind, text }];
}

export function dismiss(id: number): void {
  messages.value = messages.value.filter((m) => m.id !== id);
}

/** Requests the worker can stop part-way (it checks between chunks, files and trials). */
const CANCELLABLE = new Set(['load-files', 'load-urls', 'probe', 'experiment']);

/** Runs a worker request as a visible task with progress and cancel (quiet when label is null). */
export function track<T>(label: string | null, running: RunningRequest<T>, kind = 'probe'): Promise<T> {
  if (label === null) return running.result;
  const task: Task = { id: running.id, label, progress: null, cancel: CANCELLABLE.has(kind) ? running.cancel : null };
  tasks.value = [...tasks.value, task];
  return running.result.finally(() => {
    tasks.value = tasks.value.filter((t) => t.id !== running.id);
  });
}

/** Starts a worker request shown as a task (progress, Cancel) unless label is null; the caller may cancel it too. */
export function startTask<R extends Parameters<EngineClient['request']>[0]>(label: string | null, r: R): RunningRequest<Results[R['kind']]> {
  let running: RunningRequest<Results[R['kind']]>;
  const onProgress = (p: Progress) => {
    tasks.value = tasks.value.map((t) => (t.id === running.id ? { ...t, progress: p } : t));
  };
  running = engine().request(r, onProgress);
  return { ...running, result: track(label, running, r.kind) };
}

export function request<R extends Parameters<EngineClient['request']>[0]>(label: string | null, r: R): Promise<Results[R['kind']]> {
  return startTask(label, r).result;
}

export function isCancelled(error: unknown): boolean {
  return (error as { code?: string })?.code === 'cancelled';
}

export function report(error: unknown): void {
  if (!isCancelled(error)) notify('error', error instanceof Error ? error.message : String(error));
}
