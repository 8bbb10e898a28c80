// The verdict beside the probe's results: the core's leave-one-out check of the probe on the observations
// the shown results were fitted with, and every row's expected knowledge gain from its label (the "label
// next" suggestions). Recomputed in the worker whenever the shown results change while the panel is shown.
import { signal } from '@preact/signals';
import type { RunningRequest } from '../../../common/worker/protocol.ts';
import type { VerdictRun } from '../worker/verdict_protocol.ts';
import { report, startTask } from '../../../common/state/engine_tasks.ts';
import { results } from '../../../common/state/session_store.ts';

export interface VerdictRecord {
  /** The results' basis (common/state/session_store.ts probeBasis) this verdict belongs to. */
  basis: string;
  /** Observation rows and their labels, in the order of the leave-one-out values. */
  observations: Int32Array;
  labels: Uint8Array;
  run: VerdictRun;
}

export const verdict = signal<VerdictRecord | null>(null);
let running: { request: RunningRequest<VerdictRun>; basis: string } | null = null;

/** Starts the verdict of the shown results unless it is there or on its way (called by the panel). */
export function refreshVerdict(): void {
  const r = results.value;
  if (!r || !r.labels || r.observations.length === 0 || verdict.value?.basis === r.basis || running?.basis === r.basis)
    return;
  running?.request.cancel();
  const observations = Int32Array.from(r.observations);
  const labels = Uint8Array.from(observations, (row) => r.labels![row]);
  const request = startTask('Checking the probe (leave-one-out, what to label next)', {
    kind: 'verdict',
    epsilon: r.epsilon,
    strength: r.strength,
    observations,
    labels,
  });
  const mine = { request, basis: r.basis };
  running = mine;
  request.result
    .then((run) => {
      verdict.value = { basis: mine.basis, observations, labels, run };
    }, report)
    .finally(() => {
      if (running === mine) running = null;
    });
}
