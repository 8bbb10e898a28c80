// Types of the Emscripten module built from wasm/*.cpp (copied next to web/src/engine/generated/gpprobe.mjs
// by CMake). One interface per bindings file. tests/wasm/bindings.test.ts holds this file to the module:
// the same functions, classes and methods, each with the module's argument count, and every one of them
// answering an injected bad_alloc or exception with a status (binding_support.h).

/** What every binding returns: code "ok" or an error code, and a message naming the problem. Result
 * structs extend it with their outputs. */
export interface BindingStatus {
  code: string;
  message: string;
}

/** JS progress callback of a long call: returning false cancels it (status "cancelled"). */
export type CoreProgress = ((done: number, total: number) => boolean) | null;

/** JS callback of branch and bound, after each split: the searched extreme's current interval [lower, upper]. */
export type CoreInterval =
  ((extremum: 'minimum' | 'maximum', iterations: number, lower: number, upper: number) => void) | null;

/** A kernel as a value: a named kernel or a kernel expression giving its form, and parameter values by
 * the names of Kernel::parameters() (a parameter not named keeps the form's value). */
export interface KernelValue {
  name: string;
  parameters: string[];
  values: Float64Array;
}

// ---- bindings_probe.cpp ----

export interface ProbeState extends BindingStatus {
  observationCount: number;
  dimension: number;
  space: string;
  /** The labels in the probe's current order. */
  labels: Uint8Array;
}

/** A fitted Gaussian process probe living in the wasm heap. Call delete() when done. */
export interface ProbeHandle {
  fit(
    observations: number,
    rows: number,
    cols: number,
    dtype: 32 | 64,
    labels: number,
    labelCount: number,
    epsilon: number,
    strength: number,
    space: string,
    expectedQueries: number,
    float32Products: boolean,
  ): BindingStatus;
  /** Writes 7 columns of `rows` doubles at `out`. */
  score(
    queries: number,
    rows: number,
    cols: number,
    dtype: 32 | 64,
    out: number,
    progress: CoreProgress,
  ): BindingStatus;
  addObservation(row: number, cols: number, dtype: 32 | 64, label: number): BindingStatus;
  removeObservation(index: number): BindingStatus;
  state(): ProbeState;
  /** Certified bounds over the set around one query (`cols` values at `query`). */
  certify(
    query: number,
    cols: number,
    dtype: 32 | 64,
    settings: ProbeCertifySettings,
    progress: CoreProgress,
  ): ProbeCertificateValue;
  /** Delta_gamma and LIME of the judged probability over embedding dimensions at rows of queries (explain_values.h). */
  explain(points: Float64Array, settings: ExplainSettings, progress: CoreProgress): ExplainValue;
  /** Leave-one-out judged probabilities of the observations and the verdict (leave_one_out.h). */
  leaveOneOut(): LeaveOneOutValue;
  /** Writes `rows` doubles at `out`: each query's expected knowledge gain from its label (knowledge_gain.h). */
  knowledgeGain(
    queries: number,
    rows: number,
    cols: number,
    dtype: 32 | 64,
    out: number,
    progress: CoreProgress,
  ): BindingStatus;
  delete(): void;
}

/** The leave-one-out check (leave_one_out.h): each observation judged by the probe fitted on the others. */
export interface LeaveOneOutValue extends BindingStatus {
  /** One per observation, in the probe's order (its `labels`). */
  judgedProbability: Float64Array;
  latentMean: Float64Array;
  latentVariance: Float64Array;
  positives: number;
  negatives: number;
  /** AUROC of the LOO judged probabilities with DeLong's standard error; NaN where undefined (a class
   * missing; fewer than 2 of a class for the standard errors). */
  auroc: number;
  aurocStandardError: number;
  /** Mean log loss in nats, with the standard error sd / sqrt(O). */
  logLoss: number;
  logLossStandardError: number;
  /** The level of the intervals the verdict judges (0.99), and their bounds (NaN where the standard error is):
   * aurocLower/Upper the AUROC's interval that stays honest at AUROC 1 and few observations (core
   * auroc_interval.h: Newcombe's score interval joined with DeLong's, within [0, 1]); aurocDelongLower/Upper
   * DeLong's alone and logLossLower/Upper, value -/+ z standard errors, z the standard normal's
   * (1 + confidence) / 2 quantile, not clipped. */
  confidence: number;
  aurocLower: number;
  aurocUpper: number;
  aurocDelongLower: number;
  aurocDelongUpper: number;
  logLossLower: number;
  logLossUpper: number;
  /** "separates": the honest AUROC interval lies above 1/2. "chance": DeLong's AUROC interval reaches 1/2, or the
   * log loss's lies above log 2. "too_few": under 2 of a class, or DeLong's interval lies above 1/2 but the
   * honest one reaches it (too few observations to tell the ranking from chance). */
  verdict: 'separates' | 'chance' | 'too_few';
}

export interface DrawnRows extends BindingStatus {
  /** Ascending row indices. */
  rows: Uint32Array;
}

export interface BindingNames extends BindingStatus {
  /** "principalComponents", "ProbeHandle.score", ...: every binding registered through the guard. */
  names: string[];
}

export interface KeptScoresState extends BindingStatus {
  rows: number;
  /** Full passes the drift guard (or a probe changed elsewhere) caused. */
  fullRescores: number;
  /** Every row scored by the probe as it is now. */
  current: boolean;
}

/** scored_queries.h: scores of resident queries kept up to date with a probe by rank-one updates. */
export interface ScoredQueriesHandle {
  track(queries: number, rows: number, cols: number, dtype: 32 | 64): BindingStatus;
  scoreRows(probe: ProbeHandle, first: number, count: number): BindingStatus;
  addObservation(probe: ProbeHandle, row: number, cols: number, dtype: 32 | 64, label: number): BindingStatus;
  removeObservation(probe: ProbeHandle, index: number): BindingStatus;
  /** Applies `leader`'s last change to these scores (or re-scores them fully). */
  follow(probe: ProbeHandle, leader: ScoredQueriesHandle): BindingStatus;
  /** Writes 7 columns of `count` doubles at `out` (as ProbeHandle.score) for rows [first, first + count). */
  write(out: number, first: number, count: number): BindingStatus;
  state(probe: ProbeHandle): KeptScoresState;
  delete(): void;
}

export interface ProbeBindings {
  ProbeHandle: new () => ProbeHandle;
  ScoredQueriesHandle: new () => ScoredQueriesHandle;
  syntheticEmbeddings(rows: number, dimension: number, seed: number, x: number, labels: number): BindingStatus;
  drawObservations(labels: number, n: number, perClass: number, seed: number): DrawnRows;
  registeredBindings(): BindingNames;
  /** Test hook: the next guarded call throws `fault` before its body ("bad_alloc", "exception", "none"). */
  armFault(fault: string): BindingStatus;
}

// ---- bindings_probe_analysis.cpp ----

export interface Belief extends BindingStatus {
  betaA: number;
  betaB: number;
  latentMean: number;
  latentVariance: number;
}

export interface AnalysisBindings {
  principalComponents(
    x: number,
    rows: number,
    cols: number,
    dtype: 32 | 64,
    k: number,
    seed: number,
    scores: number,
    components: number,
    explained: number,
    progress: CoreProgress,
  ): BindingStatus;
  logitNormalDensities(grid: number, n: number, mean: number, variance: number, out: number): BindingStatus;
  betaDensities(grid: number, n: number, a: number, b: number, out: number): BindingStatus;
  beliefAtObservedPoint(epsilon: number, strength: number, positives: number, negatives: number): Belief;
  priorBelief(epsilon: number): Belief;
  beliefEnvelope(epsilon: number, points: number, maxJudged: number, out: number): BindingStatus;
}

// ---- bindings_baselines.cpp ----

export interface BaselineRun extends BindingStatus {
  /** Which of score, probability, episteme, alea the method wrote. */
  columns: string[];
}

// ---- bindings_evaluation.cpp ----

export interface Metric extends BindingStatus {
  value: number;
}

export interface RocCurveValue extends BindingStatus {
  falsePositiveRate: Float64Array;
  truePositiveRate: Float64Array;
  thresholds: Float64Array;
}

/** The experiment options of core/include/gpprobe/evaluation/experiment.h, under the TS API's names (one trial). */
export interface ExperimentSettings {
  seed: number;
  maxObservations: number;
  maxQueries: number;
  members: number;
  k: number;
  epsilon: number;
  strength: number;
  /** Probing: also the GP classification probes (curves gpc-laplace, gpc-ep) ... */
  gpc: boolean;
  /** ... at the observation counts up to this (NaN values above it: not run). */
  gpcMaxObservations: number;
}

/** One metric of one method at each observation count. */
export interface CurveValue {
  method: string;
  /** "auroc" or "pearson". */
  metric: string;
  /** trials × points, row-major: values[t * points + j]; NaN where the method did not run. */
  values: Float64Array;
  mean: Float64Array;
  /** Sample standard deviation over the trials (0 for one trial). */
  sd: Float64Array;
}

/** The fuzzy experiment's per-query measures for one (label probability, observation count), trial 0. */
export interface CloudValue {
  method: string;
  labelProbability: number;
  observations: number;
  /** The embedding row of each (originally positive) query. */
  rows: Uint32Array;
  judgedProbability: Float64Array;
  episteme: Float64Array;
  alea: Float64Array;
}

export interface ExperimentValue extends BindingStatus {
  experiment: string;
  observationCounts: Float64Array;
  /** Why the counts stop short of maxObservations (the core's words), or "". */
  scheduleLimit: string;
  trials: number;
  curves: CurveValue[];
  clouds: CloudValue[];
}

/** An experiment's trials, added up in the core as they run (runTrial: trials [trial, trial + count)). Call delete() when done. */
export interface ExperimentHandle {
  runTrial(
    experiment: string,
    embeddings: number,
    rows: number,
    cols: number,
    dtype: 32 | 64,
    labels: number,
    labelCount: number,
    ood: number,
    oodRows: number,
    oodCols: number,
    oodDtype: 32 | 64,
    queryMask: number,
    queryMaskCount: number,
    trial: number,
    count: number,
    settings: ExperimentSettings,
    progress: CoreProgress,
  ): BindingStatus;
  result(): ExperimentValue;
  delete(): void;
}

export interface EvaluationBindings {
  ExperimentHandle: new () => ExperimentHandle;
  /** Writes 4 columns of queryRows doubles at `out`: score, probability, episteme, alea. */
  runBaseline(
    method: string,
    observations: number,
    rows: number,
    cols: number,
    dtype: 32 | 64,
    labels: number,
    labelCount: number,
    queries: number,
    queryRows: number,
    queryCols: number,
    queryDtype: 32 | 64,
    k: number,
    seed: number,
    members: number,
    out: number,
    progress: CoreProgress,
  ): BaselineRun;
  auroc(labels: number, scores: number, n: number): Metric;
  auprc(labels: number, scores: number, n: number): Metric;
  accuracy(labels: number, probability: number, n: number, threshold: number): Metric;
  pearson(x: number, y: number, n: number): Metric;
  rocCurve(labels: number, scores: number, n: number): RocCurveValue;
}

// ---- bindings_regression.cpp ----

export interface OptimizeSettings {
  restarts: number;
  seed: number;
  maxIterations: number;
  /** NaN: the average of y. */
  mean: number;
  /** Parameter names held at their values (the noise by the vocabulary's noiseParameter). */
  fixed: string[];
}

export interface OptimizeReport extends BindingStatus {
  runValues: Float64Array;
  iterations: number;
}

export interface PredictReport extends BindingStatus {
  clampedVariances: number;
}

export interface SampleReport extends BindingStatus {
  jitter: number;
}

export interface RegressionStateValue extends BindingStatus {
  kernel: KernelValue;
  /** The kernel as text, for reading only. */
  description: string;
  noiseVariance: number;
  mean: number;
  logMarginalLikelihood: number;
  size: number;
  dimension: number;
}

/** One fitted GP regression living in the wasm heap. Call delete() when done. */
export interface RegressionHandle {
  fit(
    x: number,
    rows: number,
    cols: number,
    y: number,
    kernel: KernelValue,
    noiseVariance: number,
    mean: number,
  ): BindingStatus;
  optimize(
    x: number,
    rows: number,
    cols: number,
    y: number,
    kernel: KernelValue,
    noiseVariance: number,
    settings: OptimizeSettings,
    progress: CoreProgress,
  ): OptimizeReport;
  /** Writes 8 columns of `rows` doubles at `out`. */
  predict(test: number, rows: number, cols: number, out: number, progress: CoreProgress): PredictReport;
  sample(test: number, rows: number, cols: number, count: number, seed: number, out: number): SampleReport;
  state(): RegressionStateValue;
  delete(): void;
}

export interface RegressionBindings {
  RegressionHandle: new () => RegressionHandle;
}

// ---- bindings_regression_tools.cpp ----

export interface RocValue {
  rho: number;
  points: number;
  positives: number;
  negatives: number;
  /** false when the kept points lack positives or negatives: then the arrays are empty and auc is 0. */
  defined: boolean;
  auc: number;
  falsePositiveRate: Float64Array;
  truePositiveRate: Float64Array;
}

export interface RocSweep extends BindingStatus {
  curves: RocValue[];
}

export interface ExampleValue extends BindingStatus {
  name: string;
  title: string;
  /** What x is called: "x", or "t" for a time. */
  inputName: string;
  x: Float64Array;
  y: Float64Array;
  heldOutX: Float64Array;
  heldOutY: Float64Array;
  lower: number;
  upper: number;
  noiseSd: number;
  /** The model the example is meant for, the parameters it holds, and the starting noise. */
  kernel: KernelValue;
  held: string[];
  noiseVariance: number;
}

export interface AnomalySettings {
  seed: number;
  statusRho: number;
  theta: number;
  rhos: Float64Array;
}

/** Predictions at m points, one Float64Array of length m each. */
export interface PredictionValue {
  mean: Float64Array;
  /** Epistemic: variance of the latent f. */
  latentVariance: Float64Array;
  /** Epistemic + aleatoric: latentVariance + noise variance. */
  observationVariance: Float64Array;
  /** G = 1 − latentVariance / k(x, x) ∈ [0, 1]. */
  knowledge: Float64Array;
  /** 95% band of f: mean ∓ 1.96 √latentVariance. */
  latentLower: Float64Array;
  latentUpper: Float64Array;
  /** 95% band of y: mean ∓ 1.96 √observationVariance. */
  observationLower: Float64Array;
  observationUpper: Float64Array;
}

export interface AnomalyExperimentValue extends BindingStatus {
  trainX: Float64Array;
  trainY: Float64Array;
  trainAnomaly: Uint8Array;
  testX: Float64Array;
  testY: Float64Array;
  testAnomaly: Uint8Array;
  mean: Float64Array;
  latentVariance: Float64Array;
  observationVariance: Float64Array;
  knowledge: Float64Array;
  score: Float64Array;
  statuses: Uint8Array;
  /** The learned kernel, for reading. */
  kernel: string;
  noiseVariance: number;
  logMarginalLikelihood: number;
  ungated: RocValue;
  gated: RocValue[];
  /** The model's predictions on an even grid over the test range. */
  gridX: Float64Array;
  grid: PredictionValue;
}

export interface RegressionToolBindings {
  samplePrior(
    kernel: KernelValue,
    mean: number,
    test: number,
    rows: number,
    cols: number,
    count: number,
    seed: number,
    out: number,
  ): BindingStatus;
  classifyPoints(
    y: number,
    mean: number,
    observationVariance: number,
    knowledge: number,
    n: number,
    rho: number,
    theta: number,
    out: number,
    scores: number,
  ): BindingStatus;
  rocSweep(scores: number, isPositive: number, knowledge: number, n: number, rhos: number, rhoCount: number): RocSweep;
  regressionExample(name: string, seed: number): ExampleValue;
  exampleTruth(name: string, x: number, n: number, out: number): BindingStatus;
  anomalyExperiment(settings: AnomalySettings, progress: CoreProgress): AnomalyExperimentValue;
}

// ---- bindings_classification.cpp ----

/** A classifier's model and hyperparameters: lengthScales holds 1 value (every column) or one per column. */
export interface ClassifierSettings {
  /** "laplace" or "ep". */
  method: string;
  /** "probit" or "logistic" (EP: probit only). */
  likelihood: string;
  signalVariance: number;
  lengthScales: Float64Array;
}

export interface ClassifierOptimizeSettings {
  restarts: number;
  seed: number;
  maxIterations: number;
  /** One length-scale for every column (isotropic) instead of one each. */
  sharedLengthScale: boolean;
  /** MAP prior on log signalVariance: "none" (maximum likelihood), "lognormal:MU,SIGMA" or
   * "student-t:MU,SIGMA,NU" (the CLI's --signal-variance-prior). */
  signalVariancePrior: string;
  /** MAP prior on each log length-scale, the same forms (the CLI's --length-scale-prior). */
  lengthScalePrior: string;
}

export interface ClassifierOptimizeReport extends BindingStatus {
  /** The best log marginal likelihood (plus log prior) of each run. */
  runValues: Float64Array;
  iterations: number;
  startLogMarginalLikelihood: number;
  /** The log prior at the optimum (0 without a prior). */
  logPrior: number;
  converged: boolean;
}

export interface ClassifierPredictReport extends BindingStatus {
  clampedVariances: number;
}

export interface ClassifierStateValue extends BindingStatus {
  method: string;
  likelihood: string;
  signalVariance: number;
  /** One per input column. */
  lengthScales: Float64Array;
  logMarginalLikelihood: number;
  /** d/d[log signalVariance, log lengthScales[0..d-1]]. */
  gradient: Float64Array;
  /** Newton steps (Laplace) or EP sweeps. */
  iterations: number;
  size: number;
  dimension: number;
}

/** One fitted GP classifier living in the wasm heap. Call delete() when done. */
export interface ClassifierHandle {
  fit(x: number, rows: number, cols: number, labels: number, settings: ClassifierSettings): BindingStatus;
  optimize(
    x: number,
    rows: number,
    cols: number,
    labels: number,
    settings: ClassifierSettings,
    options: ClassifierOptimizeSettings,
    progress: CoreProgress,
  ): ClassifierOptimizeReport;
  /** Writes 3 columns of `rows` doubles at `out`: latent mean, latent variance, probability. */
  predict(test: number, rows: number, cols: number, out: number, progress: CoreProgress): ClassifierPredictReport;
  state(): ClassifierStateValue;
  /** Certified robustness at `point` (d values). */
  certifyRobustness(
    point: Float64Array,
    settings: RobustnessSettings,
    progress: CoreProgress,
    onInterval: CoreInterval,
  ): RobustnessCertificateValue;
  /** One certificate per gamma (settings.gamma ignored); progress (gammas done, gammas). */
  robustnessSweep(
    point: Float64Array,
    gammas: Float64Array,
    settings: RobustnessSettings,
    progress: CoreProgress,
  ): RobustnessSweepValue;
  /** Delta_gamma and LIME of p(y = +1) at rows of `points` (m * d values; explain_values.h). */
  explain(points: Float64Array, settings: ExplainSettings, progress: CoreProgress): ExplainValue;
  delete(): void;
}

export interface ClassificationExampleValue extends BindingStatus {
  name: string;
  title: string;
  inputNames: string[];
  /** rows by cols, row-major. */
  x: Float64Array;
  /** 0/1. */
  labels: Float64Array;
  rows: number;
  cols: number;
}

export interface ClassificationDefaults {
  method: string;
  likelihood: string;
  signalVariance: number;
  lengthScale: number;
  restarts: number;
  seed: number;
  maxIterations: number;
  /** L-BFGS iterations of the probing experiment's GP classification probes. */
  probeLaplaceIterations: number;
  probeEpIterations: number;
}

export interface ClassificationVocabulary extends BindingStatus {
  methods: string[];
  likelihoods: string[];
  examples: { name: string; title: string }[];
  defaults: ClassificationDefaults;
}

export interface ClassificationBindings {
  ClassifierHandle: new () => ClassifierHandle;
  classificationExample(name: string, seed: number): ClassificationExampleValue;
  /** Writes rows × dimension doubles at `x` and rows 0/1 labels (as doubles) at `labels`. */
  syntheticClassification(rows: number, dimension: number, seed: number, x: number, labels: number): BindingStatus;
  classificationVocabulary(): ClassificationVocabulary;
  /** MacKay's approximation σ(mean/√(1 + π variance/8)) of E[σ(f)]: n values at `out`. */
  mackayProbabilities(mean: number, variance: number, n: number, out: number): BindingStatus;
}

// ---- bindings_classification_multiclass.cpp ----

/** A multi-class (softmax) classifier's kernels: 1 signal variance for every class or C, 1 length-scale list
 * for every class or C (each 1 value or one per column). */
export interface MulticlassSettings {
  signalVariances: Float64Array | number[];
  lengthScales: (Float64Array | number[])[];
  /** 0: the largest label + 1. */
  classes: number;
}

export interface MulticlassOptimizeSettings {
  restarts: number;
  seed: number;
  maxIterations: number;
  /** One kernel for every class (tied hyperparameters). */
  shared: boolean;
  /** MAP priors, as ClassifierOptimizeSettings'. */
  signalVariancePrior: string;
  lengthScalePrior: string;
}

export interface MulticlassOptimizeReport extends BindingStatus {
  runValues: Float64Array;
  iterations: number;
  startLogMarginalLikelihood: number;
  /** The log prior at the optimum (0 without a prior). */
  logPrior: number;
  converged: boolean;
}

export interface MulticlassPredictReport extends BindingStatus {
  /** The largest estimated error of any class probability. */
  errorEstimate: number;
  /** Points whose quadrature stopped at its node budget. */
  unconverged: number;
  /** The quadratures used ("gauss-hermite", "composite-gauss-legendre", "quasi-monte-carlo"). */
  rules: string[];
}

export interface MulticlassStateValue extends BindingStatus {
  classes: number;
  sharedKernel: boolean;
  /** C values. */
  signalVariances: Float64Array;
  /** C by d, row-major. */
  lengthScales: Float64Array;
  logMarginalLikelihood: number;
  /** C by (1 + d), row-major: d/d[log S_c, log L_c1..L_cd]. */
  gradient: Float64Array;
  /** C: training points per class. */
  classCounts: Float64Array;
  /** Newton steps. */
  iterations: number;
  size: number;
  dimension: number;
}

export interface MulticlassRobustnessSettings {
  gamma: number;
  /** -1: the predicted class. */
  classIndex: number;
  dims: Float64Array;
  validRange: number[] | null;
  tolerance: number;
  maxIterations: number;
  timeLimitSeconds: number;
}

export interface SafetyValue {
  predictedClass: number;
  marginLower: number;
  marginUpper: number;
  witness: Float64Array;
  witnessProbabilities: Float64Array;
  /** "certified" | "refuted" | "unknown". */
  status: string;
  stop: string;
  iterations: number;
}

export interface MulticlassCertificateValue extends BindingStatus {
  classes: number;
  classIndex: number;
  gamma: number;
  /** C values: pi(x*). */
  probabilityAtPoint: Float64Array;
  box: { lower: Float64Array; upper: Float64Array };
  /** One-box bound of the class's probability over all of T. */
  root: IntervalValue;
  minimum: ProbabilityExtremeValue;
  maximum: ProbabilityExtremeValue;
  safety: SafetyValue;
}

/** One fitted multi-class GP classifier living in the wasm heap. Call delete() when done. */
export interface MulticlassClassifierHandle {
  /** labels: class indices 0..C-1 (float64). */
  fit(x: number, rows: number, cols: number, labels: number, settings: MulticlassSettings): BindingStatus;
  optimize(
    x: number,
    rows: number,
    cols: number,
    labels: number,
    settings: MulticlassSettings,
    options: MulticlassOptimizeSettings,
    progress: CoreProgress,
  ): MulticlassOptimizeReport;
  /** Writes rows × C latent means, rows × C × C latent covariances, rows × C probabilities at `out`. */
  predict(test: number, rows: number, cols: number, out: number, progress: CoreProgress): MulticlassPredictReport;
  state(): MulticlassStateValue;
  /** A class's extremes over the box and the predicted class's safety margin. */
  certifyRobustness(
    point: Float64Array,
    settings: MulticlassRobustnessSettings,
    progress: CoreProgress,
  ): MulticlassCertificateValue;
  /** Delta_gamma and LIME of class `classIndex`'s probability at rows of `points` (explain_values.h). */
  explain(points: Float64Array, classIndex: number, settings: ExplainSettings, progress: CoreProgress): ExplainValue;
  delete(): void;
}

export interface MulticlassBindings {
  MulticlassClassifierHandle: new () => MulticlassClassifierHandle;
}

// ---- bindings_certify.cpp ----

/** RobustnessOptions (gpc_robustness.h) under the TS names. */
export interface RobustnessSettings {
  gamma: number;
  /** Moving coordinates (whole numbers); empty: all. */
  dims: Float64Array;
  /** [lo, hi] clipping the moving coordinates, or null. */
  validRange: number[] | null;
  tolerance: number;
  maxIterations: number;
  /** 0: none. */
  timeLimitSeconds: number;
  /** "both" or "adversarial". */
  search: string;
  /** "both", "centred" or "relaxation". */
  variance: string;
}

export interface IntervalValue {
  lower: number;
  upper: number;
}

export interface ProbabilityExtremeValue {
  lower: number;
  upper: number;
  /** d values in the box: where the attained end was found. */
  witness: Float64Array;
  iterations: number;
  /** "converged", "iteration_limit", "time_limit", "min_box" or "cancelled". */
  status: string;
}

export interface RobustnessCertificateValue extends BindingStatus {
  gamma: number;
  probabilityAtPoint: number;
  box: { lower: Float64Array; upper: Float64Array };
  root: { mean: IntervalValue; variance: IntervalValue; probability: IntervalValue };
  minimum: ProbabilityExtremeValue;
  maximum: ProbabilityExtremeValue;
  gpfgs: { point: Float64Array; probability: number };
  /** "yes", "no" or "unknown". */
  verdictCanFlip: string;
}

export interface RobustnessSweepValue extends BindingStatus {
  certificates: RobustnessCertificateValue[];
}

/** CertifyOptions (probe_certificate.h) under the TS names. */
export interface ProbeCertifySettings {
  gamma: number;
  /** "inf" or "2". */
  norm: string;
  dims: Float64Array;
  search: boolean;
  tolerance: number;
  maxIterations: number;
  timeLimitSeconds: number;
}

export interface ProbeCertificateValue extends BindingStatus {
  judgedProbability: number;
  judgedProbabilityBounds: IntervalValue;
  latentMean: IntervalValue;
  latentVariance: IntervalValue;
  episteme: IntervalValue;
  lowestFound: number;
  highestFound: number;
  lowestWitness: Float64Array;
  highestWitness: Float64Array;
  iterations: number;
  /** A search status, or "bounds_only" without branch and bound. */
  status: string;
  verdictCanFlip: string;
}

export interface CertifyDefaults extends BindingStatus {
  robustness: { tolerance: number; maxIterations: number; timeLimitSeconds: number; search: string; variance: string };
  probe: { tolerance: number; maxIterations: number; timeLimitSeconds: number; norm: string };
  /** The multi-class certificate (MulticlassClassifierHandle.certifyRobustness). */
  multiclass: { tolerance: number; maxIterations: number; timeLimitSeconds: number };
}

export interface CertificateBindings {
  certifyDefaults(): CertifyDefaults;
}

// ---- bindings_compare.cpp ----

/** The comparison's options (representation_comparison.h ComparisonOptions) under the TS API's names. */
export interface CompareSettings {
  epsilon: number;
  strength: number;
  /** A query is decided when its judged probability is < decided or > 1 - decided (0.1). */
  decided: number;
  /** Episteme a decided query needs; NaN: the episteme one observation gives at its own point. */
  epistemeThreshold: number;
}

/** One concept probed in one embedding: what that probe alone gives (NaN where undefined). */
export interface RepresentationProbeValue {
  name: string;
  width: number;
  /** "function" or "weight": the posterior form the fit used. */
  space: string;
  observations: number;
  positives: number;
  negatives: number;
  looAuroc: number;
  looAurocStandardError: number;
  /** looAuroc -/+ 2.576 standard errors, clipped to [0, 1] (99%). */
  looAurocLower: number;
  looAurocUpper: number;
  looLogLoss: number;
  looVerdict: 'separates' | 'chance' | 'too_few';
  /** Labelled rows that are not observations. */
  heldoutRows: number;
  heldoutPositives: number;
  heldoutAuroc: number;
  heldoutAurocStandardError: number;
  heldoutAurocLower: number;
  heldoutAurocUpper: number;
  /** Rows that are not observations, and the means over them. */
  queries: number;
  meanJudgedProbability: number;
  meanEpisteme: number;
  meanAlea: number;
  /** Share of queries decided with episteme at least the threshold. */
  decidedFraction: number;
  oodRows: number;
  oodAuroc: number;
  /** On the comparison's basis (held-out rows, else the observations' leave-one-out probabilities). */
  basisAuroc: number;
  basisAurocLower: number;
  basisAurocUpper: number;
  differenceFromBest: number;
  /** DeLong's paired test against the best embedding (two-sided). */
  pValueAgainstBest: number;
  separates: boolean;
  indistinguishableFromBest: boolean;
  /** The basis interval lies below 1/2: the probe ranks the concept inverted. */
  belowHalf: boolean;
}

/** Over draws of the observations (DrawOptions, draw_comparison.h). */
export interface DrawSettings {
  /** R >= 2 draws. */
  draws: number;
  /** "redraw": perClass labelled rows of each class per draw; "bootstrap": the given observations resampled
   * within each class; anything else is refused (invalid_argument). */
  mode: string;
  perClass: number;
  seed: number;
}

/** One embedding over the draws (DrawnProbe); NaN numbers where the basis is none. */
export interface DrawnProbeValue {
  /** The basis AUROC of each draw. */
  auroc: Float64Array;
  mean: number;
  /** Over the draws (denominator R - 1). */
  standardDeviation: number;
  minimum: number;
  maximum: number;
  /** 99% interval of the mean AUROC over draws. */
  lower: number;
  upper: number;
  /** Mean over draws of A_k - A_best. */
  differenceFromBest: number;
  /** The across-draws paired t-test against the best, and Holm-adjusted over the embeddings. */
  pValueAgainstBest: number;
  holmPValue: number;
  /** Draws in which it had the highest AUROC / in which its own DeLong tests put it above every other at 99%. */
  highestInDraws: number;
  claimedInDraws: number;
  separates: boolean;
  belowHalf: boolean;
  /** holmPValue >= 0.01 (true for the best). */
  indistinguishableFromBest: boolean;
}

export interface DrawnComparisonValue {
  /** "none" (one set of observations: nothing else set), "redraw" or "bootstrap". */
  mode: string;
  draws: number;
  /** Per draw. */
  observations: number;
  /** The rows drawn from (redraw) or the given observations (bootstrap). */
  labelledRows: number;
  /** Rows each draw's AUROC is measured on (the first draw's). */
  basisRows: number;
  /** The highest mean AUROC. */
  best: number;
  /** The tests Holm's correction counts. */
  comparisons: number;
  probes: DrawnProbeValue[];
}

export interface ConceptComparisonValue {
  concept: string;
  /** "heldout", "leave_one_out" or "none": the rows the paired tests rank. */
  basis: string;
  basisRows: number;
  /** Index of the best embedding. */
  best: number;
  /** K × K, row-major: A_a - A_b, its standard error and the two-sided p-value of DeLong's paired test. */
  difference: Float64Array;
  standardError: Float64Array;
  pValue: Float64Array;
  sentence: string;
  probes: RepresentationProbeValue[];
  /** Over draws of the observations (after startDrawn); mode "none" otherwise. */
  draws: DrawnComparisonValue;
}

export interface ComparisonValue extends BindingStatus {
  epistemeThreshold: number;
  decided: number;
  /** Whether the names carry layer numbers (layer_names.h), then one per embedding and the noun. */
  layered: boolean;
  layerNoun: string;
  layerNumbers: Float64Array;
  concepts: ConceptComparisonValue[];
}

/** A comparison of representations in steps (ComparisonRun). Call delete() when done. */
export interface CompareHandle {
  /** labels: concepts × rows bytes (0, 1, 255 unlabelled), concept-major; observations: each concept's
   * rows (uint32) one after another, observationCounts (uint32) of them per concept. */
  start(
    names: string[],
    rows: number,
    conceptNames: string[],
    labels: number,
    observations: number,
    observationCounts: number,
    settings: CompareSettings,
  ): BindingStatus;
  /** Probes one concept in one embedding (rows × cols at `embeddings`; its OOD set oodRows × cols at `ood`). */
  probe(
    concept: number,
    embedding: number,
    embeddings: number,
    rows: number,
    cols: number,
    dtype: 32 | 64,
    ood: number,
    oodRows: number,
    progress: CoreProgress,
  ): BindingStatus;
  /** As start(), over draws of the observations (DrawnComparisonRun); redraw ignores the observations given. */
  startDrawn(
    names: string[],
    rows: number,
    conceptNames: string[],
    labels: number,
    observations: number,
    observationCounts: number,
    settings: CompareSettings,
    draws: DrawSettings,
  ): BindingStatus;
  /** Probes every concept in every draw in one embedding (after startDrawn); progress over R × C × (rows + oodRows). */
  probeDrawn(
    embedding: number,
    embeddings: number,
    rows: number,
    cols: number,
    dtype: 32 | 64,
    ood: number,
    oodRows: number,
    progress: CoreProgress,
  ): BindingStatus;
  result(): ComparisonValue;
  delete(): void;
}

export interface AurocIntervalValue extends BindingStatus {
  lower: number;
  upper: number;
}

export interface CompareBindings {
  CompareHandle: new () => CompareHandle;
  /** An AUROC's interval honest at the edges and small samples (auroc_interval.h): the hull of Newcombe's
   * score interval and auroc -/+ z standardError clipped to [0, 1], z the normal's (1 + confidence) / 2 quantile. */
  aurocInterval(
    auroc: number,
    standardError: number,
    positives: number,
    negatives: number,
    confidence: number,
  ): AurocIntervalValue;
}

// ---- bindings_vocabulary.cpp ----

export interface Defaults {
  epsilon: number;
  strength: number;
  space: string;
  expectedQueries: number;
  trials: number;
  seed: number;
  maxObservations: number;
  maxQueries: number;
  members: number;
  k: number;
  gpc: boolean;
  gpcMaxObservations: number;
  restarts: number;
  maxIterations: number;
  noiseVariance: number;
  rho: number;
  theta: number;
  /** The Fig. 3 experiment's ROC sweep. */
  rhos: number[];
}

export interface NamedKernelValue {
  name: string;
  title: string;
  kernel: KernelValue;
}

// ---- bindings_explain.cpp: explanations (the handles' explain methods) ----

/** Certified feature sensitivity Delta_gamma and LIME's settings (explain_values.h). */
export interface ExplainSettings {
  gamma: number;
  /** Features explained; empty: all. */
  dims: Float64Array | number[];
  validRange: number[] | null;
  /** Of each of the four one-dimensional searches per feature. */
  tolerance: number;
  maxIterations: number;
  timeLimitSeconds: number;
  /** LIME's samples N (the point included); 0: no LIME. */
  limeSamples: number;
  /** LIME's sampling seed; point p uses seed + p. */
  seed: number;
  /** d values a switched-off feature becomes (training mean, or 0 for pixels); null: 0. */
  baseline: Float64Array | null;
}

/** For m points and k features; m by k arrays are row-major. */
export interface ExplainValue extends BindingStatus {
  /** k: the features explained. */
  features: Float64Array;
  points: number;
  /** m: the output at each point. */
  values: Float64Array;
  /** m by k: each Delta's certified interval and its value at the witnesses. */
  deltaLower: Float64Array;
  delta: Float64Array;
  deltaUpper: Float64Array;
  /** k: means over the points (the global metric). */
  meanDeltaLower: Float64Array;
  meanDelta: Float64Array;
  meanDeltaUpper: Float64Array;
  /** k: 1 where the feature is constant in the model's training inputs (spread <= 1e-6 of its scale), else 0. */
  constantInTraining: Uint8Array;
  /** m by k: LIME's coefficients (empty without LIME). */
  lime: Float64Array;
  /** m each. */
  limeIntercept: Float64Array;
  limeScore: Float64Array;
  limeKernelWidth: number;
  /** Searches stopped at a limit rather than at the tolerance. */
  unconverged: number;
}

export interface ExampleEntryValue {
  name: string;
  title: string;
}

export interface Vocabulary extends BindingStatus {
  backend: string;
  /** Whether the products' multiply-adds fuse (one rounding): the relaxed build on an engine with FMA. */
  fusedMultiplyAdd: boolean;
  /** Threads the scoring uses: 1 in the single-threaded module. */
  threads: number;
  statusCodes: string[];
  /** Index = the status code classifyPoints writes. */
  anomalyStatuses: string[];
  defaults: Defaults;
  kernels: NamedKernelValue[];
  noiseParameter: string;
  examples: ExampleEntryValue[];
}

export interface VocabularyBindings {
  vocabulary(): Vocabulary;
  /** Threads of later scoring; ignored (1) by the single-threaded module, 0 = the default. */
  setThreads(threads: number): BindingStatus;
}

export interface HeapAccess {
  HEAPU8: Uint8Array;
  HEAPF32: Float32Array;
  HEAPF64: Float64Array;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  /** Threaded module only: renews HEAP* after a pool thread grew the memory (wasm/heap_views_post.js). */
  refreshHeapViews?(): void;
}

export interface GpprobeModule
  extends
    HeapAccess,
    ProbeBindings,
    AnalysisBindings,
    EvaluationBindings,
    RegressionBindings,
    RegressionToolBindings,
    ClassificationBindings,
    MulticlassBindings,
    CertificateBindings,
    CompareBindings,
    VocabularyBindings {}

export interface ModuleOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
  /** Threaded module only: workers started with the module (its pthread pool). */
  threadPoolSize?: number;
  /** Threaded module only: the URL its pool workers import the module from. */
  mainScriptUrlOrBlob?: string;
}

export default function createGpprobeModule(options?: ModuleOptions): Promise<GpprobeModule>;
