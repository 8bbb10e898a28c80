// The regression lab's plots: data, posterior mean, the two 95% bands (of the latent f: epistemic;
// of y = f + noise: epistemic + aleatoric) drawn as nested shades with different edges, posterior
// samples, and under it the knowledge score on the same x axis. All numbers come from the engine;
// this file only sorts points along the axis and lays them out.
import type { RegressionPrediction } from '../../../engine/regression/regression.ts';
import { ANOMALY_STATUSES } from '../../../engine/vocabulary.ts';
import type { RegressionSeries } from '../state/regression_series.ts';
import type { FitResult, Inputs } from '../worker/protocol.ts';
import { extent } from '../../../common/plots/layout.ts';
import type { LegendEntry, Mark, PlotSpec } from '../../../common/plots/plot_model.ts';

export const LATENT_BAND = '#0b6e99';
export const TOTAL_BAND = '#9ec5e8';
export const MEAN = '#1f2933';
export const SAMPLE = '#8a6d3b';
export const TRUTH = '#cc79a7';
/** Point colours by status index (anomaly_detection.h): normal, anomaly, unknown; then "no status". */
export const STATUS_PALETTE = ['#009e73', '#d55e00', '#7b8794', '#3e4c59'];
const NO_STATUS = 3;

/** Legend entries of the anomaly statuses (the core's names, in its order). */
export function statusLegend(): LegendEntry[] {
  return ANOMALY_STATUSES.map((label, k) => ({ label, color: STATUS_PALETTE[k], kind: 'point' }));
}

/** Where the data sit along the plot's x axis: a 1-D input, one chosen column, or the row index. */
export interface Axis {
  label: string;
  values: Float64Array;
}

export function axisOf(data: RegressionSeries, column: number): Axis {
  const { rows, cols } = data.x;
  if (cols === 1) return { label: data.xNames[0], values: data.x.data };
  if (column < 0) return { label: 'row index', values: Float64Array.from({ length: rows }, (_, i) => i) };
  return {
    label: data.xNames[column],
    values: Float64Array.from({ length: rows }, (_, i) => data.x.data[i * cols + column]),
  };
}

export interface FitPlotInput {
  data: RegressionSeries;
  axis: Axis;
  fit: FitResult | null;
  grid: Inputs | null;
  truth: { x: Float64Array; y: Float64Array } | null;
  /** Status index per data point and per held-out point, when anomaly detection has run. */
  status: { data: Uint8Array; extra: Uint8Array | null } | null;
}

/** Indices that sort `values` ascending. */
function order(values: ArrayLike<number>): Uint32Array {
  return Uint32Array.from({ length: values.length }, (_, i) => i).sort((a, b) => values[a] - values[b]);
}

const pick = (values: ArrayLike<number>, idx: Uint32Array) => Float64Array.from(idx, (i) => values[i]);

function joined(parts: ArrayLike<number>[]): Float64Array {
  const out = new Float64Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The curve of a prediction along the axis: on the grid for a 1-D input, else at the sorted data. */
function curve(input: FitPlotInput): { x: Float64Array; p: RegressionPrediction; samples: Float64Array[] } | null {
  const { fit, grid, axis } = input;
  if (!fit) return null;
  if (grid && fit.grid) {
    const m = grid.rows,
      all = fit.samples;
    const samples = all ? Array.from({ length: all.length / m }, (_, k) => all.subarray(k * m, (k + 1) * m)) : [];
    return { x: grid.data, p: fit.grid, samples };
  }
  const idx = order(axis.values);
  const p = Object.fromEntries(Object.entries(fit.data).map(([k, v]) => [k, pick(v, idx)]));
  return {
    x: pick(axis.values, idx),
    samples: [],
    p: {
      mean: p.mean,
      latentVariance: p.latentVariance,
      observationVariance: p.observationVariance,
      knowledge: p.knowledge,
      latentLower: p.latentLower,
      latentUpper: p.latentUpper,
      observationLower: p.observationLower,
      observationUpper: p.observationUpper,
    },
  };
}

export function xDomain(input: FitPlotInput): [number, number] {
  if (input.grid) return [input.grid.data[0], input.grid.data[input.grid.rows - 1]];
  return extent(input.axis.values, 0.02);
}

export function fitPlot(input: FitPlotInput): PlotSpec {
  const { data, axis, fit, truth, status } = input;
  const c = curve(input);
  const marks: Mark[] = [];
  const legend: LegendEntry[] = [];
  const ys: ArrayLike<number>[] = [data.y, data.heldOut?.y ?? []];
  if (c) {
    const { x, p } = c;
    marks.push({ type: 'area', x, y0: p.observationLower, y1: p.observationUpper, fill: TOTAL_BAND, opacity: 0.45 });
    marks.push({ type: 'area', x, y0: p.latentLower, y1: p.latentUpper, fill: LATENT_BAND, opacity: 0.35 });
    marks.push({ type: 'line', x, y: p.observationLower, color: '#6b93b8', width: 1, dash: [4, 3] });
    marks.push({ type: 'line', x, y: p.observationUpper, color: '#6b93b8', width: 1, dash: [4, 3] });
    for (const s of c.samples) marks.push({ type: 'line', x, y: s, color: SAMPLE, width: 0.9 });
    marks.push({ type: 'line', x, y: p.mean, color: MEAN, width: 2 });
    ys.push(p.observationLower, p.observationUpper);
    legend.push(
      { label: 'mean', color: MEAN, kind: 'line' },
      { label: '95% of f (epistemic)', color: LATENT_BAND, kind: 'area' },
      { label: '95% of y (epistemic + noise)', color: TOTAL_BAND, kind: 'area' },
    );
    if (c.samples.length) legend.push({ label: 'posterior samples', color: SAMPLE, kind: 'line' });
  }
  if (truth) {
    marks.push({ type: 'line', x: truth.x, y: truth.y, color: TRUTH, width: 1.5, dash: [6, 4] });
    legend.push({ label: 'true function', color: TRUTH, kind: 'dash' });
  }
  const n = data.y.length;
  marks.push({
    type: 'points',
    x: axis.values,
    y: data.y,
    radius: n > 1000 ? 1.8 : 2.8,
    opacity: 0.85,
    interactive: true,
    palette: STATUS_PALETTE,
    colors: status ? status.data : new Uint8Array(n).fill(NO_STATUS),
  });
  if (data.heldOut) {
    const { x, y } = data.heldOut;
    const held = status?.extra;
    STATUS_PALETTE.forEach((color, k) => {
      const idx = Uint32Array.from({ length: y.length }, (_, i) => i).filter((i) => (held ? held[i] : NO_STATUS) === k);
      if (idx.length)
        marks.push({ type: 'symbols', shape: 'ring', color, size: 3.2, x: pick(x, idx), y: pick(y, idx) });
    });
  }
  if (status) {
    legend.push(...statusLegend());
  } else legend.push({ label: 'data', color: STATUS_PALETTE[NO_STATUS], kind: 'point' });
  if (data.heldOut) legend.push({ label: 'held out', color: '#3e4c59', kind: 'ring' });
  return {
    title: fit ? 'Posterior: mean, bands and samples' : 'Data',
    marks,
    legend,
    x: { label: axis.label, domain: xDomain(input) },
    y: { label: data.yName, domain: extent(joined(ys), 0.05) },
  };
}

/** A knowledge curve over [x0, x1] with the region below the gate ρ shaded ("unknown"). */
export function knowledgeSpec(
  title: string,
  xLabel: string,
  [x0, x1]: [number, number],
  x: ArrayLike<number>,
  knowledge: ArrayLike<number>,
  rho: number,
): PlotSpec {
  return {
    title,
    marks: [
      { type: 'area', x: [x0, x1, x1, x0], y1: [0, 0, rho, rho], fill: STATUS_PALETTE[2], opacity: 0.14 },
      { type: 'rule', y: rho, color: STATUS_PALETTE[2], dash: [5, 3] },
      { type: 'line', x, y: knowledge, color: LATENT_BAND, width: 2 },
    ],
    x: { label: xLabel, domain: [x0, x1] },
    y: { label: 'G = 1 − var_post / k(x, x)', domain: [0, 1.02] },
    legend: [
      { label: 'knowledge G', color: LATENT_BAND, kind: 'line' },
      { label: `G < ρ = ${rho}: unknown`, color: STATUS_PALETTE[2], kind: 'area' },
    ],
  };
}

/** The knowledge score G(x) = 1 − var_post/k(x, x) on the fit plot's x axis, with the data's x as a rug. */
export function knowledgePlot(input: FitPlotInput, rho: number): PlotSpec | null {
  const c = curve(input);
  if (!c) return null;
  const spec = knowledgeSpec('Knowledge score G(x)', input.axis.label, xDomain(input), c.x, c.p.knowledge, rho);
  const n = input.axis.values.length;
  spec.marks.push({
    type: 'points',
    x: input.axis.values,
    y: new Float64Array(n).fill(0.015),
    radius: 1.4,
    opacity: 0.5,
    palette: ['#3e4c59'],
  });
  spec.legend?.push({ label: 'data x', color: '#3e4c59', kind: 'point' });
  return spec;
}

/** Joint samples of the prior GP at the grid: what the kernel believes before seeing data. */
export function priorPlot(grid: Inputs, samples: Float64Array, count: number, xLabel: string): PlotSpec {
  const m = grid.rows;
  const curves = Array.from({ length: count }, (_, k) => samples.subarray(k * m, (k + 1) * m));
  const palette = ['#0b6e99', '#d55e00', '#009e73', '#cc79a7', '#8a6d3b'];
  return {
    title: `Prior: ${count} samples of f`,
    marks: curves.map((y, k) => ({
      type: 'line' as const,
      x: grid.data,
      y,
      color: palette[k % palette.length],
      width: 1.2,
    })),
    x: { label: xLabel, domain: [grid.data[0], grid.data[m - 1]] },
    y: { label: 'f', domain: extent(samples, 0.05) },
  };
}
