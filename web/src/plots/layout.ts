// Where things go on a plot of a given size: margins, scales from data to pixels, ticks.
import { scaleLinear } from 'd3-scale';
import type { Axis, PlotSpec } from './plot_model.ts';

export interface Tick {
  value: number;
  position: number;
  label: string;
}

export interface Layout {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
  x(value: number): number;
  y(value: number): number;
  invertX(pixel: number): number;
  invertY(pixel: number): number;
  xTicks: Tick[];
  yTicks: Tick[];
}

export const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
export const SMALL_FONT = '11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
export const INK = '#1f2933';
export const MUTED = '#616e7c';
export const GRID = '#e4e7eb';

function safeDomain(domain: [number, number]): [number, number] {
  const [a, b] = domain;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return [0, 1];
  if (a === b) return [a - 0.5, b + 0.5];
  return [a, b];
}

function ticks(axis: Axis, scale: ReturnType<typeof scaleLinear<number, number>>, count: number): Tick[] {
  const format = axis.format ?? scale.tickFormat(count);
  return (axis.ticks ?? scale.ticks(count)).map((value) => ({ value, position: scale(value), label: format(value) }));
}

export function layout(spec: PlotSpec, width: number, height: number): Layout {
  const left = 58, right = spec.colorBar ? 64 : 14, top = spec.legend?.length ? 44 : 30, bottom = 42;
  const x = scaleLinear().domain(safeDomain(spec.x.domain)).range([left, width - right]);
  const y = scaleLinear().domain(safeDomain(spec.y.domain)).range([height - bottom, top]);
  return {
    width, height, left, right, top, bottom,
    x: (v) => x(v), y: (v) => y(v), invertX: (p) => x.invert(p), invertY: (p) => y.invert(p),
    xTicks: ticks(spec.x, x, Math.max(2, Math.floor((width - left - right) / 80))),
    yTicks: ticks(spec.y, y, Math.max(2, Math.floor((height - top - bottom) / 50))),
  };
}

/** The [min, max] of finite values, padded by `pad` of the range. */
export function extent(values: ArrayLike<number>, pad = 0.04): [number, number] {
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (!Number.isFinite(lo)) return [0, 1];
  const span = hi - lo || Math.abs(hi) || 1;
  return [lo - pad * span, hi + pad * span];
}
