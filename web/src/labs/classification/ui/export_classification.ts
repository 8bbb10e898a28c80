// "Export predictions (CSV)": the training points (their inputs and labels) and every grid point of the
// maps (every input column, the plane's and the held ones), each with both models' latent mean, latent
// variance and probability, at 17 significant digits as the CLI writes them (gpprobe gpc).
import type { ClassificationData, PlaneGrid } from '../state/classification_data.ts';
import type { CurrentFit } from '../state/classification_store.ts';
import { csvCell, formatDigits17 } from '../../../common/ui/format.ts';

const COLUMNS = [['latent_mean', 'latentMean'], ['latent_variance', 'latentVariance'], ['probability', 'probability']] as const;

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
