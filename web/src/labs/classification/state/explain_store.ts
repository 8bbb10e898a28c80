// "Explain a point" in the Classification tab: model A's (or the softmax model's, for one class) certified
// feature sensitivity Δ_γ at a chosen training point (each feature's interval and value) beside LIME's coefficients, and the global view:
// the mean Δ over M chosen points with LIME's mean coefficient. Images (a square number of features in
// [0, 1], e.g. the 8 × 8 digits) are explained pixel by pixel, clipped to [0, 1], with LIME switching
// pixels off to 0 as the paper does; other data with the training mean as LIME's "off". Each run is one
// task of kind 'classification-explain' (worker/explain_protocol.ts, policy 'terminate').
import { signal } from '@preact/signals';
import { isCancelled } from '../../../engine/errors.ts';
import {
  EXPLAIN_CSV_HEADER,
  EXPLAIN_DEFAULTS,
  explanationCsv,
  type Explanation,
} from '../../../engine/explain/explain.ts';
import type { RunningRequest } from '../../../common/worker/protocol.ts';
import { notify, report, startTask } from '../../../common/state/engine_tasks.ts';
import { problemsIn } from '../../../common/state/field_problems.ts';
import type { ClassifierModel } from '../worker/protocol.ts';
import { modelLabel } from '../worker/protocol.ts';
import { classCount, classIndices, type ClassificationData } from './classification_data.ts';
import { data, family, models } from './classification_store.ts';
import { multiclassModel } from './multiclass_store.ts';
import { imageSide } from '../plots/explain_plots.ts';

export const EXPLAIN_FORM = 'classification-explain';

export interface ExplainSettings {
  gamma: number;
  /** The training point explained. */
  index: number;
  /** Points of the global view: every ⌈n / M⌉-th training point, M of them. */
  globalPoints: number;
  limeSamples: number;
  tolerance: number;
  /** A feature off its most common training value in fewer than max(2, share × n) rows is nearly constant:
   * hatched and not ranked, as a constant one (0: only constant features). */
  nearlyConstantShare: number;
  /** Softmax model: the class explained; null: the predicted one. */
  classIndex: number | null;
}

export interface ExplainResult {
  kind: 'local' | 'global';
  /** The binary model explained, or null for the softmax model. */
  model: ClassifierModel | null;
  /** What the panel calls the model ("Laplace (logistic)", "softmax Laplace"). */
  modelName: string;
  /** Softmax model: the class whose probability was explained. */
  classIndex: number | null;
  settings: ExplainSettings;
  /** The points explained (m × d) and their indices in the data. */
  points: Float64Array;
  indices: number[];
  image: number | null;
  explanation: Explanation;
  seconds: number;
}

export const explainSettings = signal<ExplainSettings>({
  gamma: 0.25,
  index: 0,
  globalPoints: 20,
  limeSamples: 2000,
  tolerance: 1e-3,
  nearlyConstantShare: EXPLAIN_DEFAULTS.nearlyConstantShare,
  classIndex: null,
});
export const localExplanation = signal<ExplainResult | null>(null);
export const globalExplanation = signal<ExplainResult | null>(null);
export const explaining = signal<'local' | 'global' | null>(null);

export function updateExplainSettings(change: Partial<ExplainSettings>): void {
  explainSettings.value = { ...explainSettings.value, ...change };
}

/** The side of the image the data are (every value in [0, 1] and d a square), or null for tabular data. */
export function imageOf(d: ClassificationData): number | null {
  const side = imageSide(d.x.cols);
  if (side === null) return null;
  for (let i = 0; i < d.x.data.length; i++) if (!(d.x.data[i] >= 0 && d.x.data[i] <= 1)) return null;
  return side;
}

/** Every ⌈n / M⌉-th row: M points spread over the data. */
export function globalIndices(n: number, m: number): number[] {
  const count = Math.max(1, Math.min(n, Math.round(m)));
  const step = n / count;
  return Array.from({ length: count }, (_, k) => Math.floor(k * step));
}

/** The explanation as `gpprobe explain` writes it: one point's rows, or the global view's means. */
export function explainResultCsv(r: ExplainResult): string {
  return explanationCsv(r.explanation, r.kind === 'global' ? 'mean' : 0);
}
export { EXPLAIN_CSV_HEADER };

let current: RunningRequest<unknown> | null = null,
  run = 0;

export function cancelExplanation(): void {
  run += 1;
  current?.cancel();
}

/** Explains the chosen training point ('local') or the M points of the global view with model A. */
export async function explain(kind: 'local' | 'global'): Promise<void> {
  const d = data.value;
  if (!d) return;
  const problems = problemsIn(EXPLAIN_FORM);
  if (problems.length > 0) {
    notify('error', `Not explained: ${problems.join('; ')}.`);
    return;
  }
  const s = explainSettings.value,
    n = d.labels.length,
    cols = d.x.cols;
  if (kind === 'local' && !(Number.isInteger(s.index) && s.index >= 0 && s.index < n)) {
    notify('error', `Not explained: point ${s.index} is not a row of the data (0 to ${n - 1}).`);
    return;
  }
  cancelExplanation();
  const mine = run;
  const indices = kind === 'local' ? [s.index] : globalIndices(n, s.globalPoints);
  const points = new Float64Array(indices.length * cols);
  indices.forEach((i, p) => points.set(d.x.data.subarray(i * cols, (i + 1) * cols), p * cols));
  const image = imageOf(d),
    softmax = family.value === 'softmax';
  const model = softmax ? null : models.value[0];
  const modelName = model ? modelLabel(model) : 'softmax Laplace';
  const classes = classCount(d);
  const classIndex = softmax && s.classIndex !== null && s.classIndex < classes ? s.classIndex : null;
  explaining.value = kind;
  try {
    const task = startTask(
      kind === 'local'
        ? `Explaining point ${s.index} (${modelName}, γ = ${s.gamma})`
        : `Explaining ${indices.length} points (${modelName}, γ = ${s.gamma})`,
      {
        kind: 'classification-explain',
        x: d.x,
        labels: softmax ? classIndices(d) : d.labels,
        model,
        points,
        softmax: softmax ? { model: multiclassModel.value, classes, classIndex } : null,
        options: {
          gamma: s.gamma,
          validRange: image ? [0, 1] : null,
          tolerance: s.tolerance,
          limeSamples: s.limeSamples,
          seed: 0,
          baseline: image ? 'zero' : 'mean',
          nearlyConstantShare: s.nearlyConstantShare,
        },
      },
    );
    current = task;
    const r = await task.result;
    if (mine !== run) return;
    const result: ExplainResult = {
      kind,
      model,
      modelName,
      classIndex: r.classIndex,
      settings: s,
      points,
      indices,
      image,
      explanation: r.explanation,
      seconds: r.seconds,
    };
    if (kind === 'local') localExplanation.value = result;
    else globalExplanation.value = result;
  } catch (error) {
    if (!isCancelled(error)) report(error);
  } finally {
    if (mine === run) explaining.value = null;
  }
}
