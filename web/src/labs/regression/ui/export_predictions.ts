// "Export predictions (CSV)": the data and held-out points with their statuses, and for a 1-D input a
// grid of 10,000 points predicted in the worker (blocked inside the core, with progress and cancel).
import { dataStatus } from '../state/anomaly_store.ts';
import { report, request } from '../../../common/state/engine_tasks.ts';
import { EXPORT_POINTS, inputRange, evenGrid } from '../state/regression_grid.ts';
import { currentFit, example, series } from '../state/regression_store.ts';
import { saveBlob, slug } from '../../../common/ui/download.ts';
import { predictionsCsv, type PredictionSet } from './predictions_csv.ts';

export async function exportPredictions(): Promise<void> {
  const data = series.value,
    current = currentFit.value;
  if (!data || !current) return;
  const fit = current.result;
  const st = dataStatus.value?.fit === fit ? dataStatus.value : null;
  const sets: PredictionSet[] = [
    { set: 'data', x: data.x.data, y: data.y, prediction: fit.data, classification: st?.data ?? null },
  ];
  if (data.heldOut && fit.extra) {
    sets.push({
      set: 'held_out',
      x: data.heldOut.x,
      y: data.heldOut.y,
      prediction: fit.extra,
      classification: st?.extra ?? null,
    });
  }
  const range = inputRange(data, example.value);
  try {
    if (range) {
      const test = evenGrid(range, EXPORT_POINTS);
      // The fitted state's own kernel and noise, exactly as the core reported them.
      const { kernel, noiseVariance } = fit.state;
      const prediction = await request(`Predicting ${EXPORT_POINTS.toLocaleString()} points for the export`, {
        kind: 'regression-predict',
        x: data.x,
        y: data.y,
        kernel,
        noiseVariance,
        test,
      });
      sets.push({ set: 'grid', x: test.data, y: null, prediction, classification: null });
    }
    saveBlob(new Blob([predictionsCsv(data, sets)], { type: 'text/csv' }), `${slug(data.name)}-predictions.csv`);
  } catch (error) {
    report(error);
  }
}
