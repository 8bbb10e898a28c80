// The regression lab's predictions as one CSV: the data points, the held-out points and a dense grid
// (set = data | held_out | grid), each with the engine's mean, variances, 95% bands and knowledge, and
// for points with a y the anomaly score and status. Numbers are written exactly (shortest round trip).
import type { AnomalyClassification, RegressionPrediction } from '../../../engine/regression/regression.ts';
import { ANOMALY_STATUSES } from '../../../engine/vocabulary.ts';
import { csvCell } from '../../../common/ui/format.ts';
import type { RegressionSeries } from '../state/regression_series.ts';

export const PREDICTION_HEADER = [
  'mean',
  'latent_variance',
  'observation_variance',
  'latent_lower',
  'latent_upper',
  'observation_lower',
  'observation_upper',
  'knowledge',
];

const COLUMNS = [
  'mean',
  'latentVariance',
  'observationVariance',
  'latentLower',
  'latentUpper',
  'observationLower',
  'observationUpper',
  'knowledge',
] as const satisfies readonly (keyof RegressionPrediction)[];

export interface PredictionSet {
  set: 'data' | 'held_out' | 'grid';
  /** rows by cols inputs, row-major. */
  x: Float64Array;
  y: Float64Array | null;
  prediction: RegressionPrediction;
  classification: AnomalyClassification | null;
}

/** One CSV text for every set, with a header naming the inputs as the series does. */
export function predictionsCsv(data: RegressionSeries, sets: PredictionSet[]): string {
  const d = data.x.cols;
  const header = ['set', ...data.xNames, data.yName, ...PREDICTION_HEADER, 'anomaly_score', 'status']
    .map(csvCell)
    .join(',');
  const lines = [header];
  for (const s of sets) {
    const n = s.prediction.mean.length;
    for (let i = 0; i < n; i++) {
      const cells: string[] = [s.set];
      for (let j = 0; j < d; j++) cells.push(String(s.x[i * d + j]));
      cells.push(s.y ? String(s.y[i]) : '');
      for (const c of COLUMNS) cells.push(String(s.prediction[c][i]));
      cells.push(s.classification ? String(s.classification.scores[i]) : '');
      cells.push(s.classification ? ANOMALY_STATUSES[s.classification.statuses[i]] : '');
      lines.push(cells.join(','));
    }
  }
  return `${lines.join('\n')}\n`;
}
