// The Explain panel's figures as data: a list of shapes (rectangles, lines, text) laid out once and
// drawn either on a canvas (the page, PNG export) or as SVG (export). Heat maps of a per-feature value on
// the image's pixels (8 × 8 digits: the paper's Fig. 5) with a diverging legend, bars with the certified
// interval as a whisker for tabular data, and arrows of the global view on 2-D data (the paper's Fig. 6).
// Colours: red where raising the feature raises p(y = +1) (positive), blue where it lowers it, white at 0;
// every map scaled to its own largest |value| (the legend says which).

export type Shape =
  | { kind: 'rect'; x: number; y: number; w: number; h: number; fill: string; stroke?: string }
  | { kind: 'line'; x1: number; y1: number; x2: number; y2: number; stroke: string; width: number }
  | {
      kind: 'text';
      x: number;
      y: number;
      text: string;
      size: number;
      anchor: 'start' | 'middle' | 'end';
      fill?: string;
    };

export interface Figure {
  width: number;
  height: number;
  shapes: Shape[];
}

/** Diverging colour of t in [−1, 1]: blue (−1) – white (0) – red (+1). */
export function diverging(t: number): string {
  const u = Math.max(-1, Math.min(1, Number.isFinite(t) ? t : 0));
  const mix = (a: number, b: number) => Math.round(a + (b - a) * Math.abs(u));
  return u >= 0 ? `rgb(255,${mix(255, 40)},${mix(255, 40)})` : `rgb(${mix(255, 40)},${mix(255, 90)},255)`;
}

/** The largest |v| (1 when every value is 0, so the scale stays finite). */
export function scaleOf(values: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i])) m = Math.max(m, Math.abs(values[i]));
  return m > 0 ? m : 1;
}

/** Whether d features are a square image (8 × 8 digits, 14 × 14, 28 × 28). */
export function imageSide(d: number): number | null {
  const side = Math.round(Math.sqrt(d));
  return side >= 4 && side * side === d ? side : null;
}

const LEGEND_STEPS = 21;

function legend(shapes: Shape[], x: number, y: number, w: number, scale: number, label: string): void {
  const step = w / LEGEND_STEPS;
  for (let s = 0; s < LEGEND_STEPS; s++) {
    shapes.push({
      kind: 'rect',
      x: x + s * step,
      y,
      w: step + 0.5,
      h: 10,
      fill: diverging((2 * s) / (LEGEND_STEPS - 1) - 1),
    });
  }
  shapes.push({ kind: 'rect', x, y, w, h: 10, fill: 'none', stroke: '#888' });
  const fmt = (v: number) => (Math.abs(v) >= 1e-3 || v === 0 ? v.toPrecision(2) : v.toExponential(1));
  shapes.push({ kind: 'text', x, y: y + 23, text: fmt(-scale), size: 10, anchor: 'start' });
  shapes.push({ kind: 'text', x: x + w / 2, y: y + 23, text: '0', size: 10, anchor: 'middle' });
  shapes.push({ kind: 'text', x: x + w, y: y + 23, text: fmt(scale), size: 10, anchor: 'end' });
  shapes.push({ kind: 'text', x: x + w / 2, y: y + 36, text: label, size: 10, anchor: 'middle', fill: '#555' });
}

/** A heat map of `values` (side × side, row-major) over the image `pixels` (drawn faintly beneath as
 * grey outlines), titled, with its legend. `mask`: cells drawn hatched grey (LIME cannot see a pixel
 * equal to its baseline). */
export function heatMap(
  values: ArrayLike<number>,
  side: number,
  title: string,
  options: { pixels?: ArrayLike<number>; mask?: boolean[]; cell?: number; hatched?: boolean[] } = {},
): Figure {
  const cell = options.cell ?? 24,
    pad = 8,
    top = 22;
  const width = side * cell + 2 * pad,
    shapes: Shape[] = [];
  shapes.push({ kind: 'text', x: width / 2, y: 15, text: title, size: 12, anchor: 'middle' });
  // Hatched cells (features constant in training) are drawn grey with diagonal lines and left out of the
  // colour scale, so that they neither take the scale's ends nor look like evidence.
  const hatched = options.hatched;
  const scale = scaleOf(hatched ? Array.from(values, (v, i) => (hatched[i] ? Number.NaN : v)) : values);
  for (let r = 0; r < side; r++) {
    for (let c = 0; c < side; c++) {
      const i = r * side + c,
        x = pad + c * cell,
        y = top + r * cell;
      const masked = options.mask?.[i] ?? false;
      if (hatched?.[i]) {
        shapes.push({ kind: 'rect', x, y, w: cell, h: cell, fill: '#eeeeee' });
        for (const t of [0.25, 0.5, 0.75])
          shapes.push({ kind: 'line', x1: x + t * cell, y1: y, x2: x, y2: y + t * cell, stroke: '#999', width: 1 });
        shapes.push({ kind: 'line', x1: x + cell, y1: y, x2: x, y2: y + cell, stroke: '#999', width: 1 });
        for (const t of [0.25, 0.5, 0.75])
          shapes.push({
            kind: 'line',
            x1: x + cell,
            y1: y + t * cell,
            x2: x + t * cell,
            y2: y + cell,
            stroke: '#999',
            width: 1,
          });
        continue;
      }
      shapes.push({ kind: 'rect', x, y, w: cell, h: cell, fill: masked ? '#d8d8d8' : diverging(values[i] / scale) });
      const ink = options.pixels?.[i] ?? 0;
      if (ink > 0.25)
        shapes.push({
          kind: 'rect',
          x: x + 3,
          y: y + 3,
          w: cell - 6,
          h: cell - 6,
          fill: 'none',
          stroke: `rgba(0,0,0,${(0.15 + 0.5 * Math.min(1, ink)).toFixed(2)})`,
        });
    }
  }
  const legendY = top + side * cell + 10;
  legend(shapes, pad, legendY, side * cell, scale, 'blue: lowers p · red: raises p');
  return { width, height: legendY + 44, shapes };
}

/** Horizontal bars of `values` per feature (names), each with its certified interval as a whisker when given. */
export function bars(
  values: ArrayLike<number>,
  names: string[],
  title: string,
  interval?: { lower: ArrayLike<number>; upper: ArrayLike<number> },
): Figure {
  const rowH = 18,
    left = 110,
    barW = 200,
    top = 24,
    shapes: Shape[] = [];
  const k = names.length,
    width = left + barW + 20;
  let scale = scaleOf(values);
  if (interval) scale = Math.max(scale, scaleOf(interval.lower), scaleOf(interval.upper));
  const mid = left + barW / 2,
    unit = barW / 2 / scale;
  shapes.push({ kind: 'text', x: width / 2, y: 15, text: title, size: 12, anchor: 'middle' });
  for (let a = 0; a < k; a++) {
    const y = top + a * rowH,
      v = values[a];
    shapes.push({ kind: 'text', x: left - 6, y: y + 12, text: names[a], size: 10, anchor: 'end' });
    const x0 = v >= 0 ? mid : mid + v * unit;
    shapes.push({
      kind: 'rect',
      x: x0,
      y: y + 3,
      w: Math.abs(v) * unit,
      h: rowH - 6,
      fill: diverging(v / scale),
      stroke: '#888',
    });
    if (interval) {
      const lo = mid + interval.lower[a] * unit,
        hi = mid + interval.upper[a] * unit,
        cy = y + rowH / 2;
      shapes.push({ kind: 'line', x1: lo, y1: cy, x2: hi, y2: cy, stroke: '#222', width: 1.5 });
      shapes.push({ kind: 'line', x1: lo, y1: cy - 4, x2: lo, y2: cy + 4, stroke: '#222', width: 1.5 });
      shapes.push({ kind: 'line', x1: hi, y1: cy - 4, x2: hi, y2: cy + 4, stroke: '#222', width: 1.5 });
    }
  }
  shapes.push({ kind: 'line', x1: mid, y1: top - 2, x2: mid, y2: top + k * rowH, stroke: '#666', width: 1 });
  const legendY = top + k * rowH + 8;
  legend(
    shapes,
    left,
    legendY,
    barW,
    scale,
    interval ? 'bars: value · whiskers: certified interval' : 'bars: coefficient',
  );
  return { width, height: legendY + 44, shapes };
}

/** The global view on 2-D data (Fig. 6): the direction (Δ_1, Δ_2) of the mean metric and LIME's mean
 * coefficients, each scaled to unit length, as arrows from the centre. */
export function arrows(delta: [number, number], lime: [number, number] | null, names: [string, string]): Figure {
  const size = 220,
    c = size / 2,
    r = 80,
    shapes: Shape[] = [];
  shapes.push({ kind: 'line', x1: 10, y1: c, x2: size - 10, y2: c, stroke: '#bbb', width: 1 });
  shapes.push({ kind: 'line', x1: c, y1: 10, x2: c, y2: size - 10, stroke: '#bbb', width: 1 });
  shapes.push({ kind: 'text', x: size - 10, y: c - 4, text: names[0], size: 10, anchor: 'end' });
  shapes.push({ kind: 'text', x: c + 4, y: 18, text: names[1], size: 10, anchor: 'start' });
  const arrow = (v: [number, number], colour: string, label: string) => {
    const n = Math.hypot(v[0], v[1]);
    if (!(n > 0)) return;
    const x = c + (r * v[0]) / n,
      y = c - (r * v[1]) / n,
      ax = (x - c) / r,
      ay = (y - c) / r;
    shapes.push({ kind: 'line', x1: c, y1: c, x2: x, y2: y, stroke: colour, width: 2.5 });
    shapes.push({
      kind: 'line',
      x1: x,
      y1: y,
      x2: x - 10 * ax + 5 * ay,
      y2: y - 10 * ay - 5 * ax,
      stroke: colour,
      width: 2.5,
    });
    shapes.push({
      kind: 'line',
      x1: x,
      y1: y,
      x2: x - 10 * ax - 5 * ay,
      y2: y - 10 * ay + 5 * ax,
      stroke: colour,
      width: 2.5,
    });
    shapes.push({
      kind: 'text',
      x: x + 6 * ax,
      y: y + 6 * ay + 4,
      text: label,
      size: 10,
      anchor: ax >= 0 ? 'start' : 'end',
      fill: colour,
    });
  };
  arrow(delta, '#c0392b', 'Δ_γ');
  if (lime) arrow(lime, '#2a6fb0', 'LIME');
  return { width: size, height: size, shapes };
}

const escape = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The figure as an SVG document. */
export function figureSvg(f: Figure): string {
  const body = f.shapes
    .map((s) => {
      if (s.kind === 'rect')
        return `<rect x="${s.x}" y="${s.y}" width="${s.w}" height="${s.h}" fill="${s.fill}"${s.stroke ? ` stroke="${s.stroke}"` : ''}/>`;
      if (s.kind === 'line')
        return `<line x1="${s.x1}" y1="${s.y1}" x2="${s.x2}" y2="${s.y2}" stroke="${s.stroke}" stroke-width="${s.width}"/>`;
      return `<text x="${s.x}" y="${s.y}" font-size="${s.size}" font-family="sans-serif" text-anchor="${s.anchor}" fill="${s.fill ?? '#222'}">${escape(s.text)}</text>`;
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${f.width}" height="${f.height}" viewBox="0 0 ${f.width} ${f.height}"><rect width="100%" height="100%" fill="#fff"/>${body}</svg>`;
}

/** Draws the figure on a canvas (sized to it at the device's pixel ratio). */
export function drawFigure(canvas: HTMLCanvasElement, f: Figure, ratio = globalThis.devicePixelRatio || 1): void {
  canvas.width = Math.round(f.width * ratio);
  canvas.height = Math.round(f.height * ratio);
  canvas.style.width = `${f.width}px`;
  canvas.style.height = `${f.height}px`;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, f.width, f.height);
  for (const s of f.shapes) {
    if (s.kind === 'rect') {
      if (s.fill !== 'none') {
        ctx.fillStyle = s.fill;
        ctx.fillRect(s.x, s.y, s.w, s.h);
      }
      if (s.stroke) {
        ctx.strokeStyle = s.stroke;
        ctx.lineWidth = 1;
        ctx.strokeRect(s.x + 0.5, s.y + 0.5, s.w - 1, s.h - 1);
      }
    } else if (s.kind === 'line') {
      ctx.strokeStyle = s.stroke;
      ctx.lineWidth = s.width;
      ctx.beginPath();
      ctx.moveTo(s.x1, s.y1);
      ctx.lineTo(s.x2, s.y2);
      ctx.stroke();
    } else {
      ctx.fillStyle = s.fill ?? '#222';
      ctx.font = `${s.size}px sans-serif`;
      ctx.textAlign = s.anchor === 'middle' ? 'center' : s.anchor;
      ctx.fillText(s.text, s.x, s.y);
    }
  }
}

/** Figures side by side, tops aligned, with a gap. */
export function beside(figures: Figure[], gap = 16): Figure {
  let x = 0,
    height = 0;
  const shapes: Shape[] = [];
  for (const f of figures) {
    for (const s of f.shapes) {
      if (s.kind === 'line') shapes.push({ ...s, x1: s.x1 + x, x2: s.x2 + x });
      else shapes.push({ ...s, x: s.x + x });
    }
    x += f.width + gap;
    height = Math.max(height, f.height);
  }
  return { width: Math.max(0, x - gap), height, shapes };
}

/** The image itself in grey (0 white, 1 black), titled. */
export function imageFigure(pixels: ArrayLike<number>, side: number, title: string, cell = 24): Figure {
  const pad = 8,
    top = 22,
    shapes: Shape[] = [];
  const width = side * cell + 2 * pad;
  shapes.push({ kind: 'text', x: width / 2, y: 15, text: title, size: 12, anchor: 'middle' });
  for (let r = 0; r < side; r++) {
    for (let c = 0; c < side; c++) {
      const g = Math.round(255 * (1 - Math.max(0, Math.min(1, pixels[r * side + c]))));
      shapes.push({
        kind: 'rect',
        x: pad + c * cell,
        y: top + r * cell,
        w: cell,
        h: cell,
        fill: `rgb(${g},${g},${g})`,
      });
    }
  }
  return { width, height: top + side * cell + 10, shapes };
}
