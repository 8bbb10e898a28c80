// The classification lab's state and actions: the core's vocabulary, the data (a bundled example or a
// CSV), the plane the maps show, two models side by side (by default Laplace and EP, both probit) each
// with its own hyperparameters, their current fits, and the last hyperparameter fit's report. Engine
// work goes through the one worker client and task store (engine_tasks.ts): fits follow the settings,
// throttled, and a superseded fit is cancelled; "Fit hyperparameters" is one 'terminate' task that
// learns both models' hyperparameters.
import { batch, computed, effect, signal } from '@preact/signals';
import type { ClassificationVocabulary } from '../../../engine/classification/classification.ts';
import { isCancelled } from '../../../engine/errors.ts';
import { CLASSIFICATION_DEFAULTS } from '../../../engine/vocabulary.ts';
import type { ClassifierData, ClassifierFitResult, ClassifierModel } from '../worker/protocol.ts';
import type { RunningRequest } from '../../../common/worker/protocol.ts';
import {
  classCount,
  dataFromExample,
  dataFromExampleTable,
  dataFromTable,
  defaultChoice,
  defaultPlane,
  planeGrid,
  type ClassificationData,
  type ColumnChoice,
  type Plane,
} from './classification_data.ts';
import { notify, report, request, startTask, tasks } from '../../../common/state/engine_tasks.ts';
import { dataSource } from '../../../common/state/data_source.ts';
import { throttled } from '../../../common/state/throttled.ts';

export interface CurrentFit {
  result: ClassifierFitResult;
  model: ClassifierModel;
  key: string;
}

/** The two sides. */
export const SIDES = [0, 1] as const;
export type Side = (typeof SIDES)[number];

export interface FitSettings {
  restarts: number;
  seed: number;
  /** One length-scale for every column (an isotropic kernel) instead of one each. */
  sharedLengthScale: boolean;
  /** Grid points per side of the maps. */
  gridSize: number;
  /** MAP priors of the hyperparameter fit, in the CLI's spellings ("none": maximum likelihood;
   * "lognormal:MU,SIGMA", "student-t:MU,SIGMA,NU" on the log of the parameter). */
  signalVariancePrior: string;
  lengthScalePrior: string;
}

/** The fields of the priors as the panel labels them, and the engine's names for them. */
export const PRIOR_FIELDS = [
  { key: 'signalVariancePrior', label: 'prior on log signal variance' },
  { key: 'lengthScalePrior', label: 'prior on log length-scales' },
] as const;

/** An error of the hyperparameter fit naming a prior by the engine's name, named instead as the panel
 * labels that field ("prior on log signal variance must be none, lognormal:MU,SIGMA or …"). */
export function priorError(error: unknown): string | null {
  const message = error instanceof Error ? error.message : String(error);
  const field = PRIOR_FIELDS.find((f) => message.startsWith(f.key));
  return field ? field.label + message.slice(field.key.length) : null;
}

/** The message of the last hyperparameter fit refused for its prior (shown by the prior fields), or null. */
export const priorMessage = signal<string | null>(null);

/** A finished hyperparameter fit: each side's result, and the settings it ran with. */
export interface LearnedReport {
  results: ClassifierFitResult[];
  settings: FitSettings;
}

export const GRID_SIZES = [100, 150, 200, 300];

export const vocabulary = signal<ClassificationVocabulary | null>(null);
export const plane = signal<Plane | null>(null);
export const fitSettings = signal<FitSettings>({
  restarts: 1,
  seed: CLASSIFICATION_DEFAULTS.seed,
  sharedLengthScale: false,
  gridSize: 150,
  signalVariancePrior: 'none',
  lengthScalePrior: 'none',
});
export const models = signal<[ClassifierModel, ClassifierModel]>([model('laplace', 1), model('ep', 1)]);
export const fits = signal<[CurrentFit | null, CurrentFit | null]>([null, null]);
export const learned = signal<LearnedReport | null>(null);
/** Which models the lab fits: the two binary ones side by side, or one softmax model of C classes (the
 * only choice with more than two classes; multiclass_store.ts). Chosen with the data. */
export const family = signal<'binary' | 'softmax'>('binary');

/** Counts new data (a fit for older data is dropped). */
export const dataVersion = signal(0);
export const grid = computed(() =>
  data.value && plane.value ? planeGrid(data.value, plane.value, fitSettings.value.gridSize) : null,
);
export const fitting = computed(() =>
  tasks.value.some((t) => t.kind === 'classification-optimize' || t.kind === 'classification-multiclass-optimize'),
);
const wanted = computed(() =>
  SIDES.map(
    (k) =>
      `${dataVersion.value}|${JSON.stringify(plane.value)}|${fitSettings.value.gridSize}|${JSON.stringify(models.value[k])}`,
  ),
);

function model(method: 'laplace' | 'ep', d: number): ClassifierModel {
  return {
    method,
    likelihood: 'probit',
    kernel: {
      signalVariance: CLASSIFICATION_DEFAULTS.signalVariance,
      lengthScales: Array(d).fill(CLASSIFICATION_DEFAULTS.lengthScale),
    },
  };
}

/** The default hyperparameters (the core's) for `count` length-scales, on a model's method and likelihood. */
function withDefaultKernel(m: ClassifierModel, count: number): ClassifierModel {
  return { ...m, kernel: model(m.method, count).kernel };
}

/** Whether the two models' hyperparameters are the defaults. */
function atDefaults(ms: readonly ClassifierModel[]): boolean {
  return ms.every(
    (m) =>
      m.kernel.signalVariance === CLASSIFICATION_DEFAULTS.signalVariance &&
      Array.from(m.kernel.lengthScales).every((l) => l === CLASSIFICATION_DEFAULTS.lengthScale),
  );
}

/** Both models' hyperparameters back at the defaults (the Reset button; new data do it too). */
export function resetHyperparameters(): void {
  const d = data.value;
  if (!d) return;
  models.value = models.value.map((m) => withDefaultKernel(m, lengthScaleCount(d.x.cols))) as [
    ClassifierModel,
    ClassifierModel,
  ];
}

/** A model with `count` length-scales: as they are when it has that many, else the first one repeated. */
function resized(m: ClassifierModel, count: number): ClassifierModel {
  if (m.kernel.lengthScales.length === count) return m;
  return { ...m, kernel: { ...m.kernel, lengthScales: Array(count).fill(m.kernel.lengthScales[0]) } };
}

const lengthScaleCount = (d: number) => (fitSettings.value.sharedLengthScale ? 1 : d);

/** New data are wanted: a running hyperparameter fit would hold them up. */
function stopFitting(): void {
  tasks.value
    .find((t) => t.kind === 'classification-optimize' || t.kind === 'classification-multiclass-optimize')
    ?.cancel?.();
}

/** The data: a bundled example or a CSV with its choice of label and feature columns (common/state/data_source.ts). */
const source = dataSource<ClassificationData, ColumnChoice, string>({
  fromTable: dataFromTable,
  defaultChoice,
  adopted: (next) => {
    plane.value = defaultPlane(next);
    // What was fitted or set for other data means nothing here (a fitted S = 586 paled the next maps):
    // back to the defaults, said when something changes.
    const previous = models.value;
    models.value = previous.map((m) => withDefaultKernel(m, lengthScaleCount(next.x.cols))) as [
      ClassifierModel,
      ClassifierModel,
    ];
    if (!atDefaults(previous)) {
      notify(
        'info',
        `New data: both models' hyperparameters are back at their defaults (signal variance ${CLASSIFICATION_DEFAULTS.signalVariance}, length-scales ${CLASSIFICATION_DEFAULTS.lengthScale}).`,
      );
    }
    fits.value = [null, null];
    learned.value = null;
    family.value = classCount(next) > 2 ? 'softmax' : 'binary';
    dataVersion.value += 1;
  },
  beforeLoad: stopFitting,
});
export const { data, table, choice, example: exampleName, error: dataError, uploadCsv, chooseColumns } = source;

/** The bundled multi-class examples (CSV files under demo/classification/, made by
 * scripts/data/make_classification_datasets.py), listed after the core's binary ones. */
export const MULTICLASS_EXAMPLES = [
  { name: 'three-blobs', title: 'Three blobs (3 classes, 2-D)', file: 'three_blobs.csv', trainRows: 180 },
  {
    name: 'digits-358',
    title: 'Digits 3, 5, 8 (8 × 8 images, 3 classes)',
    file: 'digits358.csv',
    trainRows: 400,
    imageWidth: 8,
    // The file's labels 0, 1, 2 are the digits 3, 5, 8 (scripts/data/make_classification_datasets.py).
    classNames: ['3', '5', '8'],
  },
] as const;

export const examples = computed(() => [
  ...(vocabulary.value?.examples ?? []),
  ...MULTICLASS_EXAMPLES.map(({ name, title }) => ({ name, title })),
]);

async function multiclassExample(e: (typeof MULTICLASS_EXAMPLES)[number]): Promise<ClassificationData> {
  const url = new URL(`demo/classification/${e.file}`, document.baseURI);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${e.file}: the example could not be loaded (HTTP ${response.status})`);
  const file = new File([await response.blob()], e.file, { type: 'text/csv' });
  const table = await request(null, { kind: 'parse-table', file, name: e.file });
  const d = dataFromExampleTable(table, e.title, e.trainRows, 'imageWidth' in e ? e.imageWidth : undefined);
  // The classes by what they are (the digits), not the file's indices.
  return 'classNames' in e && e.classNames.length === d.classNames.length ? { ...d, classNames: [...e.classNames] } : d;
}

export async function loadExample(name: string, seed = 1): Promise<void> {
  const multiclass = MULTICLASS_EXAMPLES.find((e) => e.name === name);
  await source.loadExample(
    async () => ({
      data: multiclass
        ? await multiclassExample(multiclass)
        : dataFromExample(await request(null, { kind: 'classification-example', name, seed })),
      example: name,
    }),
    report,
  );
}

export function setPlane(change: Partial<Plane>): void {
  if (plane.value) plane.value = { ...plane.value, ...change };
}

export function setModel(side: Side, change: Partial<ClassifierModel>): void {
  const next = [...models.value] as [ClassifierModel, ClassifierModel];
  next[side] = { ...next[side], ...change };
  if (next[side].method === 'ep') next[side].likelihood = 'probit'; // EP's site moments are closed-form for probit only
  models.value = next;
}

/** Sets the signal variance (index -1) or length-scale j of one side. */
export function setHyperparameter(side: Side, index: number, value: number): void {
  const m = models.value[side];
  const lengthScales = Array.from(m.kernel.lengthScales);
  if (index >= 0) lengthScales[index] = value;
  setModel(side, { kernel: { signalVariance: index < 0 ? value : m.kernel.signalVariance, lengthScales } });
}

/** Gives the other side this side's hyperparameters. */
export function copyHyperparameters(from: Side): void {
  setModel(from === 0 ? 1 : 0, { kernel: models.value[from].kernel });
}

export function updateFitSettings(change: Partial<FitSettings>): void {
  fitSettings.value = { ...fitSettings.value, ...change };
  const d = data.value?.x.cols;
  if (d && change.sharedLengthScale !== undefined) {
    models.value = models.value.map((m) => resized(m, lengthScaleCount(d))) as [ClassifierModel, ClassifierModel];
  }
}

function fitData(): ClassifierData | null {
  const d = data.value,
    g = grid.value;
  if (d && classCount(d) > 2) return null; // binary models take two classes
  return d && g ? { x: d.x, labels: d.labels, grid: g.points } : null;
}

/** Learns both sides' hyperparameters from their current values; the learned ones replace them. */
export async function fitHyperparameters(): Promise<void> {
  const r = fitData();
  if (!r || fitting.value) return;
  const s = fitSettings.value,
    at = dataVersion.value,
    used = models.value;
  try {
    const results = await request('Fitting hyperparameters', {
      kind: 'classification-optimize',
      ...r,
      models: [...used],
      restarts: s.restarts,
      seed: s.seed,
      sharedLengthScale: s.sharedLengthScale,
      signalVariancePrior: s.signalVariancePrior,
      lengthScalePrior: s.lengthScalePrior,
    });
    priorMessage.value = null;
    if (dataVersion.value !== at) return; // other data arrived meanwhile
    const learnedModel = (k: Side): ClassifierModel => ({
      ...used[k],
      kernel: {
        signalVariance: results[k].state.signalVariance,
        lengthScales: s.sharedLengthScale
          ? [results[k].state.lengthScales[0]]
          : Array.from(results[k].state.lengthScales),
      },
    });
    const next: [ClassifierModel, ClassifierModel] = [learnedModel(0), learnedModel(1)];
    batch(() => {
      models.value = next;
      fits.value = SIDES.map((k) => ({ result: results[k], model: next[k], key: wanted.value[k] })) as [
        CurrentFit,
        CurrentFit,
      ];
      learned.value = { results, settings: s };
    });
  } catch (error) {
    refused(error, dataVersion.value === at);
  }
}

/** A failed hyperparameter fit: a prior refused is said by its field (the previous fit stays); a cancel
 * on the same data is said as such; anything else is reported. */
export function refused(error: unknown, sameData: boolean): void {
  const prior = priorError(error);
  priorMessage.value = prior;
  if (prior) return;
  if (!isCancelled(error)) report(error);
  else if (sameData) notify('info', 'Hyperparameter fit cancelled; the previous values are kept.');
}

const running: (RunningRequest<ClassifierFitResult> | null)[] = [null, null];
function refit(side: Side): void {
  const r = fitData(),
    key = wanted.value[side],
    m = models.value[side];
  if (!r || fitting.value || family.value !== 'binary' || fits.value[side]?.key === key) return;
  running[side]?.cancel(); // superseded: its answer would be stale
  const task = startTask(null, { kind: 'classification-fit', ...r, model: m });
  running[side] = task;
  task.result
    .then((result) => {
      if (wanted.value[side] !== key) return;
      const next = [...fits.value] as [CurrentFit | null, CurrentFit | null];
      next[side] = { result, model: m, key };
      fits.value = next;
    }, report)
    .finally(() => {
      if (running[side] === task) running[side] = null;
    });
}

/** Asks the core for the lab's vocabulary, starts the effects that keep both fits current, and loads
 * the first example. */
let started = false;
export async function startClassification(): Promise<void> {
  if (started) return;
  started = true;
  try {
    vocabulary.value = await request(null, { kind: 'classification-vocabulary' });
  } catch (error) {
    report(error);
    return;
  }
  for (const side of SIDES) {
    const schedule = throttled(150, () => refit(side));
    effect(() => {
      void wanted.value[side];
      if (data.value && !fitting.value && family.value === 'binary') schedule();
    });
  }
  if (!source.requested()) await loadExample(vocabulary.value.examples[0].name);
}
