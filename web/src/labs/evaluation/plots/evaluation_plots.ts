// Plots of the evaluation lab: a metric against the number of observations (mean line, ± 1 sd band over
// trials, as the core returned them; observation counts on a log2 axis), the fuzzy experiment's clouds
// (judged probability and alea against episteme, irrational region shaded as in the Probe view) and ROC
// curves. Layout only: every number is the core's.
import type { BeliefEnvelope } from '../../../engine/probe/analysis.ts';
import type { ExperimentCloud, ExperimentResult } from '../../../engine/evaluation/experiments.ts';
import { IRRATIONAL, NEUTRAL } from '../../../common/plots/colors.ts';
import { extent } from '../../../common/plots/layout.ts';
import { irrationalRegion } from '../../../common/plots/irrational_region.ts';
import { methodStyle } from '../../../common/plots/methods.ts';
import type { LegendEntry, Mark, PlotSpec } from '../../../common/plots/plot_model.ts';

/** Tick labels of a log2 axis: 1 -> "2", 3 -> "8". */
const powerOfTwo = (v: number): string => String(2 ** v);

export interface CurvesPlotOptions {
  title: string;
  yLabel: string;
  /** The metric's range, e.g. [0, 1] for AUROC: the axis never leaves it. */
  range: [number, number];
  /** A dashed reference line (0.5: chance for AUROC). */
  chance?: number;
}

export function curvesPlot(result: ExperimentResult, options: CurvesPlotOptions): PlotSpec {
  const x = result.observationCounts.map(Math.log2);
  const marks: Mark[] = [];
  const legend: LegendEntry[] = [];
  let lo = Infinity,
    hi = -Infinity;
  if (options.chance !== undefined) marks.push({ type: 'rule', y: options.chance, color: NEUTRAL, dash: [3, 3] });
  // The points where each method ran (NaN: not run at that O, e.g. GPC above its limit).
  const ran = result.curves.map((curve) => x.map((_, j) => j).filter((j) => !Number.isNaN(curve.mean[j])));
  result.curves.forEach((curve, c) => {
    const { color, label } = methodStyle(curve.method);
    const at = ran[c];
    const y0 = at.map((j) => curve.mean[j] - curve.sd[j]),
      y1 = at.map((j) => curve.mean[j] + curve.sd[j]);
    for (let k = 0; k < at.length; k++) [lo, hi] = [Math.min(lo, y0[k]), Math.max(hi, y1[k])];
    marks.push({ type: 'area', x: at.map((j) => x[j]), y0, y1, fill: color, opacity: 0.1 });
    legend.push({ label, color, kind: 'line' });
  });
  result.curves.forEach((curve, c) => {
    const { color } = methodStyle(curve.method);
    const at = ran[c],
      xs = at.map((j) => x[j]),
      ys = at.map((j) => curve.mean[j]);
    marks.push({ type: 'line', x: xs, y: ys, color, width: curve.method === 'gpp' ? 2.4 : 1.6 });
    marks.push({ type: 'points', x: xs, y: ys, palette: [color], radius: curve.method === 'gpp' ? 3 : 2.2 });
  });
  const [rangeLo, rangeHi] = options.range;
  const span = Math.max(hi - lo, 0.02);
  const yDomain: [number, number] = [Math.max(rangeLo, lo - 0.05 * span), Math.min(rangeHi, hi + 0.05 * span)];
  return {
    title: options.title,
    marks,
    x: {
      label: 'observations O (balanced, log scale)',
      domain: [x[0] - 0.3, x[x.length - 1] + 0.3],
      format: powerOfTwo,
      ticks: x,
    },
    y: { label: options.yLabel, domain: yDomain },
    legend: [
      ...legend,
      { label: result.trials > 1 ? `± 1 sd over ${result.trials} trials` : '1 trial', color: NEUTRAL, kind: 'area' },
    ],
  };
}

export type CloudMeasure = 'judged' | 'alea';

export interface CloudPlotInput {
  method: string;
  /** Null when the method has no cloud for this (p, O) (LPE without a positive label left). */
  cloud: ExperimentCloud | null;
  labelProbability: number;
  observations: number;
  envelope: BeliefEnvelope | null;
}

export function cloudPlot(input: CloudPlotInput, measure: CloudMeasure): PlotSpec | null {
  const { cloud, method, labelProbability: p, observations } = input;
  if (!cloud) return null;
  const { color, label } = methodStyle(method);
  const [x0, x1] = extent(cloud.episteme);
  const y = measure === 'judged' ? cloud.judgedProbability : cloud.alea;
  const marks: Mark[] = [];
  const legend: LegendEntry[] = [
    { label: `positive query (${cloud.rows.length.toLocaleString('en-US')})`, color, kind: 'point' },
  ];
  if (measure === 'judged') {
    if (input.envelope) {
      marks.push(...irrationalRegion(input.envelope, x0));
      legend.push({ label: 'irrational', color: IRRATIONAL, kind: 'area' });
    }
    marks.push({ type: 'rule', y: p, color: '#1f2933', dash: [5, 3] });
    legend.push({ label: `ground truth p = ${p}`, color: '#1f2933', kind: 'dash' });
  }
  marks.push({ type: 'points', x: cloud.episteme, y, palette: [color], radius: 2.6, opacity: 0.6, interactive: true });
  return {
    title: `${label}: ${measure === 'judged' ? 'judged probability' : 'alea'} vs episteme (p = ${p}, O = ${observations})`,
    marks,
    legend,
    x: { label: 'episteme (−entropy of g, nats)', domain: [x0, x1] },
    y:
      measure === 'judged'
        ? { label: 'judged probability E[g]', domain: [-0.02, 1.02] }
        : { label: 'alea E[H(g)] (nats)', domain: [0, Math.log(2) * 1.04] },
  };
}
