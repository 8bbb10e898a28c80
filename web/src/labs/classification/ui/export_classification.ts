// "Export predictions (CSV)": the training points (their inputs and labels) and every grid point of the
// maps (every input column, the plane's and the held ones), each with both models' latent mean, latent
// variance and probability, at 17 significant digits as the CLI writes them (gpprobe gpc).
import type { ClassificationData, PlaneGrid } from '../state/classification_data.ts';
import type { CurrentFit } from '../state/classification_store.ts';
import type { MulticlassFitResult, MulticlassPredictionSummary } from '../worker/multiclass_protocol.ts';
import { csvCell, formatDigits17 } from '../../../common/ui/format.ts';

const COLUMNS = [
  ['latent_mean', 'latentMean'],
  ['latent_variance', 'latentVariance'],
  ['probability', 'probability'],
] as const;

/** "laplace_probit", and "ep_probit_b" when both sides are the same model. */
function prefixes(fits: CurrentFit[]): string[] {
  const names = fits.map((f) => `${f.model.method}_${f.model.likelihood}`);
  return names.map((name, k) => (names.indexOf(name) !== k ? `${name}_${'ab'[k]}` : name));
}

export function classificationCsv(data: ClassificationData, grid: PlaneGrid, fits: CurrentFit[]): string {
  const d = data.x.cols;
  const header = ['set', 'point', ...data.inputNames, data.labelName];
  for (const prefix of prefixes(fits)) for (const [column] of COLUMNS) header.push(`${prefix}_${column}`);
  const lines = [header.map(csvCell).join(',')];
  const rows = (set: string, x: Float64Array, count: number, labels: Float64Array | null, part: 'data' | 'grid') => {
    for (let i = 0; i < count; i++) {
      const cells = [set, String(i)];
      for (let j = 0; j < d; j++) cells.push(formatDigits17(x[i * d + j]));
      cells.push(labels ? formatDigits17(labels[i]) : '');
      for (const f of fits) for (const [, key] of COLUMNS) cells.push(formatDigits17(f.result[part]![key][i]));
      lines.push(cells.join(','));
    }
  };
  rows('training', data.x.data, data.x.rows, data.labels, 'data');
  rows('grid', grid.points.data, grid.points.rows, null, 'grid');
  return `${lines.join('\n')}\n`;
}

/** The softmax model's predictions: the training points, then the held-out points (or the map's grid),
 * (none for a CSV: those are the training points), each with its C latent means, C latent variances (the covariance's diagonal), C probabilities and the
 * predictive entropy, at 17 significant digits (the column names of `gpprobe gpc --likelihood softmax`). */
export function multiclassCsv(data: ClassificationData, grid: PlaneGrid | null, fit: MulticlassFitResult): string {
  const d = data.x.cols,
    C = fit.data.classes,
    k = Array.from({ length: C }, (_, c) => c);
  const header = [
    'set',
    'point',
    ...data.inputNames,
    data.labelName,
    ...k.map((c) => `latent_mean_${c}`),
    ...k.map((c) => `latent_cov_${c}_${c}`),
    ...k.map((c) => `probability_${c}`),
    'entropy',
  ];
  const lines = [header.map(csvCell).join(',')];
  const rows = (set: string, x: Float64Array, labels: Float64Array | null, p: MulticlassPredictionSummary) => {
    for (let i = 0; i < p.rows; i++) {
      const cells = [set, String(i)];
      for (let j = 0; j < d; j++) cells.push(formatDigits17(x[i * d + j]));
      cells.push(labels ? formatDigits17(labels[i]) : '');
      for (const values of [p.latentMean, p.latentVariance, p.probability])
        for (const c of k) cells.push(formatDigits17(values[i * C + c]));
      cells.push(formatDigits17(p.entropy[i]));
      lines.push(cells.join(','));
    }
  };
  rows('training', data.x.data, data.labels, fit.data);
  if (fit.test && data.test) rows('held_out', data.test.x.data, data.test.labels, fit.test);
  if (fit.grid && grid) rows('grid', grid.points.data, null, fit.grid);
  return `${lines.join('\n')}\n`;
}
