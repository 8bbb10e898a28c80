// The public JS/TS entry of gpprobe (package.json "exports"): the engine and its types.
export { createProbeEngine, Probe, ProbeEngine, SCORE_COLUMNS } from './probe/probe_engine.ts';
export type {
  FitProbeOptions,
  LeaveOneOut,
  PosteriorSpace,
  ProbeScores,
  ScoreAsyncOptions,
} from './probe/probe_engine.ts';
export { ResidentMatrix } from './resident_matrix.ts';
export { keepScores, ScoredQueries } from './probe/scored_queries.ts';
export { embeddingsId, PROBE_FILE_FORMAT, PROBE_FILE_VERSION, probeFileBytes } from './probe/probe_file.ts';
export type { ProbeDataId, ProbeFile } from './probe/probe_file.ts';
export type { MatrixInput } from './resident_matrix.ts';
export {
  beliefAtObservedPoint,
  beliefEnvelope,
  betaDensities,
  logitNormalDensities,
  principalComponents,
  priorBelief,
} from './probe/analysis.ts';
export type { Belief, BeliefEnvelope, PrincipalComponents } from './probe/analysis.ts';
export { accuracy, auprc, auroc, pearson, rocCurve, runBaseline } from './baselines/baselines.ts';
export type { BaselineMethod, BaselineOptions, BaselineScores, RocCurve } from './baselines/baselines.ts';
export { runExperiment } from './evaluation/experiments.ts';
export { compareRepresentations, honestAurocInterval, UNLABELLED } from './compare/compare_representations.ts';
export type {
  ComparedConcept,
  ComparedEmbedding,
  CompareRepresentationsOptions,
  ConceptComparison,
  RepresentationComparison,
  RepresentationProbe,
  RunCompareOptions,
} from './compare/compare_representations.ts';
export type {
  ExperimentCloud,
  ExperimentCurve,
  ExperimentKind,
  ExperimentOptions,
  ExperimentResult,
  RunExperimentOptions,
} from './evaluation/experiments.ts';
export { ERROR_CODES, GpprobeError, isCancelled } from './errors.ts';
export type { GpprobeErrorCode } from './errors.ts';
export type { IntervalDetail, Progress, ProgressDetail, ProgressListener, RootDetail } from './progress.ts';
export type {
  BoxSearchOptions,
  Interval,
  ProbabilityExtreme,
  RobustnessCertificate,
  RobustnessOptions,
  RobustnessSearch,
  SearchStatus,
  VarianceBounds,
  VerdictFlip,
} from './certify/classification_certify.ts';
export type { CertifyOptions, ProbeCertificate, QueryNorm } from './certify/probe_certify.ts';
export {
  CONSTANT_FEATURE_NOTE,
  EXPLAIN_CSV_HEADER,
  EXPLAIN_DEFAULTS,
  explainProbe,
  explanationCsv,
  rankFeatures,
} from './explain/explain.ts';
export type { Explanation, ExplainOptions } from './explain/explain.ts';
export { ANOMALY_STATUSES, CERTIFY_DEFAULTS, CLASSIFICATION_DEFAULTS, DEFAULTS } from './vocabulary.ts';
export type { AnomalyStatus, CertifyDefaults, ClassificationDefaults, Defaults } from './vocabulary.ts';
export type { Matrix } from './matrix.ts';
export type { LoadOptions, SimdBuild } from './load_module.ts';
export { relaxedSimdSupported } from './load_module.ts';
export { createRegressionEngine, GpRegression, PREDICTION_COLUMNS, RegressionEngine } from './regression/regression.ts';
export type {
  AnomalyClassification,
  AnomalyExperimentData,
  AnomalyExperimentOptions,
  AnomalyThresholds,
  FitRegressionOptions,
  KernelSpec,
  NamedKernel,
  OptimizeOptions,
  PredictionReport,
  RegressionExample,
  RegressionPrediction,
  RegressionState,
  RegressionVocabulary,
  RocCurveData,
} from './regression/regression_types.ts';
export {
  ClassificationEngine,
  CLASSIFIER_COLUMNS,
  createClassificationEngine,
  GpClassifier,
} from './classification/classification.ts';
export type {
  ClassificationExample,
  ClassificationKernel,
  ClassificationLikelihood,
  ClassificationMethod,
  ClassificationVocabulary,
  ClassifierOptimization,
  ClassifierPrediction,
  ClassifierState,
  FitClassifierOptions,
  OptimizeClassifierOptions,
} from './classification/classification.ts';
export { MulticlassGpClassifier } from './classification/multiclass.ts';
export type {
  FitMulticlassOptions,
  MulticlassCertificate,
  MulticlassOptimization,
  MulticlassPrediction,
  MulticlassRobustnessOptions,
  MulticlassState,
  OptimizeMulticlassOptions,
  SafetyVerdict,
} from './classification/multiclass.ts';
