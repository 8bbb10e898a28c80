// A plot as data: axes and marks in data coordinates. The same description is drawn on a canvas for
// interaction and written as SVG for export, so a PNG and an SVG of a plot show the same picture.

export interface Axis {
  label: string;
  domain: [number, number];
  /** Tick labels; default is the scale's own formatting. */
  format?: (value: number) => string;
  /** Tick positions; default is the scale's own choice for the plot's size. */
  ticks?: number[];
}

/** Points coloured by palette index: colors[i] picks palette[colors[i]] (one draw call per colour). */
export interface PointsMark {
  type: 'points';
  x: ArrayLike<number>;
  y: ArrayLike<number>;
  palette: string[];
  colors?: Uint8Array;
  radius: number;
  opacity?: number;
  /** Only these point indices are drawn (all when absent). */
  subset?: ArrayLike<number>;
  /** Hover and click report indices of this mark. */
  interactive?: boolean;
}

export interface LineMark {
  type: 'line';
  x: ArrayLike<number>;
  y: ArrayLike<number>;
  color: string;
  width?: number;
  dash?: number[];
}

/** The region between y0 and y1 over x (a band), or a closed polygon when y0 is absent. */
export interface AreaMark {
  type: 'area';
  x: ArrayLike<number>;
  y1: ArrayLike<number>;
  y0?: ArrayLike<number>;
  fill: string;
  opacity?: number;
}

export interface BarsMark {
  type: 'bars';
  x0: ArrayLike<number>;
  x1: ArrayLike<number>;
  y: ArrayLike<number>;
  fill: string;
  opacity?: number;
}

/** Symbols at given points (observations, the selected query). */
export interface SymbolsMark {
  type: 'symbols';
  x: ArrayLike<number>;
  y: ArrayLike<number>;
  shape: SymbolShape;
  color: string;
  size: number;
  fill?: string;
}

export interface RuleMark {
  type: 'rule';
  x?: number;
  y?: number;
  color: string;
  dash?: number[];
}

export interface TextMark {
  type: 'text';
  x: number;
  y: number;
  text: string;
  color: string;
  align?: 'start' | 'middle' | 'end';
  /** A band of this colour around the letters, so the text reads on any background (a dark map). */
  halo?: string;
}

/** Line segments: segment k joins (x[2k], y[2k]) and (x[2k+1], y[2k+1]) (a contour). */
export interface SegmentsMark {
  type: 'segments';
  x: ArrayLike<number>;
  y: ArrayLike<number>;
  color: string;
  width?: number;
  dash?: number[];
}

/**
 * A field on a regular grid drawn as an image: `columns` by `rows` values whose centres run evenly from
 * (x0, y0) to (x1, y1); colors[i * columns + j] picks palette[...] for the cell at row i (y, from y0
 * up) and column j (x). Cells are interpolated smoothly between centres.
 */
export interface ImageMark {
  type: 'image';
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  columns: number;
  rows: number;
  colors: Uint8Array;
  palette: string[];
}

export type Mark =
  PointsMark | LineMark | AreaMark | BarsMark | SymbolsMark | RuleMark | TextMark | SegmentsMark | ImageMark;

/** The symbols a SymbolsMark draws; a legend entry of the same kind draws the same shape. */
export type SymbolShape = 'ring' | 'diamond' | 'square';

export interface LegendEntry {
  label: string;
  /** The line, point or area colour; for a symbol its outline. */
  color: string;
  kind: 'point' | 'line' | 'area' | 'dash' | SymbolShape;
  /** A symbol's fill, as its mark has it (none when absent). */
  fill?: string;
}

export interface PlotSpec {
  title: string;
  x: Axis;
  y: Axis;
  marks: Mark[];
  legend?: LegendEntry[];
  /** A colour bar for a measure mapped through a palette. */
  colorBar?: ColorBar;
}

export interface ColorBar {
  label: string;
  domain: [number, number];
  palette: string[];
  /** Values lie below domain[0] (low) or above domain[1] (high) and take the end colour: the bar says
   * "≤" / "≥" at that end. */
  clipped?: { low: boolean; high: boolean };
}
