// Where the regression lab predicts for its plots and exports: evenly spaced points over the range of
// a one-dimensional input (an example's own range, or the data's range widened by a tenth on each
// side so that extrapolation shows). With more than one input column there is no such line.
import type { ExampleResult, Inputs } from '../worker/protocol.ts';
import type { RegressionSeries } from './regression_series.ts';

export const PLOT_POINTS = 400;
export const EXPORT_POINTS = 10_000;

/** [lower, upper] of a one-dimensional input, or null when there are several input columns. */
export function inputRange(data: RegressionSeries | null, example: ExampleResult | null): [number, number] | null {
  if (!data || data.x.cols !== 1) return null;
  if (example) return [example.example.lower, example.example.upper];
  let lo = Infinity,
    hi = -Infinity;
  for (const v of data.x.data) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const pad = 0.1 * (hi - lo || 1);
  return [lo - pad, hi + pad];
}

export function evenGrid([lo, hi]: [number, number], points: number): Inputs {
  const data = Float64Array.from({ length: points }, (_, i) => lo + ((hi - lo) * i) / (points - 1));
  return { data, rows: points, cols: 1 };
}

export function plotGrid(
  data: RegressionSeries | null,
  example: ExampleResult | null,
  points = PLOT_POINTS,
): Inputs | null {
  const range = inputRange(data, example);
  return range ? evenGrid(range, points) : null;
}
