// Two-stage anomaly detection in the regression lab (Butler et al., "Trustworthy Prediction with Gaussian
// Process Knowledge Scores", Fig. 2): the thresholds ρ (knowledge gate) and θ (standardised residual), the
// statuses of the loaded data under the current fit, and the paper's Fig. 3 experiment with its ROC curves
// with and without the gate. Every status, score and curve comes from the core through the worker.
import { effect, signal } from '@preact/signals';
import type { AnomalyClassification, AnomalyExperimentData } from '../../../engine/regression/regression.ts';
import { DEFAULTS } from '../../../engine/vocabulary.ts';
import type { FitResult, RocResult } from '../worker/protocol.ts';
import { report, request } from '../../../common/state/engine_tasks.ts';
import { currentFit, series } from './regression_store.ts';

export interface Thresholds {
  rho: number;
  theta: number;
}

export const thresholds = signal<Thresholds>({ rho: DEFAULTS.rho, theta: DEFAULTS.theta });
/** Statuses of the training data and of the held-out points, for the fit they were computed from. */
export const dataStatus = signal<{
  fit: FitResult;
  data: AnomalyClassification;
  extra: AnomalyClassification | null;
} | null>(null);
export const experiment = signal<AnomalyExperimentData | null>(null);
export const experimentStatus = signal<AnomalyClassification | null>(null);
export const experimentRoc = signal<RocResult | null>(null);

export function setThresholds(change: Partial<Thresholds>): void {
  thresholds.value = { ...thresholds.value, ...change };
}

/** The paper's Fig. 3 experiment in one call (seeded); a few seconds, with progress and cancel. */
export async function runExperiment(seed = 0): Promise<void> {
  const { rho, theta } = thresholds.value;
  try {
    // The core's ρ sweep for the AUC table; the experiment's model comes with its grid predictions.
    experiment.value = await request('Running the Fig. 3 experiment', {
      kind: 'anomaly-experiment',
      seed,
      statusRho: rho,
      theta,
      rhos: DEFAULTS.rhos,
    });
  } catch (error) {
    report(error);
  }
}

async function classifyData(fit: FitResult, { rho, theta }: Thresholds): Promise<void> {
  const data = series.value;
  if (!data) return;
  const [main, extra] = await Promise.all([
    request(null, { kind: 'regression-classify', y: data.y, prediction: fit.data, rho, theta }),
    fit.extra && data.heldOut
      ? request(null, { kind: 'regression-classify', y: data.heldOut.y, prediction: fit.extra, rho, theta })
      : Promise.resolve(null),
  ]);
  if (currentFit.value?.result === fit) dataStatus.value = { fit, data: main, extra };
}

async function classifyExperiment(e: AnomalyExperimentData, { rho, theta }: Thresholds): Promise<void> {
  const prediction = { mean: e.mean, observationVariance: e.observationVariance, knowledge: e.knowledge };
  const [status, roc] = await Promise.all([
    request(null, { kind: 'regression-classify', y: e.testY, prediction, rho, theta }),
    request(null, { kind: 'regression-roc', scores: e.score, isAnomaly: e.testAnomaly, knowledge: e.knowledge, rho }),
  ]);
  if (experiment.value === e) {
    experimentStatus.value = status;
    experimentRoc.value = roc;
  }
}

/** Keeps the statuses and the gated ROC current as the fit, the experiment or the thresholds change. */
let started = false;
export function startAnomalies(): void {
  if (started) return;
  started = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  effect(() => {
    const fit = currentFit.value?.result ?? null,
      t = thresholds.value,
      e = experiment.value;
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (fit) classifyData(fit, t).catch(report);
      else dataStatus.value = null;
      if (e) classifyExperiment(e, t).catch(report);
    }, 60);
  });
}
