// Overlaid histograms of a score for in-distribution and out-of-distribution queries (binning is
// presentation; the scores themselves come from the engine).
import { NEGATIVE, OOD } from '../../../common/plots/colors.ts';
import { extent } from '../../../common/plots/layout.ts';
import type { PlotSpec } from '../../../common/plots/plot_model.ts';

function bin(values: ArrayLike<number>, lo: number, hi: number, bins: number): Float64Array {
  const counts = new Float64Array(bins);
  const width = (hi - lo) / bins || 1;
  for (let i = 0; i < values.length; i++) {
    const k = Math.min(bins - 1, Math.max(0, Math.floor((values[i] - lo) / width)));
    counts[k]++;
  }
  // As a density, so groups of different sizes compare.
  for (let k = 0; k < bins; k++) counts[k] /= Math.max(1, values.length) * width;
  return counts;
}

export function scoreHistograms(
  inside: ArrayLike<number>,
  outside: ArrayLike<number>,
  scoreLabel: string,
  bins = 40,
): PlotSpec {
  const all = Float64Array.from([...Array.from(inside), ...Array.from(outside)]);
  const [lo, hi] = extent(all, 0);
  const width = (hi - lo) / bins || 1;
  const x0 = Float64Array.from({ length: bins }, (_, k) => lo + k * width);
  const x1 = x0.map((v) => v + width);
  const a = bin(inside, lo, hi, bins),
    b = bin(outside, lo, hi, bins);
  const top = Math.max(...a, ...b, 1e-12);
  return {
    title: `${scoreLabel}: in- vs out-of-distribution`,
    marks: [
      { type: 'bars', x0, x1, y: a, fill: NEGATIVE, opacity: 0.55 },
      { type: 'bars', x0, x1, y: b, fill: OOD, opacity: 0.55 },
    ],
    x: { label: scoreLabel, domain: [lo - width, hi + width] },
    y: { label: 'density', domain: [0, top * 1.08] },
    legend: [
      { label: `in-distribution (${inside.length.toLocaleString()})`, color: NEGATIVE, kind: 'area' },
      { label: `out-of-distribution (${outside.length.toLocaleString()})`, color: OOD, kind: 'area' },
    ],
  };
}
