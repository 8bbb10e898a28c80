// Where things go on a plot of a given size: margins, scales from data to pixels, ticks.
import { scaleLinear } from 'd3-scale';
import type { Axis, LegendEntry, PlotSpec } from './plot_model.ts';

export interface Tick {
  value: number;
  position: number;
  label: string;
}

/** A legend entry placed: its symbol starts at x, centred on y. */
export interface LegendItem {
  entry: LegendEntry;
  x: number;
  y: number;
}

/** Where the colour bar and its texts go. */
export interface ColorBarPlace {
  /** The bar's left edge; it is BAR_WIDTH wide, from the plot's top to its bottom. */
  x: number;
  /** The end labels ("≥ 0.59" when values above were clipped), top and bottom, and where they start. */
  high: string;
  low: string;
  boundsX: number;
  /** The centre of the rotated label. */
  labelX: number;
}

export interface Linear {
  offset: number;
  slope: number;
}

/** The linear scale `s` as offset + slope * value. */
function linear(s: ReturnType<typeof scaleLinear<number, number>>): Linear {
  const [d0, d1] = s.domain(),
    [r0, r1] = s.range();
  const slope = (r1 - r0) / (d1 - d0);
  return { offset: r0 - slope * d0, slope };
}

export interface Layout {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** The legend along the top, in as many rows as the width needs (nothing is cut off). */
  legend: LegendItem[];
  /** The centre of the x axis's label: the plot area's, moved in so a long label stays on a narrow plot. */
  xLabelX: number;
  colorBar: ColorBarPlace | null;
  x(value: number): number;
  y(value: number): number;
  /** x and y as pixel = offset + slope * value, for loops over many points (no call per point). */
  xLinear: Linear;
  yLinear: Linear;
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

let measurer: OffscreenCanvasRenderingContext2D | null | undefined;

/**
 * The width of `text` in `font` as a canvas draws it; where there is no canvas (Node) an estimate of
 * 0.58 em per character. The canvas and the SVG export lay out with the same widths.
 */
export function textWidth(text: string, font = SMALL_FONT): number {
  if (measurer === undefined)
    measurer = typeof OffscreenCanvas === 'undefined' ? null : new OffscreenCanvas(1, 1).getContext('2d');
  if (!measurer) return text.length * 0.58 * Number(/(\d+)px/.exec(font)?.[1] ?? 11);
  measurer.font = font;
  return measurer.measureText(text).width;
}

export const TITLE_FONT = '600 13px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const TITLE_LINE = 18;

/** An exported picture's title (PNG and SVG carry it above the plot): its lines, wrapped at word breaks
 * to `width`, and the height of the band they take. */
export function titleBand(title: string, width: number): { lines: string[]; height: number } {
  const lines: string[] = [];
  for (const word of title.split(/\s+/).filter(Boolean)) {
    const last = lines.at(-1);
    if (last !== undefined && textWidth(`${last} ${word}`, TITLE_FONT) <= width - 16)
      lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return { lines, height: lines.length ? 10 + lines.length * TITLE_LINE : 0 };
}

export const BAR_WIDTH = 10;
const LEGEND_SYMBOL = 21; // from an entry's x to its text
const LEGEND_GAP = 16; // between entries
const LEGEND_ROW = 16; // between rows

/** Legend entries in rows from `left`, wrapping before `right`; returns the items and the rows used. */
function legendRows(entries: LegendEntry[], left: number, right: number): { items: LegendItem[]; rows: number } {
  const items: LegendItem[] = [];
  let x = left,
    row = 0;
  for (const entry of entries) {
    const w = LEGEND_SYMBOL + textWidth(entry.label);
    if (x > left && x + w > right) {
      row++;
      x = left;
    }
    items.push({ entry, x, y: 18 + row * LEGEND_ROW });
    x += w + LEGEND_GAP;
  }
  return { items, rows: entries.length ? row + 1 : 0 };
}

/** "≥ 0.59" when values above the domain take its end colour. */
function boundText(v: number, clipped: boolean | undefined, sign: string): string {
  return `${clipped ? `${sign} ` : ''}${formatBound(v)}`;
}

export function formatBound(v: number): string {
  return Math.abs(v) >= 1000 || (Math.abs(v) < 0.01 && v !== 0) ? v.toExponential(1) : v.toFixed(2);
}

export function layout(spec: PlotSpec, width: number, height: number): Layout {
  const left = 58,
    bottom = 42;
  let right = 14,
    colorBar: ColorBarPlace | null = null;
  if (spec.colorBar) {
    const { domain, clipped } = spec.colorBar;
    const high = boundText(domain[1], clipped?.high, '≥'),
      low = boundText(domain[0], clipped?.low, '≤');
    const bounds = Math.max(textWidth(high), textWidth(low));
    // gap, bar, gap, bound texts, gap, the rotated label (one line of 12 px), margin
    right = 14 + BAR_WIDTH + 3 + bounds + 8 + 14 + 4;
    const x = width - right + 14;
    colorBar = { x, high, low, boundsX: x + BAR_WIDTH + 3, labelX: x + BAR_WIDTH + 3 + bounds + 8 + 7 };
  }
  const legend = legendRows(spec.legend ?? [], left, width - 4);
  const top = legend.rows ? 30 + legend.rows * LEGEND_ROW - 2 : 30;
  const x = scaleLinear()
    .domain(safeDomain(spec.x.domain))
    .range([left, width - right]);
  const y = scaleLinear()
    .domain(safeDomain(spec.y.domain))
    .range([height - bottom, top]);
  const half = textWidth(spec.x.label, FONT) / 2;
  const xLabelX = Math.min(Math.max((left + width - right) / 2, half + 4), width - half - 4);
  return {
    width,
    height,
    left,
    right,
    top,
    bottom,
    legend: legend.items,
    colorBar,
    xLabelX,
    x: (v) => x(v),
    y: (v) => y(v),
    xLinear: linear(x),
    yLinear: linear(y),
    invertX: (p) => x.invert(p),
    invertY: (p) => y.invert(p),
    xTicks: ticks(spec.x, x, Math.max(2, Math.floor((width - left - right) / 80))),
    yTicks: ticks(spec.y, y, Math.max(2, Math.floor((height - top - bottom) / 50))),
  };
}

/** The [min, max] of finite values, padded by `pad` of the range. */
export function extent(values: ArrayLike<number>, pad = 0.04): [number, number] {
  let lo = Infinity,
    hi = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (!Number.isFinite(lo)) return [0, 1];
  const span = hi - lo || Math.abs(hi) || 1;
  return [lo - pad * span, hi + pad * span];
}
