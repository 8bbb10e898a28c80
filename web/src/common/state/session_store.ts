// The session the labs on the loaded embeddings share (probe, out-of-distribution, evaluation,
// compare): the datasets the worker holds, the session (every change through commit(): recorded for
// undo and saved to browser storage by the shell), the concept labels and query rows it gives, and the
// probe's last results, which the OOD and evaluation tabs read too. The probe lab's actions (the concept,
// the observations, running the probe) are labs/probe/state/probe_store.ts; loading data and opening
// sessions are the shell's (app/data_actions.ts, app/startup.ts), offered to the labs here (dataLoading).
import { currentGesture } from './gesture.ts';
import { batch, computed, signal } from '@preact/signals';
import type { ProbeScores } from '../../engine/probe/probe_engine.ts';
import type { Column } from '../../io/table.ts';
import type { DatasetRole, DatasetSummary } from '../data/dataset.ts';
import type { ResultOf } from '../worker/protocol.ts';
import {
  conceptLabels,
  DEFAULT_SESSION,
  queryRows as subsetRows,
  record,
  redo as redoHistory,
  undo as undoHistory,
  type History,
  type Session,
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
  /** The observations and concept labels the probe was fitted with (exports use these, not the session's). */
  observations: number[];
  labels: Uint8Array | null;
  epsilon: number;
  strength: number;
  oodScores: ProbeScores | null;
  space: string;
  seconds: number;
  update: ResultOf<'probe'>['update'];
  /** Full passes over a query set the run made (0: every score followed by rank-one updates). */
  fullPasses: number;
  /** The session the results belong to (the UI marks them stale when it changes). */
  basis: string;
}

export const SESSION_KEY = 'gpprobe.session.v1';

// ---- state ----
export const backend = signal<string | null>(null);
/** Whether the engine's products fuse their multiply-adds (relaxed SIMD with FMA): the header says so. */
export const engineFused = signal<boolean | null>(null);
/** Threads the engine scores on (1: the single-threaded module), once it is ready. */
export const engineThreads = signal<number | null>(null);
export const demos = signal<DemoEntry[]>([]);
export const dataset = signal<DatasetSummary | null>(null);
export const oodDataset = signal<DatasetSummary | null>(null);
export const session = signal<Session>(DEFAULT_SESSION);
export const history = signal<History>({ past: [], future: [] });
export const results = signal<ProbeResults | null>(null);
export const map = signal<ResultOf<'map'> | null>(null);
export const selected = signal<number | null>(null);
/** True while a session is being opened (data, draw, OOD set): the probe waits for all of it. */
export const opening = signal(false);

export const columns = computed<Column[]>(() => dataset.value?.columns ?? []);
/** A part of the session as a signal that keeps its object while other parts change (a toggle). */
function sessionPart<T>(select: (s: Session) => T) {
  let last: T | undefined;
  let text = '';
  return computed(() => {
    const part = select(session.value),
      next = JSON.stringify(part);
    if (last === undefined || next !== text) [last, text] = [part, next];
    return last;
  });
}
const concept = sessionPart((s) => s.concept);
const querySubset = sessionPart((s) => s.queries);
/** Concept labels of every row: computed again only when the data or the concept change (not when an
 * observation is toggled), so the plots that colour by them are not redrawn before the new scores come. */
export const labels = computed<Uint8Array | null>(() => {
  const d = dataset.value,
    c = concept.value;
  return d && c ? conceptLabels(c, d.columns, d.rows) : null;
});
/** Rows of the query subset (null: all rows). Plots, table and export show these. Like the labels,
 * computed again only when the data or the subset change. */
export const queryRows = computed<Int32Array | null>(() => {
  const d = dataset.value;
  return d ? subsetRows(querySubset.value, d.columns, d.rows) : null;
});

/** The part of the session results depend on. */
export const probeBasis = computed(() => {
  const s = session.value;
  return JSON.stringify([
    dataset.value?.name,
    dataset.value?.rows,
    oodDataset.value?.name,
    s.concept,
    s.observations,
    s.epsilon,
    s.strength,
  ]);
});
export const resultsStale = computed(() => results.value !== null && results.value.basis !== probeBasis.value);
export const canUndo = computed(() => history.value.past.length > 0);
export const canRedo = computed(() => history.value.future.length > 0);

// ---- session changes ----

let lastCoalesce: { key: string; at: number; gesture: number | null } | null = null;

/**
 * Replaces the session, recording the previous one for undo. Changes with the same `coalesce` key share
 * one undo step when they come in one pointer gesture (a slider held and dragged: gesture.ts), however
 * slowly a busy page gets through them, or less than a second apart (keys held on a slider).
 */
export function commit(next: Session, coalesce?: string): void {
  if (JSON.stringify(next) === JSON.stringify(session.value)) return;
  const now = Date.now();
  const gesture = currentGesture();
  const merge =
    coalesce !== undefined &&
    lastCoalesce?.key === coalesce &&
    ((gesture !== null && lastCoalesce.gesture === gesture) || now - lastCoalesce.at < 1000) &&
    history.value.past.length > 0;
  lastCoalesce = coalesce === undefined ? null : { key: coalesce, at: now, gesture };
  batch(() => {
    if (!merge) history.value = record(history.value, session.value);
    session.value = next;
  });
}

export function undo(): void {
  const r = undoHistory(history.value, session.value);
  if (r)
    batch(() => {
      history.value = r.history;
      session.value = r.session;
    });
}

export function redo(): void {
  const r = redoHistory(history.value, session.value);
  if (r)
    batch(() => {
      history.value = r.history;
      session.value = r.session;
    });
}

// ---- loading data ----

/** Loading data into the session, for a lab that offers it (the OOD tab's upload): the shell's
 * app/data_actions.ts provides these when it loads (the labs are below the shell and do not import it). */
export interface DataLoading {
  uploadFiles(files: File[], role: DatasetRole): Promise<void>;
  clearOod(): Promise<void>;
}

let loading: DataLoading | null = null;

export function provideDataLoading(actions: DataLoading): void {
  loading = actions;
}

export function dataLoading(): DataLoading {
  if (!loading) throw new Error('data loading is not available before the app has started');
  return loading;
}
