// The app's state: signals for what the UI shows, the changes of the session (every one through
// commit(): recorded for undo and saved to browser storage), and running the probe in the worker.
// Loading data is in data_actions.ts, start-up and side effects in startup.ts.
import { batch, computed, effect, signal } from '@preact/signals';
import type { BeliefEnvelope } from '../../engine/probe/analysis.ts';
import type { ProbeScores } from '../../engine/probe/probe_engine.ts';
import type { Column } from '../../io/table.ts';
import type { RunningRequest } from '../worker/engine_client.ts';
import type { DatasetSummary, ProbeRun } from '../../labs/probe/worker/protocol.ts';
import type { ResultOf } from '../worker/protocol.ts';
import { notify, report, request, startTask } from './engine_tasks.ts';
import {
  conceptLabels,
  DEFAULT_SESSION,
  queryRows as subsetRows,
  record,
  redo as redoHistory,
  toggleObservation as toggled,
  undo as undoHistory,
  type Concept,
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
  update: ProbeRun['update'];
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
export const envelope = signal<BeliefEnvelope | null>(null);
export const preview = signal<ResultOf<'belief-preview'> | null>(null);
export const queryBelief = signal<ResultOf<'query-belief'> | null>(null);
export const selected = signal<number | null>(null);
export const autoRun = signal(true);
/** True while a session is being opened (data, draw, OOD set): the probe waits for all of it. */
export const opening = signal(false);
/** The rows the last draw gave and for what (links name the draw instead of listing these rows). */
export const lastDraw = signal<{ key: string; rows: number[] } | null>(null);

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

/** What a draw depends on besides its per-class count and seed. */
function drawKey(perClass: number, seed: number): string {
  return JSON.stringify([dataset.value?.name, dataset.value?.rows, session.value.concept, perClass, seed]);
}

/** Whether the observations are exactly what the session's draw gives (so a link can say "the draw"). */
export const observationsDrawn = computed(() => {
  const d = lastDraw.value,
    s = session.value;
  return (
    d !== null &&
    d.key === drawKey(s.draw.perClass, s.draw.seed) &&
    d.rows.length === s.observations.length &&
    d.rows.every((r, i) => r === s.observations[i])
  );
});

// ---- session changes ----

let lastCoalesce: { key: string; at: number } | null = null;

/**
 * Replaces the session, recording the previous one for undo. Changes with the same `coalesce` key
 * less than a second apart (a slider being dragged) share one undo step.
 */
export function commit(next: Session, coalesce?: string): void {
  if (JSON.stringify(next) === JSON.stringify(session.value)) return;
  const now = Date.now();
  const merge =
    coalesce !== undefined &&
    lastCoalesce?.key === coalesce &&
    now - lastCoalesce.at < 1000 &&
    history.value.past.length > 0;
  lastCoalesce = coalesce === undefined ? null : { key: coalesce, at: now };
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

/** True while the observations are being redrawn for a new concept (the probe waits for them). */
export const redrawing = signal(false);
let conceptChanges = 0;

/**
 * Sets the concept and draws the observations anew for it (the session's count per class and seed), so
 * a probe never silently keeps observations chosen for another concept: one undo step brings back the
 * previous concept with its observations. Observations picked by hand are replaced too, and a notice
 * says how to get them back.
 */
export async function setConcept(concept: Concept | null): Promise<void> {
  const before = session.value,
    d = dataset.value;
  const change = ++conceptChanges;
  const key = `concept ${change}`;
  // Asked before the commit: the draw's key names the concept, so after it no draw matches.
  const handPicked = before.observations.length > 0 && !observationsDrawn.value;
  commit({ ...before, concept }, key);
  if (!concept || !d) return;
  redrawing.value = true;
  try {
    const { perClass, seed } = session.value.draw;
    const y = conceptLabels(concept, d.columns, d.rows);
    const rows = Array.from(await request(null, { kind: 'draw-observations', labels: y, perClass, seed }));
    if (change !== conceptChanges || dataset.value !== d) return; // a later change or other data won
    lastDraw.value = { key: drawKey(perClass, seed), rows };
    commit({ ...session.value, observations: rows }, key);
    if (handPicked)
      notify(
        'info',
        `New concept: ${perClass} observations per class were drawn for it (seed ${seed}). Undo (Ctrl+Z) brings back the ones you picked.`,
      );
  } catch (error) {
    report(error);
  } finally {
    if (change === conceptChanges) redrawing.value = false;
  }
}

export function setHyperparameters(epsilon: number, strength: number): void {
  if (!(epsilon > 0) || !(strength > 0)) return;
  commit({ ...session.value, epsilon, strength }, 'hyperparameters');
}

/**
 * Draws `perClass` observations of each class of the concept (seeded) through the core, so that
 * `gpprobe draw --per-class N --seed S` on the same labels picks the same rows.
 */
export async function draw(perClass = session.value.draw.perClass, seed = session.value.draw.seed): Promise<void> {
  const y = labels.value;
  if (!y) {
    notify('info', 'Choose a concept first: observations are drawn per class.');
    return;
  }
  const before = session.value;
  try {
    const rows = await request(null, { kind: 'draw-observations', labels: y, perClass, seed });
    if (session.value.concept !== before.concept || labels.value !== y) return; // the concept changed meanwhile
    lastDraw.value = { key: drawKey(perClass, seed), rows: Array.from(rows) };
    commit({ ...session.value, draw: { perClass, seed }, observations: Array.from(rows) });
  } catch (error) {
    report(error);
  }
}

export function setObservations(rows: number[]): void {
  commit({ ...session.value, observations: [...new Set(rows)].sort((a, b) => a - b) });
}

export function toggleObservation(row: number): void {
  commit({ ...session.value, observations: toggled(session.value.observations, row) });
}

// ---- the probe ----
/** The run in flight: what it computes the results of, and when it settles. */
let probeRun: { running: RunningRequest<ProbeRun>; basis: string; fresh: boolean; settled: Promise<void> } | null =
  null;

/**
 * Runs the probe; `fresh`: fit it anew on the sorted observations (as a new page would) instead of
 * updating it. A run already computing the results of the same session is joined, not restarted.
 */
export function runProbe(fresh = false): Promise<void> {
  const d = dataset.value;
  if (!d) return Promise.resolve();
  const basis = probeBasis.value;
  if (probeRun && probeRun.basis === basis && (probeRun.fresh || !fresh)) return probeRun.settled;
  probeRun?.running.cancel();
  const s = session.value;
  const y = labels.value;
  // Without a concept the observations have no labels: the probe is its prior.
  const rows = y ? Int32Array.from(s.observations.filter((r) => r < d.rows)) : new Int32Array(0);
  const obsLabels = Uint8Array.from(rows, (r) => y![r]);
  const running = startTask('Running the probe', {
    kind: 'probe',
    epsilon: s.epsilon,
    strength: s.strength,
    observations: rows,
    labels: obsLabels,
    fresh,
  });
  const run = { running, basis, fresh, settled: Promise.resolve() };
  run.settled = (async () => {
    try {
      const r = await running.result;
      batch(() => {
        results.value = {
          scores: r.scores,
          observations: Array.from(rows),
          labels: y,
          epsilon: s.epsilon,
          strength: s.strength,
          oodScores: r.oodScores,
          space: r.space,
          seconds: r.seconds,
          update: r.update,
          fullPasses: r.fullPasses,
          basis,
        };
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
      if (probeRun === run) probeRun = null;
    }
  })();
  probeRun = run;
  return run.settled;
}

/** Resolves once no concept redraw or session opening is under way (the observations are final). */
function settledSession(): Promise<void> {
  return new Promise((resolve) => {
    const stop = effect(() => {
      if (redrawing.value || opening.value) return;
      queueMicrotask(() => stop());
      resolve();
    });
  });
}

/**
 * The results of the session as it is now: when the shown ones belong to an earlier session (a click
 * whose refit has not come back yet), this waits for the run that computes them, starting it if none
 * is under way. Exports go through here, so they never mix old scores with new observations. Null when
 * there is no data or the run failed (reported).
 */
export async function currentResults(): Promise<ProbeResults | null> {
  for (;;) {
    await settledSession();
    const basis = probeBasis.value;
    if (results.value?.basis === basis) return results.value;
    if (!dataset.value) return null;
    await runProbe();
    if (probeBasis.value === basis && results.value?.basis !== basis) return null;
  }
}
