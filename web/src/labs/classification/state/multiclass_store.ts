// The classification lab with C classes: one softmax model (C latent GPs sharing one SE-ARD kernel,
// Laplace; the engine's multiclass.ts) on the lab's data, its fit kept current (throttled, a superseded
// fit cancelled), its hyperparameters set by hand or learned, and its certificate at a point: for every
// class the smallest and largest probability over the box x* ± γ, and the safety verdict of the
// predicted class. The certificate is anytime: the root bounds of every class first (one quick request
// each), then each class refined by branch and bound (one 'terminate' request each, the predicted class
// first), every interval shown as it arrives; Cancel ends the running request and the rest. The time limit is
// the wall time of the whole certificate from the click: every refining request carries its deadline, the core's
// searches share it (the safety margin's, then the class's minimum and maximum), and a class reached after it is
// not refined (its root bounds hold).
import { batch, computed, effect, signal } from '@preact/signals';
import type { MulticlassCertificate } from '../../../engine/classification/multiclass.ts';
import { isCancelled } from '../../../engine/errors.ts';
import { CLASSIFICATION_DEFAULTS } from '../../../engine/vocabulary.ts';
import type { RunningRequest } from '../../../common/worker/protocol.ts';
import { notify, report, request, startTask } from '../../../common/state/engine_tasks.ts';
import { throttled } from '../../../common/state/throttled.ts';
import type { MulticlassCertifyRequest, MulticlassFitResult, MulticlassModel } from '../worker/multiclass_protocol.ts';
import { classCount, classIndices, type ClassificationData } from './classification_data.ts';
import {
  data,
  dataVersion,
  family,
  fitSettings,
  fitting,
  grid,
  plane,
  priorMessage,
  refused,
  vocabulary,
  type FitSettings,
} from './classification_store.ts';
import { point, robustnessProblems, robustnessSettings, type RobustnessSettings } from './certify_store.ts';

export interface MulticlassFit {
  result: MulticlassFitResult;
  model: MulticlassModel;
  key: string;
}

export const defaultMulticlassModel = (count: number): MulticlassModel => ({
  signalVariance: CLASSIFICATION_DEFAULTS.signalVariance,
  lengthScales: Array(count).fill(CLASSIFICATION_DEFAULTS.lengthScale),
});

export const multiclassModel = signal<MulticlassModel>(defaultMulticlassModel(2));
export const multiclassFit = signal<MulticlassFit | null>(null);
/** The last hyperparameter fit's result (its optimisation report) and the settings it ran with, for the panel. */
export const multiclassLearned = signal<(MulticlassFitResult & { settings: FitSettings }) | null>(null);

/** Whether the maps are drawn (one or two features); with more, the held-out points are listed instead. */
export const mapsShown = (d: ClassificationData) => d.x.cols <= 2;

const wanted = computed(() => {
  const d = data.value;
  if (!d || family.value !== 'softmax') return null;
  return `${dataVersion.value}|${JSON.stringify(plane.value)}|${fitSettings.value.gridSize}|${JSON.stringify(multiclassModel.value)}`;
});

/** The classes C of the data (a softmax model of two-class data has C = 2). */
export const classes = computed(() => (data.value ? classCount(data.value) : 0));

function fitRequest(d: ClassificationData) {
  const g = mapsShown(d) ? (grid.value?.points ?? null) : null;
  return {
    x: d.x,
    labels: classIndices(d),
    classes: classCount(d),
    grid: g,
    test: mapsShown(d) ? null : (d.test?.x ?? d.x),
  };
}

const lengthScaleCount = (d: ClassificationData) => (fitSettings.value.sharedLengthScale ? 1 : d.x.cols);

/** The softmax model back at the defaults (new data, the Reset button). */
export function resetMulticlass(): void {
  const d = data.value;
  if (d) multiclassModel.value = defaultMulticlassModel(lengthScaleCount(d));
}

/** Sets the signal variance (index −1) or length-scale j. */
export function setMulticlassHyperparameter(index: number, value: number): void {
  const m = multiclassModel.value,
    lengthScales = [...m.lengthScales];
  if (index >= 0) lengthScales[index] = value;
  multiclassModel.value = { signalVariance: index < 0 ? value : m.signalVariance, lengthScales };
}

let running: RunningRequest<MulticlassFitResult> | null = null;
function refit(): void {
  const d = data.value,
    key = wanted.value,
    m = multiclassModel.value;
  if (!d || key === null || fitting.value || multiclassFit.value?.key === key) return;
  if (mapsShown(d) && !grid.value) return;
  running?.cancel(); // superseded: its answer would be stale
  const task = startTask(null, { kind: 'classification-multiclass-fit', ...fitRequest(d), model: m });
  running = task;
  task.result
    .then((result) => {
      if (wanted.value === key) multiclassFit.value = { result, model: m, key };
    }, report)
    .finally(() => {
      if (running === task) running = null;
    });
}

/** Learns the softmax model's hyperparameters (one kernel shared by the classes) from the current ones. */
export async function fitMulticlassHyperparameters(): Promise<void> {
  const d = data.value;
  if (!d || fitting.value) return;
  const s = fitSettings.value,
    at = dataVersion.value,
    key = wanted.value;
  try {
    const result = await request("Fitting the softmax model's hyperparameters", {
      kind: 'classification-multiclass-optimize',
      ...fitRequest(d),
      model: multiclassModel.value,
      restarts: s.restarts,
      seed: s.seed,
      signalVariancePrior: s.signalVariancePrior,
      lengthScalePrior: s.lengthScalePrior,
    });
    priorMessage.value = null;
    if (dataVersion.value !== at) return;
    const k = result.state.kernels[0];
    const model: MulticlassModel = {
      signalVariance: k.signalVariance,
      lengthScales: s.sharedLengthScale ? [k.lengthScales[0]] : Array.from(k.lengthScales),
    };
    batch(() => {
      multiclassModel.value = model;
      multiclassFit.value = { result, model, key: wanted.value ?? key ?? '' };
      multiclassLearned.value = { ...result, settings: s };
    });
  } catch (error) {
    refused(error, dataVersion.value === at);
  }
}

// ---- Certify a point: every class's interval and the safety verdict ----

/** 'out-of-time': never refined, the time limit having passed before its turn (its root bounds hold). */
export type IntervalState = 'waiting' | 'running' | 'done' | 'cancelled' | 'failed' | 'out-of-time';

export interface ClassInterval {
  classIndex: number;
  /** The root bounds (no split), then the refined certificate. */
  root: MulticlassCertificate | null;
  result: { certificate: MulticlassCertificate; seconds: number } | null;
  state: IntervalState;
  /** Splits done so far of this class's searches, and their limit. */
  progress: { done: number; total: number } | null;
  error?: string;
}

export interface MulticlassCertification {
  run: number;
  model: MulticlassModel;
  point: number[];
  settings: RobustnessSettings;
  classes: ClassInterval[];
  state: 'running' | 'done' | 'cancelled' | 'failed';
  /** Date.now() at the click: settings.timeLimitSeconds (0: none) counts from here, for the whole certificate. */
  started: number;
  /** Wall seconds from the click to the end, once done. */
  seconds?: number;
}

/** Whether the time limit cut any of the certificate's work: a class not refined, or a search stopped on time. */
export function stoppedOnTime(m: MulticlassCertification): boolean {
  return m.classes.some(
    (c) =>
      c.state === 'out-of-time' ||
      (c.result !== null &&
        (c.result.certificate.minimum.status === 'time_limit' ||
          c.result.certificate.maximum.status === 'time_limit' ||
          c.result.certificate.safety.stop === 'time_limit')),
  );
}

export const multiclassCertification = signal<MulticlassCertification | null>(null);
export const multiclassCertifying = computed(() => multiclassCertification.value?.state === 'running');

/** The best certificate a class has: refined when done, else its root bounds. */
export const certificateOf = (c: ClassInterval): MulticlassCertificate | null => c.result?.certificate ?? c.root;

/** The safety verdict to show: of the latest refined certificate, else of a root one (a root certificate's
 * safety search was not run: its verdict is "unknown" with the root margin interval). */
export function safetyOf(m: MulticlassCertification): MulticlassCertificate['safety'] | null {
  const refined = m.classes.filter((c) => c.result).map((c) => c.result!.certificate.safety);
  if (refined.length) return refined.at(-1)!;
  return m.classes.find((c) => c.root)?.root?.safety ?? null;
}

let run = 0;
let current: RunningRequest<unknown> | null = null;

export function cancelMulticlassCertify(): void {
  run += 1;
  current?.cancel();
  const m = multiclassCertification.value;
  if (m && m.state === 'running') {
    multiclassCertification.value = {
      ...m,
      state: 'cancelled',
      classes: m.classes.map((c) =>
        c.state === 'running' || c.state === 'waiting' ? { ...c, state: 'cancelled' } : c,
      ),
    };
  }
}

function setClass(mine: number, k: number, change: Partial<ClassInterval>): void {
  const m = multiclassCertification.value;
  if (!m || m.run !== mine) return;
  multiclassCertification.value = {
    ...m,
    classes: m.classes.map((c) => (c.classIndex === k ? { ...c, ...change } : c)),
  };
}

/** The order classes are refined in: the predicted class at x* first, then by probability. */
export function refineOrder(probabilityAtPoint: ArrayLike<number>): number[] {
  return Array.from(probabilityAtPoint, (p, k) => [p, k] as const)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1])
    .map(([, k]) => k);
}

/** Images' pixels stay in [0, 1] (the box is clipped to it: a pixel cannot go darker than black); other
 * data are not clipped. */
export const validRange = (d: ClassificationData): [number, number] | null => (d.imageWidth ? [0, 1] : null);

/** Certifies the softmax model at x*: every class's root bounds, then each class refined. */
export async function certifyMulticlass(): Promise<void> {
  const d = data.value,
    p = point.value;
  if (!d || !p) return;
  const s = robustnessSettings.value,
    problems = robustnessProblems('certify', s);
  if (problems.length) {
    notify('error', `Not certified: ${problems.join('; ')}.`);
    return;
  }
  cancelMulticlassCertify();
  const mine = run,
    C = classCount(d),
    model = multiclassModel.value,
    started = Date.now();
  // One deadline for every refining request (null: no limit); the root bounds (one box per search) are not cut.
  const deadline = s.timeLimitSeconds > 0 ? started + s.timeLimitSeconds * 1000 : null;
  multiclassCertification.value = {
    run: mine,
    model,
    point: p.x,
    settings: s,
    started,
    state: 'running',
    classes: Array.from({ length: C }, (_, k): ClassInterval => ({
      classIndex: k,
      root: null,
      result: null,
      state: 'waiting',
      progress: null,
    })),
  };
  const base = { x: d.x, labels: classIndices(d), classes: C, model, point: p.x };
  const options = (maxIterations: number): MulticlassCertifyRequest['options'] => ({
    gamma: s.gamma,
    dims: s.dims.length === d.x.cols ? [] : s.dims,
    validRange: validRange(d),
    tolerance: s.tolerance,
    maxIterations,
    timeLimitSeconds: s.timeLimitSeconds,
  });
  const step = async (k: number, maxIterations: number, label: string | null) => {
    const task = startTask(
      label,
      {
        kind: 'classification-multiclass-certify',
        ...base,
        classIndex: k,
        options: options(maxIterations),
        deadline: maxIterations > 0 ? deadline : null,
      },
      ({ done, total }) => {
        if (run === mine && maxIterations > 0) setClass(mine, k, { progress: { done, total } });
      },
    );
    current = task;
    return task.result;
  };
  try {
    for (let k = 0; k < C && run === mine; k++) {
      const root = await step(k, 0, null);
      setClass(mine, k, { root: root.certificate });
    }
    const order = refineOrder(multiclassCertification.value!.classes[0].root!.probabilityAtPoint);
    for (const k of order) {
      if (run !== mine) break;
      if (deadline !== null && Date.now() >= deadline) {
        setClass(mine, k, { state: 'out-of-time' });
        continue;
      }
      setClass(mine, k, { state: 'running' });
      const result = await step(k, s.maxIterations, `Certifying class ${d.classNames[k]} (softmax)`);
      setClass(mine, k, { result, state: 'done' });
    }
    const m = multiclassCertification.value;
    if (m && m.run === mine)
      multiclassCertification.value = { ...m, state: 'done', seconds: (Date.now() - started) / 1000 };
  } catch (error) {
    if (isCancelled(error)) return;
    const m = multiclassCertification.value;
    if (m && m.run === mine) {
      const message = error instanceof Error ? error.message : String(error);
      multiclassCertification.value = {
        ...m,
        state: 'failed',
        classes: m.classes.map((c) =>
          c.state === 'running' || c.state === 'waiting' ? { ...c, state: 'failed', error: message } : c,
        ),
      };
    }
    report(error);
  }
}

/** x* from a click (a point of the map, a held-out image): certify there. */
export function pickMulticlassPoint(x: number[], index: number | null): void {
  point.value = { x, index };
  void certifyMulticlass();
}

/** Starts the effects that keep the softmax fit current (startClassification calls it). */
let started = false;
export function startMulticlass(): void {
  if (started) return;
  started = true;
  const schedule = throttled(150, refit);
  effect(() => {
    void wanted.value;
    void grid.value;
    if (data.value && vocabulary.value && !fitting.value && family.value === 'softmax') schedule();
  });
  // New data: the model back at the defaults, nothing certified.
  let seen: ClassificationData | null = null;
  effect(() => {
    const d = data.value;
    if (d === seen) return;
    seen = d;
    cancelMulticlassCertify();
    batch(() => {
      multiclassCertification.value = null;
      multiclassFit.value = null;
      multiclassLearned.value = null;
      if (d) multiclassModel.value = defaultMulticlassModel(lengthScaleCount(d));
    });
  });
  // One length-scale or one per column.
  effect(() => {
    const d = data.value,
      shared = fitSettings.value.sharedLengthScale;
    const m = multiclassModel.peek(),
      count = d ? (shared ? 1 : d.x.cols) : m.lengthScales.length;
    if (m.lengthScales.length !== count)
      multiclassModel.value = { ...m, lengthScales: Array(count).fill(m.lengthScales[0]) };
  });
}
