// The layer profile: each representation's AUROC at its position (its layer number when the names carry
// one, else its place in the list), with the 99 % interval as a bar: held-out AUROC (the comparison's
// basis when there are held-out rows) and leave-one-out AUROC, chance at 1/2. Over draws of the
// observations: the mean AUROC over the draws as the first line, its 99 % interval as a band and the
// draws' range (minimum to maximum) as a lighter band behind it. Layout only: every number is the core's.
import type { ConceptComparison, RepresentationComparison } from '../../../engine/compare/compare_representations.ts';
import type { RepresentationCurve } from '../worker/protocol.ts';
import { ACCENT, MEASURE_PALETTE, NEGATIVE, NEUTRAL } from '../../../common/plots/colors.ts';

/** The draws' mean and bands: a purple apart from the first draw's held-out (blue) and leave-one-out (green) bars. */
const DRAWS_COLOR = '#7b4fa0';
import type { LegendEntry, Mark, PlotSpec } from '../../../common/plots/plot_model.ts';

/** Each representation's position on the profile's axis. */
export function positions(comparison: RepresentationComparison, count: number): number[] {
  return comparison.layers.layered ? comparison.layers.numbers : Array.from({ length: count }, (_, k) => k);
}

interface Series {
  label: string;
  color: string;
  value: (k: number) => number;
  lower: (k: number) => number;
  upper: (k: number) => number;
  dash?: number[];
}

export function profilePlot(comparison: RepresentationComparison, concept: ConceptComparison): PlotSpec {
  const probes = concept.probes;
  const x = positions(comparison, probes.length);
  const order = x.map((_, k) => k).sort((a, b) => x[a] - x[b]);
  const series: Series[] = [
    {
      label: 'held-out AUROC',
      color: NEGATIVE,
      value: (k) => probes[k].heldoutAuroc,
      lower: (k) => probes[k].heldoutAurocLower,
      upper: (k) => probes[k].heldoutAurocUpper,
    },
    {
      label: 'leave-one-out AUROC',
      color: ACCENT,
      value: (k) => probes[k].looAuroc,
      lower: (k) => probes[k].looAurocLower,
      upper: (k) => probes[k].looAurocUpper,
      dash: [5, 3],
    },
  ];
  const marks: Mark[] = [{ type: 'rule', y: 0.5, color: NEUTRAL, dash: [3, 3] }];
  const legend: LegendEntry[] = [];
  const span = x.length > 1 ? Math.max(...x) - Math.min(...x) : 1;
  let lo = 0.5;
  const drawn = concept.draws.mode !== 'none' && concept.draws.probes.length === probes.length;
  if (drawn) {
    const d = concept.draws.probes;
    const at = order.filter((k) => Number.isFinite(d[k].mean));
    if (at.length > 0) {
      const xs = at.map((k) => x[k]);
      for (const k of at) lo = Math.min(lo, d[k].minimum, d[k].lower);
      marks.push({
        type: 'area',
        x: xs,
        y0: at.map((k) => d[k].minimum),
        y1: at.map((k) => d[k].maximum),
        fill: DRAWS_COLOR,
        opacity: 0.14,
      });
      marks.push({
        type: 'area',
        x: xs,
        y0: at.map((k) => d[k].lower),
        y1: at.map((k) => d[k].upper),
        fill: DRAWS_COLOR,
        opacity: 0.3,
      });
      marks.push({ type: 'line', x: xs, y: at.map((k) => d[k].mean), color: DRAWS_COLOR, width: 2.5 });
      legend.push({
        label: `mean over ${concept.draws.draws} draws, its 99 % interval (band)`,
        color: DRAWS_COLOR,
        kind: 'line',
      });
      legend.push({ label: 'range over the draws', color: DRAWS_COLOR, kind: 'area' });
    }
  }
  series.forEach((s, i) => {
    const at = order.filter((k) => Number.isFinite(s.value(k)));
    if (at.length === 0) return;
    const shift = (i - 0.5) * 0.06 * span; // the two bars of one position side by side
    const xs = at.map((k) => x[k] + shift);
    const bars: number[] = [],
      ys: number[] = [];
    at.forEach((k, j) => {
      if (Number.isFinite(s.lower(k))) {
        bars.push(xs[j], xs[j]);
        ys.push(s.lower(k), s.upper(k));
        lo = Math.min(lo, s.lower(k));
      }
    });
    marks.push({ type: 'segments', x: bars, y: ys, color: s.color, width: 2 });
    marks.push({ type: 'line', x: xs, y: at.map(s.value), color: s.color, width: 2, dash: s.dash });
    marks.push({ type: 'points', x: xs, y: at.map(s.value), palette: [s.color], radius: 3.5, interactive: i === 0 });
    legend.push({ label: `${s.label} ± 99 % interval`, color: s.color, kind: s.dash ? 'dash' : 'line' });
  });
  const best = concept.basis === 'none' ? null : drawn ? concept.draws.best : concept.best;
  if (best !== null && drawn) {
    marks.push({
      type: 'symbols',
      x: [x[best]],
      y: [concept.draws.probes[best].mean],
      shape: 'ring',
      color: '#111111',
      size: 9,
    });
    legend.push({ label: "highest mean over the draws (the tests' reference)", color: '#111111', kind: 'ring' });
  } else if (best !== null) {
    // On the point of the basis the paired tests used (held-out: the first series, drawn left of the position).
    const shift = (concept.basis === 'heldout' ? -0.5 : 0.5) * 0.06 * span;
    marks.push({
      type: 'symbols',
      x: [x[best] + shift],
      y: [probes[best].basisAuroc],
      shape: 'ring',
      color: '#111111',
      size: 9,
    });
    legend.push({ label: "best (the paired tests' reference)", color: '#111111', kind: 'ring' });
  }
  const noun = comparison.layers.layered && comparison.layers.noun ? comparison.layers.noun : 'representation';
  return {
    title: `Layer profile: ${concept.concept}`,
    marks,
    legend: [...legend, { label: 'chance (½)', color: NEUTRAL, kind: 'dash' }],
    x: {
      label: comparison.layers.layered ? `${noun} (from the names)` : 'representation (in the order loaded)',
      domain: [Math.min(...x) - 0.15 * span - 0.2, Math.max(...x) + 0.15 * span + 0.2],
      ticks: [...new Set(x)].sort((a, b) => a - b),
      format: comparison.layers.layered ? (v) => String(v) : (v) => probes[Math.round(v)]?.name ?? '',
    },
    y: { label: 'AUROC', domain: [Math.max(0, Math.min(lo, 0.5) - 0.03), 1.01] },
  };
}

/** GPP's held-out AUROC against the observation count (log2 axis), one line per representation with its
 * ± 1 sd band over the trials, coloured from dark (first) to light (last). */
export function curvesPlot(curves: RepresentationCurve[], title: string, trials: number): PlotSpec {
  const marks: Mark[] = [{ type: 'rule', y: 0.5, color: NEUTRAL, dash: [3, 3] }];
  const legend: LegendEntry[] = [];
  let lo = 0.5,
    first = Infinity,
    last = -Infinity;
  curves.forEach((curve, k) => {
    const color =
      MEASURE_PALETTE[Math.round((k / Math.max(1, curves.length - 1)) * 0.85 * (MEASURE_PALETTE.length - 1))];
    const at = curve.observationCounts.map((_, j) => j).filter((j) => Number.isFinite(curve.mean[j]));
    const x = at.map((j) => Math.log2(curve.observationCounts[j]));
    const y0 = at.map((j) => curve.mean[j] - curve.sd[j]),
      y1 = at.map((j) => curve.mean[j] + curve.sd[j]);
    for (const v of y0) lo = Math.min(lo, v);
    for (const v of x) [first, last] = [Math.min(first, v), Math.max(last, v)];
    marks.push({ type: 'area', x, y0, y1, fill: color, opacity: 0.12 });
    marks.push({ type: 'line', x, y: at.map((j) => curve.mean[j]), color, width: 2 });
    marks.push({ type: 'points', x, y: at.map((j) => curve.mean[j]), palette: [color], radius: 2.6 });
    legend.push({ label: curve.name, color, kind: 'line' });
  });
  const ticks = curves[0]?.observationCounts.map(Math.log2) ?? [];
  return {
    title,
    marks,
    legend: [
      ...legend,
      { label: trials > 1 ? `± 1 sd over ${trials} trials` : '1 trial', color: NEUTRAL, kind: 'area' },
    ],
    x: {
      label: 'observations O (balanced, log scale)',
      domain: [first - 0.3, last + 0.3],
      ticks,
      format: (v) => String(2 ** v),
    },
    y: { label: 'GPP held-out AUROC', domain: [Math.max(0, lo - 0.03), 1.01] },
  };
}
