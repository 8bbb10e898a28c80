// OOD detection in the Out-of-distribution view: the probe's OOD score beside MSP, Mahalanobis, kNN and
// LPE, all fitted on the session's observations, with AUROC and ROC curves from the core (in the worker).
// Refreshed while the view is open whenever what it depends on changes; a newer run cancels an older one.
import { computed, signal } from '@preact/signals';
import { isCancelled } from '../../../engine/errors.ts';
import { DEFAULTS } from '../../../engine/vocabulary.ts';
import type { RunningRequest } from '../../../common/worker/protocol.ts';
import type { OodBaselines } from '../worker/protocol.ts';
import { oodSource, oodSplit, type OodSplit } from '../../../common/state/ood_split.ts';
import { startTask } from '../../../common/state/engine_tasks.ts';
import { dataset, labels, oodDataset, queryRows, session } from '../../../common/state/session_store.ts';

/** Fixed settings of the comparison, the core's defaults (the Evaluate view varies them). */
export const OOD_COMPARISON = { k: DEFAULTS.k, seed: DEFAULTS.seed, members: DEFAULTS.members } as const;

export const comparison = signal<{ result: OodBaselines; basis: string } | null>(null);
export const comparisonError = signal<string | null>(null);

/** The session's observations that have a label (all of them once a concept is set). */
const labelledObservations = computed(() => {
  const d = dataset.value,
    y = labels.value;
  const rows = d && y ? session.value.observations.filter((r) => r < d.rows) : [];
  return { rows: Int32Array.from(rows), labels: Uint8Array.from(rows, (r) => y![r]) };
});

/** In- and out-of-distribution queries under the session's OOD setup (null without an OOD set). */
export const currentSplit = computed<OodSplit | null>(() => {
  const d = dataset.value;
  if (!d) return null;
  const source = oodSource(session.value.ood, d.columns, d.rows, !!oodDataset.value);
  return oodSplit(source, queryRows.value, d.rows, session.value.observations);
});

/** Whether both groups of queries are non-empty, so the detectors can be compared. */
export const comparable = computed(() => {
  const split = currentSplit.value;
  const outside = split?.outside.kind === 'rows' ? split.outside.rows.length : (oodDataset.value?.rows ?? 0);
  return split !== null && split.inside.length > 0 && outside > 0;
});

export const comparisonBasis = computed(() => {
  const d = dataset.value,
    s = session.value;
  return JSON.stringify([
    d?.name,
    d?.rows,
    oodDataset.value?.name,
    s.concept,
    s.observations,
    s.epsilon,
    s.strength,
    s.ood,
    s.queries,
  ]);
});

export const comparisonStale = computed(
  () => comparison.value !== null && comparison.value.basis !== comparisonBasis.value,
);

let running: RunningRequest<OodBaselines> | null = null;
let runningBasis = '';

/** Runs the comparison unless the shown one (or the one running) is for the current session. */
export function refreshComparison(): void {
  const b = comparisonBasis.value,
    split = currentSplit.value;
  if (comparison.value?.basis === b || (running && runningBasis === b)) return;
  running?.cancel();
  running = null;
  if (!split || !comparable.value) {
    comparison.value = null;
    comparisonError.value = null;
    return;
  }
  const observations = labelledObservations.value,
    s = session.value;
  const request = startTask('Comparing OOD detectors', {
    kind: 'ood-baselines',
    observations: observations.rows,
    labels: observations.labels,
    queries: split.inside,
    ood: split.outside,
    epsilon: s.epsilon,
    strength: s.strength,
    ...OOD_COMPARISON,
  });
  running = request;
  runningBasis = b;
  request.result
    .then(
      (result) => {
        comparison.value = { result, basis: b };
        comparisonError.value = null;
      },
      (error: unknown) => {
        const cancelled = isCancelled(error);
        if (cancelled && running !== request) return; // superseded by a newer run
        comparisonError.value = cancelled ? 'Cancelled.' : error instanceof Error ? error.message : String(error);
      },
    )
    .finally(() => {
      if (running === request) running = null;
    });
}
