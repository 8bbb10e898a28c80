// The classification lab's maps of a softmax model with C classes, on the grid of the chosen plane: the
// predicted class (the class of the largest probability) in its colour, its probability as saturation
// (white at 1/C, where every class is as likely, full colour at 1), with the decision boundaries (where
// the largest probability changes class) drawn; one small map per class probability; the predictive
// entropy −Σ p_c log p_c; and the latent variance (the mean of the C classes' Σ_cc). With one feature,
// curves along it. Layout only: every value is the engine's; the boundaries are the geometry of where
// p_c − max_{k≠c} p_k crosses 0.
import type { ClassificationData, Plane, PlaneGrid } from '../state/classification_data.ts';
import { classIndices, columnOf } from '../state/classification_data.ts';
import { MEASURE_PALETTE, paletteIndices } from '../../../common/plots/colors.ts';
import { contourSegments } from '../../../common/plots/contour.ts';
import type { LegendEntry, Mark, PlotSpec } from '../../../common/plots/plot_model.ts';
import type { MulticlassPredictionSummary } from '../worker/multiclass_protocol.ts';
import { CONTOUR, heldText } from './classification_plots.ts';

/** Ten colours told apart by most eyes (Okabe and Ito's, then Tableau's), class c in CLASS_COLORS[c]. */
export const CLASS_COLORS = [
  '#0072b2',
  '#d55e00',
  '#009e73',
  '#cc79a7',
  '#e69f00',
  '#56b4e9',
  '#8c564b',
  '#7f7f7f',
  '#bcbd22',
  '#17becf',
];
/** Saturation steps per class in the predicted-class map's palette (10 classes × 16 < 256 indices). */
export const LEVELS = 16;
/** The lowest saturation drawn (at probability 1/C), so every class's region keeps a hint of its colour. */
const FLOOR = 0.1;

/** a + (b − a)·t per channel of two #rrggbb colours. */
export function mix(a: string, b: string, t: number): string {
  const channel = (k: number) => {
    const v = Math.round(parseInt(a.slice(k, k + 2), 16) * (1 - t) + parseInt(b.slice(k, k + 2), 16) * t);
    return v.toString(16).padStart(2, '0');
  };
  return `#${channel(1)}${channel(3)}${channel(5)}`;
}

/** C × LEVELS colours: palette[c·LEVELS + l] is class c's colour at saturation FLOOR + (1 − FLOOR)·l/(LEVELS − 1). */
export function classPalette(classes: number): string[] {
  return Array.from({ length: classes * LEVELS }, (_, k) => {
    const c = Math.floor(k / LEVELS),
      l = k % LEVELS;
    return mix('#ffffff', CLASS_COLORS[c % CLASS_COLORS.length], FLOOR + ((1 - FLOOR) * l) / (LEVELS - 1));
  });
}

/** For each of m rows of m × C probabilities: the predicted class (the first of the largest) and its probability. */
export function predictedClasses(
  probability: Float64Array,
  classes: number,
): { predicted: Uint8Array; top: Float64Array } {
  const m = probability.length / classes,
    predicted = new Uint8Array(m),
    top = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    let best = 0;
    for (let c = 1; c < classes; c++) if (probability[i * classes + c] > probability[i * classes + best]) best = c;
    predicted[i] = best;
    top[i] = probability[i * classes + best];
  }
  return { predicted, top };
}

/** The predicted-class map's palette index of each row: class·LEVELS + the saturation step of its
 * probability, from 1/C (step 0) to 1 (step LEVELS − 1). */
export function predictedColors(probability: Float64Array, classes: number): Uint8Array {
  const { predicted, top } = predictedClasses(probability, classes);
  const floor = 1 / classes;
  return Uint8Array.from(predicted, (c, i) => {
    const s = Math.min(1, Math.max(0, (top[i] - floor) / (1 - floor)));
    return c * LEVELS + Math.round(s * (LEVELS - 1));
  });
}

/** p_c − max_{k≠c} p_k on every row: positive exactly where c is the predicted class. */
export function classMargin(probability: Float64Array, classes: number, c: number): Float64Array {
  const m = probability.length / classes;
  return Float64Array.from({ length: m }, (_, i) => {
    let other = -Infinity;
    for (let k = 0; k < classes; k++) if (k !== c) other = Math.max(other, probability[i * classes + k]);
    return probability[i * classes + c] - other;
  });
}

/** Column c of m × C values. */
export function classColumn(values: Float64Array, classes: number, c: number): Float64Array {
  return Float64Array.from({ length: values.length / classes }, (_, i) => values[i * classes + c]);
}

/** The mean over classes of each row's latent variances. */
export function meanLatentVariance(p: MulticlassPredictionSummary): Float64Array {
  return Float64Array.from({ length: p.rows }, (_, i) => {
    let s = 0;
    for (let c = 0; c < p.classes; c++) s += p.latentVariance[i * p.classes + c];
    return s / p.classes;
  });
}

export interface MulticlassMapInput {
  data: ClassificationData;
  plane: Plane;
  grid: PlaneGrid;
  prediction: MulticlassPredictionSummary;
  /** The largest class's prior variance: the latent variance's ceiling. */
  signalVariance: number;
}

const className = (data: ClassificationData, c: number) => `class ${data.classNames[c]}`;

/** The decision boundaries: for each class, where its margin over the others crosses 0 (each boundary is
 * found from both its sides; the two coincide). */
export function boundaries(input: MulticlassMapInput): Mark {
  const { grid, prediction } = input,
    C = prediction.classes;
  const [x0, x1] = grid.xRange,
    [y0, y1] = grid.yRange;
  const xs: number[] = [],
    ys: number[] = [];
  for (let c = 0; c < C; c++) {
    const s = contourSegments(
      { values: classMargin(prediction.probability, C, c), columns: grid.columns, rows: grid.rows, x0, x1, y0, y1 },
      0,
    );
    for (let k = 0; k < s.x.length; k++) {
      xs.push(s.x[k]);
      ys.push(s.y[k]);
    }
  }
  return { type: 'segments', x: xs, y: ys, color: CONTOUR, width: 1.6 };
}

function classLegend(data: ClassificationData): LegendEntry[] {
  return data.classNames.map((_, c) => ({
    label: className(data, c),
    color: CLASS_COLORS[c % CLASS_COLORS.length],
    kind: 'point' as const,
  }));
}

function pointMarks(data: ClassificationData, plane: Plane, ringed = true): Mark[] {
  const px = columnOf(data, plane.x),
    py = columnOf(data, plane.y),
    n = px.length,
    radius = n > 1000 ? 2.2 : 3.2;
  const classes = Uint8Array.from(classIndices(data));
  return [
    ...(ringed ? [{ type: 'points' as const, x: px, y: py, palette: ['#ffffff'], radius: radius + 1.3 }] : []),
    { type: 'points', x: px, y: py, palette: CLASS_COLORS, colors: classes, radius, interactive: true },
  ];
}

function frame(
  input: MulticlassMapInput,
  title: string,
  marks: Mark[],
  legend: LegendEntry[],
  extra: Partial<PlotSpec> = {},
): PlotSpec {
  const { data, plane, grid } = input;
  const [x0, x1] = grid.xRange,
    [y0, y1] = grid.yRange;
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
  return {
    title,
    marks,
    legend,
    x: { label: data.inputNames[plane.x], domain: [x0, x1] },
    y: { label: data.inputNames[plane.y], domain: [y0, y1] },
    ...extra,
  };
}

function image(input: MulticlassMapInput, colors: Uint8Array, palette: string[]): Mark {
  const { grid } = input;
  return {
    type: 'image',
    x0: grid.xRange[0],
    x1: grid.xRange[1],
    y0: grid.yRange[0],
    y1: grid.yRange[1],
    columns: grid.columns,
    rows: grid.rows,
    colors,
    palette,
  };
}

/** One feature: every class's probability along it, the points at p = 1 in their class's colour. */
function curves(
  input: MulticlassMapInput,
  title: string,
  values: Float64Array[],
  yLabel: string,
  top: number,
  colors: string[],
): PlotSpec {
  const { data, plane, grid } = input;
  const xs = Float64Array.from({ length: grid.columns }, (_, j) => grid.points.data[j * data.x.cols + plane.x]);
  const marks: Mark[] = values.map((y, k) => ({ type: 'line', x: xs, y, color: colors[k], width: 2 }));
  const classes = Uint8Array.from(classIndices(data));
  marks.push({
    type: 'points',
    x: columnOf(data, plane.x),
    y: Float64Array.from(classes, () => (top === 1 ? 1 : 0)),
    palette: CLASS_COLORS,
    colors: classes,
    radius: 3,
    opacity: 0.8,
    interactive: true,
  });
  return {
    title,
    marks,
    x: { label: data.inputNames[plane.x], domain: grid.xRange },
    y: { label: yLabel, domain: [-0.03 * top, 1.03 * top] },
    legend: classLegend(data),
  };
}

const TITLE = 'Softmax (Laplace)';

export function predictedClassMap(input: MulticlassMapInput): PlotSpec {
  const C = input.prediction.classes,
    title = `${TITLE}: predicted class`;
  if (input.grid.rows === 1) {
    return curves(
      input,
      `${TITLE}: class probabilities`,
      Array.from({ length: C }, (_, c) => classColumn(input.prediction.probability, C, c)),
      'p(class | x)',
      1,
      CLASS_COLORS,
    );
  }
  const marks = [
    image(input, predictedColors(input.prediction.probability, C), classPalette(C)),
    boundaries(input),
    ...pointMarks(input.data, input.plane),
  ];
  return frame(input, title, marks, [
    ...classLegend(input.data),
    { label: 'decision boundary', color: CONTOUR, kind: 'line' },
  ]);
}

/** White at p = 0 to the class's colour at p = 1, in 64 steps. */
export function classProbabilityPalette(c: number): string[] {
  return Array.from({ length: 64 }, (_, k) => mix('#ffffff', CLASS_COLORS[c % CLASS_COLORS.length], (k + 0.5) / 64));
}

export function classProbabilityMap(input: MulticlassMapInput, c: number): PlotSpec {
  const C = input.prediction.classes,
    values = classColumn(input.prediction.probability, C, c),
    palette = classProbabilityPalette(c);
  const label = `p(${className(input.data, c)} | x)`;
  const marks = [
    image(input, paletteIndices(values, [0, 1], palette.length), palette),
    boundaries(input),
    ...pointMarks(input.data, input.plane, false),
  ];
  return frame(input, `${TITLE}: ${label}`, marks, [], { colorBar: { label, domain: [0, 1], palette } });
}

export function entropyMap(input: MulticlassMapInput): PlotSpec {
  const C = input.prediction.classes,
    domain: [number, number] = [0, Math.log(C)];
  const title = `${TITLE}: predictive entropy`;
  if (input.grid.rows === 1)
    return curves(input, title, [input.prediction.entropy], 'entropy (nats)', Math.log(C), [CONTOUR]);
  const marks = [
    image(input, paletteIndices(input.prediction.entropy, domain, MEASURE_PALETTE.length), MEASURE_PALETTE),
    boundaries(input),
    ...pointMarks(input.data, input.plane),
  ];
  return frame(
    input,
    title,
    marks,
    [...classLegend(input.data), { label: 'decision boundary', color: CONTOUR, kind: 'line' }],
    { colorBar: { label: 'entropy −Σ p log p (nats)', domain, palette: MEASURE_PALETTE } },
  );
}

export function latentVarianceMap(input: MulticlassMapInput): PlotSpec {
  const values = meanLatentVariance(input.prediction),
    domain: [number, number] = [0, input.signalVariance];
  const title = `${TITLE}: latent variance`;
  if (input.grid.rows === 1)
    return curves(input, title, [values], 'mean latent variance', input.signalVariance, [CONTOUR]);
  const marks = [
    image(input, paletteIndices(values, domain, MEASURE_PALETTE.length), MEASURE_PALETTE),
    boundaries(input),
    ...pointMarks(input.data, input.plane),
  ];
  return frame(
    input,
    title,
    marks,
    [...classLegend(input.data), { label: 'decision boundary', color: CONTOUR, kind: 'line' }],
    { colorBar: { label: 'mean over classes of Σ_cc(x)', domain, palette: MEASURE_PALETTE } },
  );
}
