// Densities of the belief g(a) in (0, 1): for a selected query (paper Eq. 8) against the prior, and
// the hyperparameter preview (exact Beta beside the probe's logit-normal, paper Figs 9-11).
import { ACCENT, NEGATIVE, NEUTRAL, POSITIVE } from '../../../common/plots/colors.ts';
import type { PlotSpec } from '../../../common/plots/plot_model.ts';

/** An evaluation grid for densities on (0, 1), denser near the ends where Beta(ε, ε) has its mass. */
export function beliefGrid(points = 301): Float64Array {
  const grid = new Float64Array(points);
  for (let i = 0; i < points; i++) {
    const t = (i + 0.5) / points;
    grid[i] = 0.5 - 0.5 * Math.cos(Math.PI * t); // Chebyshev-like spacing
  }
  return grid;
}

/** The grid every belief density of the probe lab is drawn on (the worker computes them on it). */
export const DENSITY_GRID = beliefGrid();

function densityCap(...curves: Float64Array[]): number {
  // Beta(ε, ε) with ε < 1 is infinite at 0 and 1: cap the axis at the interior's height.
  let max = 0;
  for (const c of curves) for (let i = Math.floor(c.length * 0.03); i < c.length * 0.97; i++) max = Math.max(max, c[i]);
  return Math.max(1, max * 1.15);
}

export function queryBelief(grid: Float64Array, posterior: Float64Array, prior: Float64Array, title: string): PlotSpec {
  return {
    title,
    marks: [
      { type: 'area', x: grid, y1: posterior, y0: grid.map(() => 0), fill: ACCENT, opacity: 0.18 },
      { type: 'line', x: grid, y: posterior, color: ACCENT, width: 2 },
      { type: 'line', x: grid, y: prior, color: NEUTRAL, width: 1.5, dash: [5, 4] },
    ],
    x: { label: 'g(a): probability that the query shows the concept', domain: [0, 1] },
    y: { label: 'density', domain: [0, densityCap(posterior, prior)] },
    legend: [
      { label: 'posterior (Eq. 8)', color: ACCENT, kind: 'line' },
      { label: 'prior', color: NEUTRAL, kind: 'dash' },
    ],
  };
}

export function beliefPreview(
  grid: Float64Array,
  beta: Float64Array,
  approximation: Float64Array,
  title: string,
  exactLabel: string,
): PlotSpec {
  return {
    title,
    marks: [
      { type: 'line', x: grid, y: beta, color: NEGATIVE, width: 2 },
      { type: 'line', x: grid, y: approximation, color: POSITIVE, width: 1.8, dash: [5, 3] },
    ],
    x: { label: 'g(a)', domain: [0, 1] },
    y: { label: 'density', domain: [0, densityCap(beta, approximation)] },
    legend: [
      { label: exactLabel, color: NEGATIVE, kind: 'line' },
      { label: 'GP approximation', color: POSITIVE, kind: 'dash' },
    ],
  };
}
