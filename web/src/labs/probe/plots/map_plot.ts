// The 2-D map of the embeddings (first two principal components, computed by the core), coloured by
// any measure or by the concept; observations and the selected query are marked over it (mapObservations).
import { colorDomain, MEASURE_PALETTE, NEGATIVE, paletteIndices, POSITIVE } from '../../../common/plots/colors.ts';
import { extent } from '../../../common/plots/layout.ts';
import type { Mark, PlotSpec } from '../../../common/plots/plot_model.ts';

export interface MapInput {
  x: Float64Array;
  y: Float64Array;
  explained: [number, number];
  totalVariance: number;
  /** Colour by these values (a measure), or by the concept labels when `values` is null. */
  values: Float64Array | null;
  valueLabel: string;
  /** The measure's own range when it has one (a probability's [0, 1]); else a robust one, marked when clipped. */
  valueRange?: [number, number] | null;
  labels: Uint8Array | null;
  /** Rows to draw (all when null). */
  subset: Int32Array | null;
}

export function embeddingMap(input: MapInput): PlotSpec {
  const n = input.x.length;
  const marks: Mark[] = [];
  let colorBar: PlotSpec['colorBar'];
  if (input.values) {
    const shown = input.subset ? Float64Array.from(input.subset, (i) => input.values![i]) : input.values;
    const { domain, clipped } = colorDomain(shown, input.valueRange ?? null);
    marks.push({
      type: 'points',
      x: input.x,
      y: input.y,
      radius: n > 20000 ? 1.5 : 2.5,
      opacity: 0.8,
      interactive: true,
      subset: input.subset ?? undefined,
      palette: MEASURE_PALETTE,
      colors: paletteIndices(input.values, domain),
    });
    colorBar = { label: input.valueLabel, domain, palette: MEASURE_PALETTE, clipped };
  } else {
    const colors = input.labels ? Uint8Array.from(input.labels) : undefined;
    marks.push({
      type: 'points',
      x: input.x,
      y: input.y,
      radius: n > 20000 ? 1.5 : 2.5,
      opacity: 0.75,
      interactive: true,
      subset: input.subset ?? undefined,
      palette: input.labels ? [NEGATIVE, POSITIVE] : ['#7b8794'],
      colors,
    });
  }
  const pct = (v: number) => `${((100 * v) / (input.totalVariance || 1)).toFixed(1)}%`;
  // Streamed embeddings are mapped from a sample: the other rows have no position (NaN).
  let placed = 0;
  for (let i = 0; i < n; i++) if (Number.isFinite(input.x[i])) placed++;
  return {
    title:
      placed < n ? `Embedding map (PCA of a sample of ${placed.toLocaleString('en-US')} rows)` : 'Embedding map (PCA)',
    marks,
    colorBar,
    x: { label: `PC 1 (${pct(input.explained[0])} of variance)`, domain: extent(input.x) },
    y: { label: `PC 2 (${pct(input.explained[1])})`, domain: extent(input.y) },
    legend: [
      { label: 'positive observation', color: '#111', fill: POSITIVE, kind: 'diamond' },
      { label: 'negative observation', color: '#111', fill: NEGATIVE, kind: 'square' },
    ],
  };
}

/** The observations on the map, drawn over it (PlotView's overlay) with the selection. */
export function mapObservations(
  x: Float64Array,
  y: Float64Array,
  labels: Uint8Array | null,
  observations: number[],
): Mark[] {
  const marks: Mark[] = [];
  // Rows without a map position (outside the sample of streamed embeddings) are not marked.
  const placed = observations.filter((r) => r < x.length && Number.isFinite(x[r]) && Number.isFinite(y[r]));
  const pos = placed.filter((r) => labels?.[r] === 1);
  const neg = placed.filter((r) => labels?.[r] !== 1);
  if (pos.length)
    marks.push({
      type: 'symbols',
      shape: 'diamond',
      color: '#111',
      fill: POSITIVE,
      size: 5.5,
      x: pos.map((r) => x[r]),
      y: pos.map((r) => y[r]),
    });
  if (neg.length)
    marks.push({
      type: 'symbols',
      shape: 'square',
      color: '#111',
      fill: NEGATIVE,
      size: 4.5,
      x: neg.map((r) => x[r]),
      y: neg.map((r) => y[r]),
    });
  return marks;
}
