// Plots of the two-stage anomaly detection (Butler et al., "Trustworthy Prediction with Gaussian Process
// Knowledge Scores", Figs 2-3): ROC curves of the anomaly score over all points and over the points the
// model knows about (G >= rho), and the Fig. 3 experiment's data, model and statuses. Curves, AUCs and
// statuses come from the core; this file lays them out.
import type { AnomalyExperimentData, RocCurveData } from '../../../engine/regression/regression.ts';
import { extent } from '../../../common/plots/layout.ts';
import type { Mark, PlotSpec } from '../../../common/plots/plot_model.ts';
import { knowledgeSpec, LATENT_BAND, MEAN, STATUS_PALETTE, statusLegend, TOTAL_BAND } from './regression_plots.ts';

const UNGATED = '#7b8794';
const GATED = '#d55e00';

function rocLabel(c: RocCurveData, what: string): string {
  if (!c.defined) return `${what}: no curve (${c.positives} anomalies, ${c.negatives} normal)`;
  return `${what}: AUC ${c.auc.toFixed(3)} (${c.points} pts)`;
}

export function rocPlot(ungated: RocCurveData, gated: RocCurveData, rho: number): PlotSpec {
  const marks: Mark[] = [{ type: 'line', x: [0, 1], y: [0, 1], color: '#cbd2d9', width: 1, dash: [3, 3] }];
  if (ungated.defined)
    marks.push({ type: 'line', x: ungated.falsePositiveRate, y: ungated.truePositiveRate, color: UNGATED, width: 2 });
  if (gated.defined)
    marks.push({ type: 'line', x: gated.falsePositiveRate, y: gated.truePositiveRate, color: GATED, width: 2.2 });
  return {
    title: 'ROC of the anomaly score',
    marks,
    x: { label: 'false positive rate', domain: [0, 1] },
    y: { label: 'true positive rate', domain: [0, 1.01] },
    legend: [
      { label: rocLabel(ungated, 'all'), color: UNGATED, kind: 'line' },
      { label: rocLabel(gated, `G ≥ ${rho}`), color: GATED, kind: 'line' },
    ],
  };
}

const indices = (n: number, keep: (i: number) => boolean) => Uint32Array.from({ length: n }, (_, i) => i).filter(keep);
const pick = (v: Float64Array, set: Uint32Array) => Float64Array.from(set, (i) => v[i]);

/** Fig. 3 (A, B): training data (anomalies as diamonds), the model's mean and bands over the test
 * range, and the test points coloured by their status at the current ρ and θ. */
export function experimentPlot(e: AnomalyExperimentData, status: Uint8Array | null): PlotSpec {
  const { gridX: x, grid: p } = e;
  const normal = indices(e.trainY.length, (i) => !e.trainAnomaly[i]);
  const anomalous = indices(e.trainY.length, (i) => e.trainAnomaly[i] === 1);
  return {
    title: 'Fig. 3: data, model and test statuses',
    marks: [
      { type: 'area', x, y0: p.observationLower, y1: p.observationUpper, fill: TOTAL_BAND, opacity: 0.45 },
      { type: 'area', x, y0: p.latentLower, y1: p.latentUpper, fill: LATENT_BAND, opacity: 0.35 },
      {
        type: 'points',
        x: e.testX,
        y: e.testY,
        radius: 2.2,
        opacity: 0.75,
        interactive: true,
        palette: STATUS_PALETTE,
        colors: status ?? new Uint8Array(e.testY.length).fill(3),
      },
      { type: 'line', x, y: p.mean, color: MEAN, width: 2 },
      {
        type: 'symbols',
        shape: 'ring',
        color: '#111111',
        fill: '#ffffff',
        size: 3.2,
        x: pick(e.trainX, normal),
        y: pick(e.trainY, normal),
      },
      {
        type: 'symbols',
        shape: 'diamond',
        color: '#111111',
        fill: STATUS_PALETTE[1],
        size: 4.5,
        x: pick(e.trainX, anomalous),
        y: pick(e.trainY, anomalous),
      },
    ],
    x: { label: 'x', domain: [x[0], x[x.length - 1]] },
    y: { label: 'y', domain: extent(e.testY, 0.04) },
    legend: [
      ...statusLegend(),
      { label: 'training', color: '#111111', fill: '#ffffff', kind: 'ring' },
      { label: 'training anomaly', color: '#111111', fill: STATUS_PALETTE[1], kind: 'diamond' },
      { label: 'mean', color: MEAN, kind: 'line' },
    ],
  };
}

/** Fig. 3 (C): the knowledge score over the test range, with the gate ρ. */
export function experimentKnowledgePlot(result: AnomalyExperimentData, rho: number): PlotSpec {
  const x = result.gridX;
  return knowledgeSpec('Fig. 3: knowledge score G(x)', 'x', [x[0], x[x.length - 1]], x, result.grid.knowledge, rho);
}
