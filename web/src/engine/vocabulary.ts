// The words and numbers the core owns (wasm/bindings_vocabulary.cpp), for the TS side that must use
// them before, or without, a module: the default of every option and the anomaly status names. Each
// is written here once and tests/wasm/bindings.test.ts holds it to the module's vocabulary(); nothing
// else in TS restates them. (The error codes live beside GpprobeError in errors.ts, tested the same
// way; the kernels' parameter names are never restated: the regression lab reads them from the module.)
import type {
  CertifyDefaults as CertifyDefaultsValue,
  ClassificationDefaults,
  Defaults,
} from './generated/gpprobe.mjs';

export type { ClassificationDefaults, Defaults };
export type CertifyDefaults = Omit<CertifyDefaultsValue, 'code' | 'message'>;

export const DEFAULTS: Readonly<Defaults> = {
  epsilon: 0.1,
  strength: 5,
  space: 'automatic',
  expectedQueries: 10000,
  trials: 10,
  seed: 0,
  maxObservations: 512,
  maxQueries: 1000,
  members: 100,
  k: 1,
  gpc: false,
  gpcMaxObservations: 128,
  restarts: 0,
  maxIterations: 200,
  noiseVariance: 0.1,
  rho: 0.5,
  theta: 3,
  rhos: [0.1, 0.3, 0.5, 0.7, 0.9],
};

/** GP classification's defaults (gp_classifier.h, gpc_hyperparameter_fit.h, experiment.h ClassifierProbeOptions). */
export const CLASSIFICATION_DEFAULTS: Readonly<ClassificationDefaults> = {
  method: 'laplace',
  likelihood: 'probit',
  signalVariance: 1,
  lengthScale: 1,
  restarts: 0,
  seed: 0,
  maxIterations: 200,
  probeLaplaceIterations: 50,
  probeEpIterations: 5,
};

/** Certified bounds' defaults (gpc_robustness.h RobustnessOptions, probe_certificate.h CertifyOptions,
 * multiclass_robustness.h MulticlassRobustnessOptions). */
export const CERTIFY_DEFAULTS: Readonly<CertifyDefaults> = {
  robustness: { tolerance: 0.01, maxIterations: 10000, timeLimitSeconds: 0, search: 'both', variance: 'both' },
  probe: { tolerance: 0.01, maxIterations: 10000, timeLimitSeconds: 0, norm: 'inf' },
  multiclass: { tolerance: 0.02, maxIterations: 2000, timeLimitSeconds: 0 },
};

/** Index = the status code the core writes (anomaly_detection.h PointStatus). */
export const ANOMALY_STATUSES = ['normal', 'anomaly', 'unknown'] as const;
export type AnomalyStatus = (typeof ANOMALY_STATUSES)[number];
