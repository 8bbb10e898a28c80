// The probe lab's state beside the shared session (common/state/session_store.ts): the beliefs its
// panels draw, and its actions on the session (the concept, drawing and picking observations, the
// hyperparameters) and running the probe in the worker, whose results the session store keeps.
import { batch, computed, effect, signal } from '@preact/signals';
import type { BeliefEnvelope } from '../../../engine/probe/analysis.ts';
import { notify, report, request, startTask } from '../../../common/state/engine_tasks.ts';
import { conceptLabels, toggleObservation as toggled, type Concept } from '../../../common/state/session.ts';
import {
  commit,
  dataset,
  labels,
  opening,
  probeBasis,
  queryRows,
  results,
  selected,
  session,
  type ProbeResults,
} from '../../../common/state/session_store.ts';
import type { ResultOf, RunningRequest } from '../../../common/worker/protocol.ts';

export const envelope = signal<BeliefEnvelope | null>(null);
export const preview = signal<ResultOf<'belief-preview'> | null>(null);
export const queryBelief = signal<ResultOf<'query-belief'> | null>(null);
export const autoRun = signal(true);
/** The rows the last draw gave and for what (links name the draw instead of listing these rows). */
export const lastDraw = signal<{ key: string; rows: number[] } | null>(null);

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
let probeRun: {
  running: RunningRequest<ResultOf<'probe'>>;
  basis: string;
  fresh: boolean;
  settled: Promise<void>;
} | null = null;

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
