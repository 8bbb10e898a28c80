// The public JS/TS entry of gpprobe (package.json "exports"): the engine and its types.
export { createProbeEngine, Probe, ProbeEngine, SCORE_COLUMNS } from './probe_engine.ts';
export type { FitProbeOptions, PosteriorSpace, ProbeScores, ProgressListener, ScoreAsyncOptions } from './probe_engine.ts';
export { ResidentMatrix } from './resident_matrix.ts';
export type { MatrixInput } from './resident_matrix.ts';
export { beliefAtObservedPoint, beliefDensities, beliefEnvelope, principalComponents } from './analysis.ts';
export type { BeliefAtObservedPoint, BeliefEnvelope, PrincipalComponents } from './analysis.ts';
export { accuracy, auprc, auroc, pearson, rocCurve, runBaseline } from './evaluation.ts';
export type { BaselineMethod, BaselineOptions, BaselineScores, RocCurve } from './evaluation.ts';
export { runExperiment } from './experiments.ts';
export type {
  ExperimentCloud, ExperimentCurve, ExperimentKind, ExperimentOptions, ExperimentResult, RunExperimentOptions,
} from './experiments.ts';
export { GpprobeError } from './errors.ts';
export type { GpprobeErrorCode } from './errors.ts';
export type { Matrix } from './matrix.ts';
export type { LoadOptions } from './load_module.ts';
export {
  ANOMALY_STATUSES, createRegressionEngine, GpRegression, PREDICTION_COLUMNS, RegressionEngine,
} from './regression.ts';
export type {
  AnomalyClassification, AnomalyExperimentData, AnomalyExperimentOptions, AnomalyStatus, AnomalyThresholds,
  ExampleName, FitRegressionOptions, KernelChoice, KernelName, KernelSpec, OptimizeOptions, ProgressCallback,
  RegressionExample, RegressionPrediction, RegressionState, RocCurveData,
} from './regression.ts';
