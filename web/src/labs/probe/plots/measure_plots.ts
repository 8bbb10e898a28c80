// The probe's uncertainty plots: judged probability vs episteme with the irrational region shaded
// (paper Fig. 2 after Fox & Ulkumen; its boundary is the core's belief envelope), and alea vs episteme. Queries are coloured by whether they show
// the concept; observations are drawn as symbols and the selected query is ringed, both over the plot.
import type { BeliefEnvelope } from '../../../engine/probe/analysis.ts';
import type { ProbeScores } from '../../../engine/probe/probe_engine.ts';
import { IRRATIONAL, NEGATIVE, NEUTRAL, POSITIVE, SELECTED } from '../../../common/plots/colors.ts';
import { extent } from '../../../common/plots/layout.ts';
import type { LegendEntry, Mark, PlotSpec } from '../../../common/plots/plot_model.ts';
import { irrationalRegion } from '../../../common/plots/irrational_region.ts';

/** The outlines of the observations' symbols. */
const POSITIVE_EDGE = '#7a2e00',
  NEGATIVE_EDGE = '#003a5c';

export interface MeasurePlotInput {
  scores: ProbeScores;
  /** Concept label per row (1 shows the concept), or null when no concept is set. */
  labels: Uint8Array | null;
  /** Rows to draw (all when null). */
  subset: Int32Array | null;
}

function classColors(labels: Uint8Array | null, n: number): { palette: string[]; colors?: Uint8Array } {
  if (!labels) return { palette: [NEUTRAL] };
  const colors = new Uint8Array(n);
  for (let i = 0; i < n; i++) colors[i] = labels[i] ? 1 : 0;
  return { palette: [NEGATIVE, POSITIVE], colors };
}

/**
 * The observations' symbols on a plot of x against y: drawn over the plot (PlotView's overlay) with the
 * selection, so adding or removing an observation redraws them, not the plot's points.
 */
export function observationSymbols(
  labels: Uint8Array | null,
  observations: number[],
  x: ArrayLike<number>,
  y: ArrayLike<number>,
): Mark[] {
  const marks: Mark[] = [];
  if (!labels) return marks; // without a concept the observations have no labels (the probe is its prior)
  const pos = observations.filter((r) => r < x.length && labels[r] === 1);
  const neg = observations.filter((r) => r < x.length && labels[r] !== 1);
  if (pos.length)
    marks.push({
      type: 'symbols',
      shape: 'diamond',
      color: POSITIVE_EDGE,
      fill: POSITIVE,
      size: 5,
      x: pos.map((r) => x[r]),
      y: pos.map((r) => y[r]),
    });
  if (neg.length)
    marks.push({
      type: 'symbols',
      shape: 'square',
      color: NEGATIVE_EDGE,
      fill: NEGATIVE,
      size: 4,
      x: neg.map((r) => x[r]),
      y: neg.map((r) => y[r]),
    });
  return marks;
}

/** The ring around the selected query, drawn over a plot of x against y. */
export function selectionRing(x: ArrayLike<number>, y: ArrayLike<number>, row: number | null, size = 8): Mark[] {
  return row === null || row >= x.length || !Number.isFinite(x[row]) || !Number.isFinite(y[row])
    ? []
    : [{ type: 'symbols', shape: 'ring', color: SELECTED, size, x: [x[row]], y: [y[row]] }];
}

/** The legend of the queries and the observations, with the observations' symbols as observationSymbols() draws them. */
function legend(labels: Uint8Array | null): LegendEntry[] {
  const observations: LegendEntry[] = [
    { label: 'positive observation', color: POSITIVE_EDGE, fill: POSITIVE, kind: 'diamond' },
    { label: 'negative observation', color: NEGATIVE_EDGE, fill: NEGATIVE, kind: 'square' },
  ];
  return labels
    ? [
        { label: 'shows the concept', color: POSITIVE, kind: 'point' },
        { label: 'does not', color: NEGATIVE, kind: 'point' },
        ...observations,
      ]
    : [{ label: 'query', color: NEUTRAL, kind: 'point' }];
}

export function judgedVsEpisteme(input: MeasurePlotInput, envelope: BeliefEnvelope | null): PlotSpec {
  const { episteme, judgedProbability } = input.scores;
  const n = episteme.length;
  const [x0, x1] = extent(episteme);
  const marks: Mark[] = envelope ? irrationalRegion(envelope, x0) : [];
  marks.push({ type: 'rule', y: 0.5, color: '#9aa5b1', dash: [2, 3] });
  marks.push({
    type: 'points',
    x: episteme,
    y: judgedProbability,
    radius: n > 20000 ? 1.6 : 2.6,
    opacity: 0.7,
    interactive: true,
    subset: input.subset ?? undefined,
    ...classColors(input.labels, n),
  });
  return {
    title: 'Judged probability vs episteme',
    marks,
    x: { label: 'episteme (−entropy of g, nats)', domain: [x0, x1] },
    y: { label: 'judged probability E[g]', domain: [-0.02, 1.02] },
    legend: [
      ...legend(input.labels),
      ...(envelope ? [{ label: 'irrational', color: IRRATIONAL, kind: 'area' as const }] : []),
    ],
  };
}

export function aleaVsEpisteme(input: MeasurePlotInput): PlotSpec {
  const { episteme, alea } = input.scores;
  const n = episteme.length;
  return {
    title: 'Alea vs episteme',
    marks: [
      {
        type: 'points',
        x: episteme,
        y: alea,
        radius: n > 20000 ? 1.6 : 2.6,
        opacity: 0.7,
        interactive: true,
        subset: input.subset ?? undefined,
        ...classColors(input.labels, n),
      },
    ],
    x: { label: 'episteme (−entropy of g, nats)', domain: extent(episteme) },
    y: { label: 'alea E[H(g)] (nats)', domain: [0, Math.log(2) * 1.04] },
    legend: legend(input.labels),
  };
}
