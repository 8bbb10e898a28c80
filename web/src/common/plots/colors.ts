// Colours: Okabe-Ito for classes (colour-blind safe) and viridis, in 64 steps, for measures.
import { interpolateViridis } from 'd3-scale-chromatic';

export const POSITIVE = '#d55e00';
export const NEGATIVE = '#0072b2';
export const OOD = '#cc79a7';
export const NEUTRAL = '#9aa5b1';
export const SELECTED = '#111111';
export const IRRATIONAL = '#7b8794';
export const ACCENT = '#009e73';

export const MEASURE_PALETTE: string[] = Array.from({ length: 64 }, (_, k) => interpolateViridis(k / 63));

/** Palette index per value, mapping `domain` linearly onto the palette (clamped). */
export function paletteIndices(
  values: ArrayLike<number>,
  domain: [number, number],
  steps = MEASURE_PALETTE.length,
): Uint8Array {
  const out = new Uint8Array(values.length);
  const [lo, hi] = domain;
  const span = hi - lo || 1;
  for (let i = 0; i < values.length; i++) {
    const t = (values[i] - lo) / span;
    out[i] = Math.max(0, Math.min(steps - 1, Math.floor(t * steps)));
  }
  return out;
}

/** A colour domain, and whether values lie beyond it at either end (they take the end colour). */
export interface ColorDomain {
  domain: [number, number];
  clipped: { low: boolean; high: boolean };
}

/**
 * Robust colour domain: the 1st and 99th percentiles (a few extreme values do not wash out the rest),
 * saying at which end values were clipped. A fixed range (a probability's [0, 1]) is used as it is.
 */
export function colorDomain(values: ArrayLike<number>, fixed: [number, number] | null = null): ColorDomain {
  let lo = Infinity,
    hi = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo > hi) return { domain: fixed ?? [0, 1], clipped: { low: false, high: false } }; // no finite value
  let domain: [number, number];
  if (fixed) domain = fixed;
  else {
    // Only an automatic range needs the values in order.
    const sorted = Float64Array.from(values).filter(Number.isFinite).sort();
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))];
    const low = at(0.01),
      high = at(0.99);
    domain = low === high ? [low - 0.5, high + 0.5] : [low, high];
  }
  return { domain, clipped: { low: lo < domain[0], high: hi > domain[1] } };
}

/** "#rrggbb" of a linear blend of two "#rrggbb" colours, t in [0, 1]. */
function blend(a: string, b: string, t: number): string {
  const channel = (k: number) => {
    const v = Math.round(parseInt(a.slice(k, k + 2), 16) * (1 - t) + parseInt(b.slice(k, k + 2), 16) * t);
    return v.toString(16).padStart(2, '0');
  };
  return `#${channel(1)}${channel(3)}${channel(5)}`;
}

/** A class probability p(y = 1) in 64 steps: the negative class's blue at 0, white at 1/2, the positive
 * class's vermillion at 1 (the classes' colours above). */
export const PROBABILITY_PALETTE: string[] = Array.from({ length: 64 }, (_, k) => {
  const t = (k + 0.5) / 64;
  return t < 0.5 ? blend(NEGATIVE, '#ffffff', t / 0.5) : blend('#ffffff', POSITIVE, (t - 0.5) / 0.5);
});
