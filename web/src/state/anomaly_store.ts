// Two-stage anomaly detection in the regression lab (paper 001, Fig. 2): the thresholds ρ (knowledge
// gate) and θ (standardised residual), the statuses of the loaded data under the current fit, and the
// paper's Fig. 3 experiment with its ROC curves with and without the gate. Every status, score and
// curve comes from the core through the worker.
import { effect, signal } from '@preact/signals';
import type { AnomalyClassification } from '../engine/regression.ts';
import type { ExperimentResult, FitResult, RocResult } from '../worker/regression_protocol.ts';
import { currentFit, regressionClient, report, series, track } from './regression_store.ts';

export interface Thresholds {
  rho: number;
  theta: number;
}

/** The ρ values of the experiment's AUC table (the core's default sweep). */
export const EXPERIMENT_RHOS = [0.1, 0.3, 0.5, 0.7, 0.9];

export const thresholds = signal<Thresholds>({ rho: 0.5, theta: 3 });
/** Statuses of the training data and of the held-out points, for the fit they were computed from. */
export const dataStatus = signal<{ fit: FitResult; data: AnomalyClassification; extra: AnomalyClassification | null } | null>(null);
export const experiment = signal<ExperimentResult | null>(null);
export const experimentStatus = signal<AnomalyClassification | null>(null);
export const experimentRoc = signal<RocResult | null>(null);

export function setThresholds(change: Partial<Thresholds>): void {
  thresholds.value = { ...thresholds.value, ...change };
}

/** The paper's Fig. 3 experiment in one call (seeded); a few seconds, with progress and cancel. */
export async function runExperiment(seed = 0): Promise<void> {
  const { rho, theta } = thresholds.value;
  try {
    experiment.value = await track('Running the Fig. 3 experiment', (p) => regressionClient().experiment(
      { kind: 'experiment', seed, statusRho: rho, theta, rhos: EXPERIMENT_RHOS }, p));
  } catch (error) {
    report(error);
  }
}

async function classifyData(fit: FitResult, { rho, theta }: Thresholds): Promise<void> {
  const data = series.value;
  if (!data) return;
  const client = regressionClient();
  const [main, extra] = await Promise.all([
    client.classify({ kind: 'classify', y: data.y, prediction: fit.data, rho, theta }).result,
    fit.extra && data.heldOut
      ? client.classify({ kind: 'classify', y: data.heldOut.y, prediction: fit.extra, rho, theta }).result
      : Promise.resolve(null),
  ]);
  if (currentFit.value?.result === fit) dataStatus.value = { fit, data: main, extra };
}

async function classifyExperiment(result: ExperimentResult, { rho, theta }: Thresholds): Promise<void> {
  const client = regressionClient(), e = result.data;
  const prediction = { mean: e.mean, observationVariance: e.observationVariance, knowledge: e.knowledge };
  const [status, roc] = await Promise.all([
    client.classify({ kind: 'classify', y: e.testY, prediction, rho, theta }).result,
    client.roc({ kind: 'roc', scores: e.score, isAnomaly: e.testAnomaly, knowledge: e.knowledge, rho }).result,
  ]);
  if (experiment.value === result) {
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
    const fit = currentFit.value?.result ?? null, t = thresholds.value, e = experiment.value;
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (fit) classifyData(fit, t).catch(report);
      else dataStatus.value = null;
      if (e) classifyExperiment(e, t).catch(report);
    }, 60);
  });
}
