// The app's state and the actions on it. Signals hold what the UI shows; every change of the session
// goes through commit() (recorded for undo, saved to browser storage); engine work goes to the worker.
import { batch, computed, effect, signal } from '@preact/signals';
import type { BeliefEnvelope } from '../engine/analysis.ts';
import type { ProbeScores } from '../engine/probe_engine.ts';
import type { Column } from '../io/table.ts';
import type { DatasetRole, DatasetSummary, Results } from '../worker/protocol.ts';
import { EngineClient, type Progress, type RunningRequest } from '../worker/worker_client.ts';
import { deleteFiles, loadFiles, saveFiles } from './file_store.ts';
import {
  conceptLabels, DEFAULT_SESSION, defaultConcept, drawObservations, queryRows as subsetRows, parseSession, record, redo as redoHistory, undo as undoHistory,
  type Concept, type History, type Session,
} from './session.ts';

export interface DemoEntry {
  id: string;
  title: string;
  description: string;
  files: string[];
  ood?: string[];
  session?: Partial<Pick<Session, 'concept' | 'draw' | 'ood' | 'epsilon' | 'strength' | 'queries'>>;
}

export interface ProbeResults {
  scores: ProbeScores;
  oodScores: ProbeScores | null;
  space: string;
  seconds: number;
  update: Results['probe']['update'];
  /** The session the results belong to (the UI marks them stale when it changes). */
  basis: string;
}

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

const SESSION_KEY = 'gpprobe.session.v1';

// ---- state ----
export const backend = signal<string | null>(null);
export const demos = signal<DemoEntry[]>([]);
export const dataset = signal<DatasetSummary | null>(null);
export const oodDataset = signal<DatasetSummary | null>(null);
export const session = signal<Session>(DEFAULT_SESSION);
export const history = signal<History>({ past: [], future: [] });
export const results = signal<ProbeResults | null>(null);
export const map = signal<Results['map'] | null>(null);
export const envelope = signal<BeliefEnvelope | null>(null);
export const preview = signal<Results['belief-preview'] | null>(null);
export const queryBelief = signal<Results['query-belief'] | null>(null);
export const selected = signal<number | null>(null);
export const tasks = signal<Task[]>([]);
export const messages = signal<Message[]>([]);
export const autoRun = signal(true);

export const columns = computed<Column[]>(() => dataset.value?.columns ?? []);
export const labels = computed<Uint8Array | null>(() => {
  const d = dataset.value, c = session.value.concept;
  return d && c ? conceptLabels(c, d.columns, d.rows) : null;
});
/** Rows of the query subset (null: all rows). Plots, table and export show these. */
export const queryRows = computed<Int32Array | null>(() => {
  const d = dataset.value;
  return d ? subsetRows(session.value.queries, d.columns, d.rows) : null;
});

/** The part of the session results depend on. */
const probeBasis = computed(() => {
  const s = session.value;
  return JSON.stringify([dataset.value?.name, dataset.value?.rows, oodDataset.value?.name, s.concept, s.observations, s.epsilon, s.strength]);
});
export const resultsStale = computed(() => results.value !== null && results.value.basis !== probeBasis.value);
export const canUndo = computed(() => history.value.past.length > 0);
export const canRedo = computed(() => history.value.future.length > 0);

// ---- engine ----
let client: EngineClient | null = null;

function engine(): EngineClient {
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
function track<T>(label: string | null, running: RunningRequest<T>, kind = 'probe'): Promise<T> {
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

function request<R extends Parameters<EngineClient['request']>[0]>(label: string | null, r: R): Promise<Results[R['kind']]> {
  return startTask(label, r).result;
}

function isCancelled(error: unknown): boolean {
  return (error as { code?: string })?.code === 'cancelled';
}

function report(error: unknown): void {
  if (!isCancelled(error)) notify('error', error instanceof Error ? error.message : String(error));
}

// ---- session changes ----

let lastCoalesce: { key: string; at: number } | null = null;

/**
 * Replaces the session, recording the previous one for undo. Changes with the same `coalesce` key
 * less than a second apart (a slider being dragged) share one undo step.
 */
export function commit(next: Session, coalesce?: string): void {
  if (JSON.stringify(next) === JSON.stringify(session.value)) return;
  const now = Date.now();
  const merge = coalesce !== undefined && lastCoalesce?.key === coalesce && now - lastCoalesce.at < 1000 && history.value.past.length > 0;
  lastCoalesce = coalesce === undefined ? null : { key: coalesce, at: now };
  batch(() => {
    if (!merge) history.value = record(history.value, session.value);
    session.value = next;
  });
}

export function undo(): void {
  const r = undoHistory(history.value, session.value);
  if (r) batch(() => { history.value = r.history; session.value = r.session; });
}

export function redo(): void {
  const r = redoHistory(history.value, session.value);
  if (r) batch(() => { history.value = r.history; session.value = r.session; });
}

export function setConcept(concept: Concept | null): void {
  commit({ ...session.value, concept });
}

export function setHyperparameters(epsilon: number, strength: number): void {
  if (!(epsilon > 0) || !(strength > 0)) return;
  commit({ ...session.value, epsilon, strength }, 'hyperparameters');
}

export function setDraw(perClass: number, seed: number): void {
  commit({ ...session.value, draw: { perClass, seed } });
}

/** Draws `perClass` observations of each class of the concept (seeded). */
export function draw(perClass = session.value.draw.perClass, seed = session.value.draw.seed): void {
  const y = labels.value;
  if (!y) {
    notify('info', 'Choose a concept first: observations are drawn per class.');
    return;
  }
  commit({ ...session.value, draw: { perClass, seed }, observations: drawObservations(y, perClass, seed) });
}

export function setObservations(rows: number[]): void {
  commit({ ...session.value, observations: [...new Set(rows)].sort((a, b) => a - b) });
}

export function toggleObservation(row: number): void {
  const rows = session.value.observations;
  setObservations(rows.includes(row) ? rows.filter((r) => r !== row) : [...rows, row]);
}

// ---- data ----

function sessionFor(data: Session['data'], template: Partial<Session> = {}): Session {
  return { ...DEFAULT_SESSION, epsilon: session.value.epsilon, strength: session.value.strength, ...template, data, observations: [] };
}

async function afterMainDataset(d: DatasetSummary, next: Session): Promise<void> {
  batch(() => {
    dataset.value = d;
    results.value = null;
    map.value = null;
    selected.value = null;
    history.value = { past: [], future: [] };
    session.value = next;
    if (next.ood.kind !== 'file') oodDataset.value = null;
  });
  if (session.value.observations.length === 0 && session.value.concept) draw();
  history.value = { past: [], future: [] };
  request('Computing the map', { kind: 'map' }).then((m) => { map.value = m; }, report);
}

export async function loadDemo(id: string): Promise<void> {
  const demo = demos.value.find((d) => d.id === id);
  if (!demo) {
    notify('error', `demo "${id}" is not available`);
    return;
  }
  const base = new URL(`demo/${demo.id}/`, document.baseURI);
  try {
    const summary = await request(`Loading ${demo.title}`, {
      kind: 'load-urls', role: 'main', name: demo.title,
      urls: demo.files.map((f) => ({ url: new URL(f, base).href, name: f })),
    });
    const template = demo.session ?? {};
    await afterMainDataset(summary, sessionFor({ kind: 'demo', id }, template));
    if (demo.ood?.length) {
      const ood = await request('Loading the OOD set', {
        kind: 'load-urls', role: 'ood', name: `${demo.title}: OOD set`,
        urls: demo.ood.map((f) => ({ url: new URL(f, base).href, name: f })),
      });
      oodDataset.value = ood;
    }
  } catch (error) {
    report(error);
  }
}

/** Loads uploaded files as the embeddings (role main) or as an OOD set. A failure keeps what was loaded. */
export async function uploadFiles(files: File[], role: DatasetRole = 'main'): Promise<void> {
  if (files.length === 0) return;
  try {
    const summary = await request(`Reading ${files.map((f) => f.name).join(', ')}`, {
      kind: 'load-files', role, files: files.map((f) => ({ blob: f, name: f.name })),
    });
    const refs = files.map((f) => ({ name: f.name, size: f.size }));
    if (role === 'main') {
      const next = sessionFor({ kind: 'upload', files: refs }, { concept: defaultConcept(summary.columns) });
      await afterMainDataset(summary, next);
    } else {
      oodDataset.value = summary;
      commit({ ...session.value, ood: { kind: 'file', files: refs } });
    }
    saveFiles(role, files.map((f) => ({ name: f.name, blob: f }))).catch(() =>
      notify('info', 'The files could not be kept in browser storage; after a reload you will need to upload them again.'));
    notify('info', `Loaded ${summary.name}: ${summary.rows.toLocaleString()} rows × ${summary.cols} dimensions` +
      (summary.notes.length ? ` (${summary.notes.join('; ')})` : ''));
  } catch (error) {
    report(error);
  }
}

export async function clearOod(): Promise<void> {
  await request('Removing the OOD set', { kind: 'clear-dataset', role: 'ood' }).catch(report);
  oodDataset.value = null;
  deleteFiles('ood').catch(() => undefined);
  commit({ ...session.value, ood: { kind: 'none' } });
}

// ---- the probe ----
let probeRun: RunningRequest<Results['probe']> | null = null;

export async function runProbe(): Promise<void> {
  const d = dataset.value;
  if (!d) return;
  probeRun?.cancel();
  const s = session.value;
  const y = labels.value;
  // Without a concept the observations have no labels: the probe is its prior.
  const rows = y ? Int32Array.from(s.observations.filter((r) => r < d.rows)) : new Int32Array(0);
  const obsLabels = Uint8Array.from(rows, (r) => y![r]);
  const basis = probeBasis.value;
  let running!: RunningRequest<Results['probe']>;
  const onProgress = (p: Progress) => {
    tasks.value = tasks.value.map((t) => (t.id === running.id ? { ...t, progress: p } : t));
  };
  running = engine().request({ kind: 'probe', epsilon: s.epsilon, strength: s.strength, observations: rows, labels: obsLabels }, onProgress);
  probeRun = running;
  try {
    const r = await track('Running the probe', running);
    batch(() => {
      results.value = { scores: r.scores, oodScores: r.oodScores, space: r.space, seconds: r.seconds, update: r.update, basis };
      // A first look shows a belief at once: the first query of the subset that is not an observation.
      if (selected.value === null) {
        const observed = new Set(s.observations);
        const candidates = queryRows.value ?? Int32Array.from({ length: d.rows }, (_, i) => i);
        selected.value = candidates.find((row) => !observed.has(row)) ?? candidates[0] ?? null;
      }
    });
  } catch (error) {
    report(error);
  } finally {
    if (probeRun === running) probeRun = null;
  }
}

// ---- session files ----

export function sessionJson(): string {
  return JSON.stringify(session.value, null, 2);
}

export async function importSession(text: string): Promise<void> {
  let next: Session;
  try {
    next = parseSession(text);
  } catch (error) {
    report(error);
    return;
  }
  const current = session.value.data;
  if (next.data?.kind === 'demo' && (current?.kind !== 'demo' || current.id !== next.data.id)) {
    await loadDemo(next.data.id);
  } else if (next.data?.kind === 'upload') {
    const loaded = dataset.value?.files.map((f) => `${f.name}:${f.size}`).join('|');
    const wanted = next.data.files.map((f) => `${f.name}:${f.size}`).join('|');
    if (loaded !== wanted) {
      notify('error', `This session was made with ${next.data.files.map((f) => f.name).join(' + ')}; upload those files, then import the session again.`);
      return;
    }
  }
  const rows = dataset.value?.rows ?? 0;
  commit({ ...next, observations: next.observations.filter((r) => r < rows) });
  notify('info', 'Session imported.');
}

// ---- start-up and side effects ----

async function restore(): Promise<boolean> {
  let saved: Session | null = null;
  try {
    const text = localStorage.getItem(SESSION_KEY);
    if (text) saved = parseSession(text);
  } catch {
    saved = null;
  }
  if (!saved?.data) return false;
  try {
    if (saved.data.kind === 'demo') {
      await loadDemo(saved.data.id);
    } else {
      const files = await loadFiles('main').catch(() => null);
      if (!files) {
        notify('info', `Your last session used ${saved.data.files.map((f) => f.name).join(' + ')}, which this browser did not keep; showing the demo.`);
        return false;
      }
      const summary = await request('Restoring your data', { kind: 'load-files', role: 'main', files: files.map((f) => ({ blob: f.blob, name: f.name })) });
      await afterMainDataset(summary, saved);
      if (saved.ood.kind === 'file') {
        const ood = await loadFiles('ood').catch(() => null);
        if (ood) oodDataset.value = await request('Restoring the OOD set', { kind: 'load-files', role: 'ood', files: ood.map((f) => ({ blob: f.blob, name: f.name })) });
      }
    }
    if (!dataset.value) return false;
    batch(() => {
      session.value = { ...saved!, observations: saved!.observations.filter((r) => r < dataset.value!.rows) };
      history.value = { past: [], future: [] };
    });
    return true;
  } catch (error) {
    report(error);
    return false;
  }
}

function debounced(ms: number, run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(run, ms);
  };
}

export async function start(worker: Worker): Promise<void> {
  client = new EngineClient(worker);
  try {
    backend.value = await client.ready;
  } catch (error) {
    report(error);
    return;
  }
  try {
    const manifest = await fetch(new URL('demo/manifest.json', document.baseURI)).then((r) => r.json() as Promise<{ datasets: DemoEntry[] }>);
    demos.value = manifest.datasets;
  } catch {
    notify('error', 'The demo datasets could not be loaded (demo/manifest.json).');
  }
  const restored = await restore();
  if (!restored && demos.value.length > 0) await loadDemo(demos.value[0].id);

  // Save the session on every change (settings only; uploaded files are in IndexedDB).
  effect(() => {
    const s = session.value;
    try {
      localStorage.setItem(SESSION_KEY, JSON.stringify(s));
    } catch {
      // storage full or disabled: the session still works, it just will not survive a reload
    }
  });
  // Re-run the probe when what it depends on changes.
  const rerun = debounced(120, () => { if (autoRun.value) void runProbe(); });
  effect(() => {
    void probeBasis.value;
    if (dataset.value) rerun();
  });
  // Hyperparameter views.
  const refreshPrior = debounced(60, () => {
    const { epsilon, strength } = session.value;
    request(null, { kind: 'belief-preview', epsilon, strength, grid: previewGrid }).then((p) => { preview.value = p; }, report);
    request(null, { kind: 'envelope', epsilon }).then((e) => { envelope.value = e; }, report);
  });
  effect(() => {
    void session.value.epsilon;
    void session.value.strength;
    refreshPrior();
  });
  // The selected query's belief.
  effect(() => {
    const r = results.value, row = selected.value;
    if (!r || row === null || row >= r.scores.latentMean.length) {
      queryBelief.value = null;
      return;
    }
    request(null, {
      kind: 'query-belief', mean: r.scores.latentMean[row], variance: r.scores.latentVariance[row],
      epsilon: session.value.epsilon, grid: previewGrid,
    }).then((b) => { queryBelief.value = b; }, report);
  });
}

/** The grid all density plots use (set by the UI once). */
let previewGrid: Float64Array = new Float64Array(0);
export function setDensityGrid(grid: Float64Array): void {
  previewGrid = grid;
}
