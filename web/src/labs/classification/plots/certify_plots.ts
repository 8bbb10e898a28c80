// Certified robustness, drawn: the box T = x* ± gamma, x*, the adversarial witness and the GPFGS point
// over a model's maps (projected on the maps' plane, like the training points); branch and bound's
// intervals of the smallest and largest p(y = 1) over T as they converge; and a gamma sweep (the
// paper's Fig. 2: the certified intervals of both extremes against gamma, GPFGS beside them). Layout
// only: every value is the engine's.
import type { IntervalDetail } from '../../../engine/progress.ts';
import type { RobustnessCertificate } from '../../../engine/certify/classification_certify.ts';
import type { Plane } from '../state/classification_data.ts';
import { ACCENT, NEGATIVE, NEUTRAL, POSITIVE } from '../../../common/plots/colors.ts';
import { extent } from '../../../common/plots/layout.ts';
import type { LegendEntry, Mark, PlotSpec } from '../../../common/plots/plot_model.ts';

export const BOX = '#111111';

/** The extreme an attack pushes towards: the minimum when x* is predicted class 1, else the maximum. */
export function adversarialSide(c: RobustnessCertificate): 'minimum' | 'maximum' {
  return c.probabilityAtPoint > 0.5 ? 'minimum' : 'maximum';
}

/** Marks over a map (or, with one feature, its curve of `quantity`): the box, x*, GPFGS, and the
 * adversarial witness once branch and bound has found it (`withWitness`). */
export function robustnessOverlay(
  c: RobustnessCertificate,
  plane: Plane,
  oneFeature: boolean,
  quantity: 'probability' | 'variance',
  point: number[],
  withWitness: boolean,
): Mark[] {
  const side = adversarialSide(c),
    witness = withWitness ? c[side].witness : [],
    attained = side === 'minimum' ? c.minimum.upper : c.maximum.lower;
  const marks: Mark[] = [];
  const rectangle = (x0: number, x1: number, y0: number, y1: number): Mark => ({
    type: 'segments',
    x: [x0, x1, x1, x1, x1, x0, x0, x0],
    y: [y0, y0, y0, y1, y1, y1, y1, y0],
    color: BOX,
    width: 1.6,
    dash: [5, 3],
  });
  if (oneFeature) {
    const range = quantity === 'probability' ? c.root.probability : c.root.variance;
    marks.push(rectangle(c.box.lower[plane.x], c.box.upper[plane.x], range.lower, range.upper));
    if (quantity === 'probability') {
      marks.push({
        type: 'symbols',
        shape: 'ring',
        x: [point[plane.x]],
        y: [c.probabilityAtPoint],
        color: BOX,
        size: 6,
        fill: '#ffffff',
      });
      if (witness.length)
        marks.push({
          type: 'symbols',
          shape: 'diamond',
          x: [witness[plane.x]],
          y: [attained],
          color: BOX,
          size: 6,
          fill: ACCENT,
        });
      marks.push({
        type: 'symbols',
        shape: 'square',
        x: [c.gpfgs.point[plane.x]],
        y: [c.gpfgs.probability],
        color: BOX,
        size: 4.5,
        fill: '#ffffff',
      });
    }
    return marks;
  }
  marks.push(rectangle(c.box.lower[plane.x], c.box.upper[plane.x], c.box.lower[plane.y], c.box.upper[plane.y]));
  marks.push({
    type: 'symbols',
    shape: 'square',
    x: [c.gpfgs.point[plane.x]],
    y: [c.gpfgs.point[plane.y]],
    color: BOX,
    size: 4.5,
    fill: '#ffffff',
  });
  marks.push({
    type: 'symbols',
    shape: 'ring',
    x: [point[plane.x]],
    y: [point[plane.y]],
    color: BOX,
    size: 6,
    fill: '#ffffff',
  });
  if (witness.length)
    marks.push({
      type: 'symbols',
      shape: 'diamond',
      x: [witness[plane.x]],
      y: [witness[plane.y]],
      color: BOX,
      size: 6.5,
      fill: ACCENT,
    });
  return marks;
}

/** The legend of robustness marks over a map (robustnessOverlay, pointMark): one entry per kind of mark
 * drawn, in the marks' own look, so the screen and the exports say what the box and the symbols are. */
export function overlayLegend(marks: Mark[]): LegendEntry[] {
  const legend: LegendEntry[] = [];
  if (marks.some((m) => m.type === 'segments')) legend.push({ label: 'box x* ± γ', color: BOX, kind: 'dash' });
  const names: Record<string, string> = { ring: 'x*', square: 'GPFGS', diamond: 'witness' };
  for (const shape of ['ring', 'square', 'diamond'] as const) {
    const mark = marks.find((m): m is Mark & { type: 'symbols' } => m.type === 'symbols' && m.shape === shape);
    if (mark) legend.push({ label: names[shape], color: mark.color, kind: shape, fill: mark.fill });
  }
  return legend;
}

/** x* alone (before its certificate arrives). */
export function pointMark(plane: Plane, oneFeature: boolean, point: number[], probability: number | null): Mark[] {
  if (oneFeature)
    return probability === null
      ? []
      : [
          {
            type: 'symbols',
            shape: 'ring',
            x: [point[plane.x]],
            y: [probability],
            color: BOX,
            size: 6,
            fill: '#ffffff',
          },
        ];
  return [
    { type: 'symbols', shape: 'ring', x: [point[plane.x]], y: [point[plane.y]], color: BOX, size: 6, fill: '#ffffff' },
  ];
}

interface Series {
  iterations: number[];
  lower: number[];
  upper: number[];
}

/** Each extreme's intervals in the order they came, ending at the result's when there is one. */
function series(trace: IntervalDetail[], result: RobustnessCertificate | null): Record<'minimum' | 'maximum', Series> {
  const out = {
    minimum: { iterations: [], lower: [], upper: [] } as Series,
    maximum: { iterations: [], lower: [], upper: [] } as Series,
  };
  for (const d of trace) {
    const s = out[d.extremum];
    s.iterations.push(d.iterations);
    s.lower.push(d.lower);
    s.upper.push(d.upper);
  }
  if (result) {
    for (const e of ['minimum', 'maximum'] as const) {
      const s = out[e],
        x = result[e];
      if (s.iterations.at(-1) === x.iterations) continue;
      s.iterations.push(x.iterations);
      s.lower.push(x.lower);
      s.upper.push(x.upper);
    }
  }
  return out;
}

/** Branch and bound converging: the certified bound and the best value found of each extreme against
 * the boxes split, starting at the root box's bounds. */
export function convergencePlot(
  title: string,
  root: RobustnessCertificate | null,
  trace: IntervalDetail[],
  result: RobustnessCertificate | null,
): PlotSpec | null {
  if (!root) return null;
  const s = series(trace, result);
  const marks: Mark[] = [{ type: 'rule', y: 0.5, color: NEUTRAL, dash: [4, 3] }];
  const values: number[] = [];
  const legend: LegendEntry[] = [];
  for (const [e, color, name] of [
    ['minimum', NEGATIVE, 'π_min'],
    ['maximum', POSITIVE, 'π_max'],
  ] as const) {
    const start = root[e];
    const x = [0, ...s[e].iterations],
      lo = [start.lower, ...s[e].lower],
      hi = [start.upper, ...s[e].upper];
    values.push(...lo, ...hi);
    marks.push({ type: 'area', x, y0: lo, y1: hi, fill: color, opacity: 0.18 });
    // The certified side solid (it moves towards the found value), the found value dashed.
    marks.push({ type: 'line', x, y: e === 'minimum' ? lo : hi, color, width: 2 });
    marks.push({ type: 'line', x, y: e === 'minimum' ? hi : lo, color, width: 1.5, dash: [5, 3] });
    // Each extreme's found value as it is drawn (dashed in its colour), never in the grey of the p = ½ line.
    legend.push({ label: name, color, kind: 'line' }, { label: `${name} found`, color, kind: 'dash' });
  }
  legend.push({ label: 'p = ½', color: NEUTRAL, kind: 'dash' });
  const iterations = Math.max(1, ...s.minimum.iterations, ...s.maximum.iterations);
  const [y0, y1] = extent(values, 0.08);
  return {
    title,
    marks,
    legend,
    x: { label: 'boxes split', domain: [0, iterations] },
    y: {
      label: 'p(y = 1) over the box',
      domain: [Math.max(-0.02, Math.min(y0, 0.48)), Math.min(1.02, Math.max(y1, 0.52))],
    },
  };
}

/** The paper's Fig. 2 for one model: each refined extreme's certified interval against gamma, GPFGS's
 * probability beside them. `refined` says which extremes branch and bound refined. */
export function sweepPlot(title: string, rows: RobustnessCertificate[], refined: ('minimum' | 'maximum')[]): PlotSpec {
  const gammas = rows.map((r) => r.gamma);
  const marks: Mark[] = [{ type: 'rule', y: 0.5, color: NEUTRAL, dash: [4, 3] }];
  const legend: LegendEntry[] = [];
  for (const [e, color, name] of [
    ['minimum', NEGATIVE, 'π_min'],
    ['maximum', POSITIVE, 'π_max'],
  ] as const) {
    if (!refined.includes(e)) continue;
    const lo = rows.map((r) => r[e].lower),
      hi = rows.map((r) => r[e].upper);
    marks.push({ type: 'area', x: gammas, y0: lo, y1: hi, fill: color, opacity: 0.3 });
    marks.push({ type: 'line', x: gammas, y: lo, color, width: 1.5 });
    marks.push({ type: 'line', x: gammas, y: hi, color, width: 1.5 });
    legend.push({ label: name, color, kind: 'area' });
  }
  marks.push({
    type: 'line',
    x: gammas,
    y: rows.map((r) => r.gpfgs.probability),
    color: '#111111',
    width: 1,
    dash: [2, 2],
  });
  marks.push({
    type: 'points',
    x: gammas,
    y: rows.map((r) => r.gpfgs.probability),
    palette: ['#111111'],
    radius: 3.2,
    interactive: true,
  });
  legend.push({ label: 'GPFGS', color: '#111111', kind: 'point' });
  const [g0, g1] = gammas.length > 1 ? extent(gammas, 0.03) : [gammas[0] - 0.1, gammas[0] + 0.1];
  return {
    title,
    marks,
    legend,
    x: { label: 'γ (half-width of the L∞ box)', domain: [g0, g1] },
    y: { label: 'p(y = 1)', domain: [-0.02, 1.02] },
  };
}
