// The classification lab's maps: a model's predictive probability p(y = 1 | x) and its latent variance
// on the grid of the chosen plane, each as a filled image with the p = 0.5 contour, and the training
// points by class (white-ringed, so they stand out on both images). With one feature, curves along it
// instead, the points at their labels (p = 0 or 1). Layout only: every value is the engine's; the
// contour is the geometry of where its probabilities cross 0.5.
import type { ClassificationData, Plane, PlaneGrid } from '../state/classification_data.ts';
import { columnOf } from '../state/classification_data.ts';
import {
  MEASURE_PALETTE,
  NEGATIVE,
  NEUTRAL,
  paletteIndices,
  POSITIVE,
  PROBABILITY_PALETTE,
} from '../../../common/plots/colors.ts';
import { contourSegments } from '../../../common/plots/contour.ts';
import { formatBound } from '../../../common/plots/layout.ts';
import type { LegendEntry, Mark, PlotSpec } from '../../../common/plots/plot_model.ts';

export const CONTOUR = '#111111';

export interface MapInput {
  /** The model, for the title: "Laplace (probit)". */
  model: string;
  /** The probability is MacKay's approximation (say so in the title). */
  approximation?: boolean;
  data: ClassificationData;
  plane: Plane;
  grid: PlaneGrid;
  probability: Float64Array;
  latentVariance: Float64Array;
  /** The prior variance k(x, x): the latent variance's ceiling. */
  signalVariance: number;
}

/** "x3 = 0.52, x4 = 1.2" for the columns the plane holds fixed ("" in two dimensions). */
export function heldText(data: ClassificationData, plane: Plane, most = 3): string {
  const held = data.inputNames.map((name, j) => ({ name, j })).filter(({ j }) => j !== plane.x && j !== plane.y);
  const shown = held.slice(0, most).map(({ name, j }) => `${name} = ${formatBound(plane.held[j])}`);
  return shown.join(', ') + (held.length > most ? `, +${held.length - most} more` : '');
}

function map(
  input: MapInput,
  title: string,
  values: Float64Array,
  domain: [number, number],
  palette: string[],
  colorLabel: string,
): PlotSpec {
  const { data, plane, grid } = input;
  const [x0, x1] = grid.xRange,
    [y0, y1] = grid.yRange;
  const marks: Mark[] = [
    {
      type: 'image',
      x0,
      x1,
      y0,
      y1,
      columns: grid.columns,
      rows: grid.rows,
      palette,
      colors: paletteIndices(values, domain, palette.length),
    },
  ];
  const contour = contourSegments(
    { values: input.probability, columns: grid.columns, rows: grid.rows, x0, x1, y0, y1 },
    0.5,
  );
  marks.push({ type: 'segments', ...contour, color: CONTOUR, width: 1.6 });
  const px = columnOf(data, plane.x),
    py = columnOf(data, plane.y);
  const classes = Uint8Array.from(data.labels, (v) => (v > 0 ? 1 : 0));
  const n = px.length,
    radius = n > 1000 ? 2.2 : 3.2;
  marks.push({ type: 'points', x: px, y: py, palette: ['#ffffff'], radius: radius + 1.3 });
  marks.push({
    type: 'points',
    x: px,
    y: py,
    palette: [NEGATIVE, POSITIVE],
    colors: classes,
    radius,
    interactive: true,
  });
  const held = heldText(data, plane);
  if (held)
    marks.push({
      type: 'text',
      x: x0 + 0.02 * (x1 - x0),
      y: y1 - 0.02 * (y1 - y0),
      text: `held: ${held}`,
      color: '#1f2933',
      halo: '#ffffff',
    });
  const legend: LegendEntry[] = [
    { label: `class ${data.classNames[0]}`, color: NEGATIVE, kind: 'point' },
    { label: `class ${data.classNames[1]}`, color: POSITIVE, kind: 'point' },
    { label: 'p = 0.5', color: CONTOUR, kind: 'line' },
  ];
  return {
    title,
    marks,
    legend,
    colorBar: { label: colorLabel, domain, palette },
    x: { label: data.inputNames[plane.x], domain: [x0, x1] },
    y: { label: data.inputNames[plane.y], domain: [y0, y1] },
  };
}

/** One feature: the value along it as a curve, the training points at their labels' p (0 or 1). */
function curve(input: MapInput, title: string, values: Float64Array, yLabel: string, top: number): PlotSpec {
  const { data, plane, grid } = input;
  const xs = Float64Array.from({ length: grid.columns }, (_, j) => grid.points.data[j * data.x.cols + plane.x]);
  const classes = Uint8Array.from(data.labels, (v) => (v > 0 ? 1 : 0));
  const marks: Mark[] = [
    { type: 'rule', y: top === 1 ? 0.5 : top, color: NEUTRAL, dash: [4, 3] },
    { type: 'line', x: xs, y: values, color: CONTOUR, width: 2 },
    {
      type: 'points',
      x: columnOf(data, plane.x),
      y: Float64Array.from(classes, (c) => (top === 1 ? c : 0)),
      palette: [NEGATIVE, POSITIVE],
      colors: classes,
      radius: 3,
      opacity: 0.8,
      interactive: true,
    },
  ];
  return {
    title,
    marks,
    x: { label: data.inputNames[plane.x], domain: grid.xRange },
    y: { label: yLabel, domain: [-0.03 * top, 1.03 * top] },
    legend: [
      { label: `class ${data.classNames[0]}`, color: NEGATIVE, kind: 'point' },
      { label: `class ${data.classNames[1]}`, color: POSITIVE, kind: 'point' },
      { label: top === 1 ? 'p = 0.5' : 'signal variance (the prior)', color: NEUTRAL, kind: 'dash' },
    ],
  };
}

export function probabilityMap(input: MapInput): PlotSpec {
  const title = `${input.model}: p(y = 1 | x)${input.approximation ? ", MacKay's approximation" : ''}`;
  if (input.grid.rows === 1) return curve(input, title, input.probability, 'p(y = 1 | x)', 1);
  return map(input, title, input.probability, [0, 1], PROBABILITY_PALETTE, 'p(y = 1 | x)');
}

export function varianceMap(input: MapInput): PlotSpec {
  const title = `${input.model}: latent variance`;
  if (input.grid.rows === 1)
    return curve(input, title, input.latentVariance, 'latent variance of f', input.signalVariance);
  return map(input, title, input.latentVariance, [0, input.signalVariance], MEASURE_PALETTE, 'latent variance of f');
}

/** The grid point nearest to (x, y) (with one feature: to x), or null outside the grid. */
export function gridCell(grid: PlaneGrid, x: number, y: number): number | null {
  const [x0, x1] = grid.xRange,
    [y0, y1] = grid.yRange,
    { columns, rows } = grid;
  const j = Math.round(((x - x0) / (x1 - x0)) * (columns - 1));
  const i = rows === 1 ? 0 : Math.round(((y - y0) / (y1 - y0)) * (rows - 1));
  return i >= 0 && i < rows && j >= 0 && j < columns ? i * columns + j : null;
}
