// Draws a PlotSpec on a 2-D canvas context (the interactive view and PNG export).
import { BAR_WIDTH, FONT, GRID, INK, layout, MUTED, SMALL_FONT, TITLE_FONT, titleBand, type Layout } from './layout.ts';
import type { ImageMark, LegendEntry, Mark, PlotSpec, PointsMark, SymbolShape } from './plot_model.ts';
import { imageExtent, imagePixels } from './image_raster.ts';
import { parseColor, splatPoints } from './point_splat.ts';

type Context = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

function drawSymbol(ctx: Context, shape: SymbolShape, x: number, y: number, size: number): void {
  ctx.beginPath();
  if (shape === 'ring') ctx.arc(x, y, size, 0, 2 * Math.PI);
  else if (shape === 'diamond') {
    ctx.moveTo(x, y - size);
    ctx.lineTo(x + size, y);
    ctx.lineTo(x, y + size);
    ctx.lineTo(x - size, y);
    ctx.closePath();
  } else ctx.rect(x - size, y - size, 2 * size, 2 * size);
}

/** Point sets larger than this are splatted into pixels instead of drawn as arcs. */
const SPLAT_ABOVE = 4000;

function splatMark(ctx: Context, mark: PointsMark, L: Layout): void {
  const scale = ctx.getTransform().a || 1; // device pixels per CSS pixel
  const width = Math.max(1, Math.round((L.width - L.left - L.right) * scale));
  const height = Math.max(1, Math.round((L.height - L.top - L.bottom) * scale));
  const count = mark.subset ? mark.subset.length : mark.x.length;
  const px = new Float32Array(count),
    py = new Float32Array(count);
  const colors = mark.colors && mark.subset ? new Uint8Array(count) : mark.colors;
  // Device pixels of the plot area: (offset + slope * value - left) * scale.
  const ax = (L.xLinear.offset - L.left) * scale,
    bx = L.xLinear.slope * scale;
  const ay = (L.yLinear.offset - L.top) * scale,
    by = L.yLinear.slope * scale;
  const { x, y, subset } = mark;
  for (let k = 0; k < count; k++) {
    const i = subset ? subset[k] : k;
    px[k] = ax + bx * x[i];
    py[k] = ay + by * y[i];
    if (colors !== mark.colors) colors![k] = mark.colors![i];
  }
  const image = new ImageData(width, height);
  splatPoints(image, {
    px,
    py,
    colors,
    palette: mark.palette.map(parseColor),
    radius: mark.radius * scale,
    opacity: mark.opacity ?? 1,
  });
  const layer = new OffscreenCanvas(width, height);
  layer.getContext('2d')!.putImageData(image, 0, 0);
  ctx.drawImage(layer, L.left, L.top, width / scale, height / scale);
}

function drawImage(ctx: Context, mark: ImageMark, L: Layout): void {
  const layer = new OffscreenCanvas(mark.columns, mark.rows);
  layer.getContext('2d')!.putImageData(new ImageData(imagePixels(mark), mark.columns, mark.rows), 0, 0);
  const e = imageExtent(mark);
  const left = L.x(e.x0),
    right = L.x(e.x1),
    top = L.y(e.y1),
    bottom = L.y(e.y0);
  ctx.imageSmoothingEnabled = true;
  ctx.drawImage(layer, left, top, right - left, bottom - top);
}

function drawMark(ctx: Context, mark: Mark, L: Layout): void {
  switch (mark.type) {
    case 'points': {
      if ((mark.subset ? mark.subset.length : mark.x.length) > SPLAT_ABOVE) {
        splatMark(ctx, mark, L);
        break;
      }
      ctx.globalAlpha = mark.opacity ?? 1;
      const r = mark.radius;
      const count = mark.subset ? mark.subset.length : mark.x.length;
      // One path per palette colour: a few fill() calls for 100,000 points.
      const paths = mark.palette.map(() => new Path2D());
      for (let k = 0; k < count; k++) {
        const i = mark.subset ? mark.subset[k] : k;
        const px = L.x(mark.x[i]),
          py = L.y(mark.y[i]);
        if (!Number.isFinite(px) || !Number.isFinite(py)) continue;
        const path = paths[mark.colors ? mark.colors[i] : 0];
        path.moveTo(px + r, py);
        path.arc(px, py, r, 0, 2 * Math.PI);
      }
      paths.forEach((path, c) => {
        ctx.fillStyle = mark.palette[c];
        ctx.fill(path);
      });
      ctx.globalAlpha = 1;
      break;
    }
    case 'line': {
      ctx.strokeStyle = mark.color;
      ctx.lineWidth = mark.width ?? 1.5;
      ctx.setLineDash(mark.dash ?? []);
      ctx.beginPath();
      for (let i = 0; i < mark.x.length; i++) {
        const px = L.x(mark.x[i]),
          py = L.y(mark.y[i]);
        if (i === 0) ctx.moveTo(px, py);
        else ctx.lineTo(px, py);
      }
      ctx.stroke();
      ctx.setLineDash([]);
      break;
    }
    case 'area': {
      ctx.fillStyle = mark.fill;
      ctx.globalAlpha = mark.opacity ?? 1;
      ctx.beginPath();
      for (let i = 0; i < mark.x.length; i++) {
        const px = L.x(mark.x[i]),
          py = L.y(mark.y1[i]);
        if (i === 0) ctx.moveTo(px, py);
        else ctx.lineTo(px, py);
      }
      if (mark.y0) for (let i = mark.x.length - 1; i >= 0; i--) ctx.lineTo(L.x(mark.x[i]), L.y(mark.y0[i]));
      ctx.closePath();
      ctx.fill();
      ctx.globalAlpha = 1;
      break;
    }
    case 'bars': {
      ctx.fillStyle = mark.fill;
      ctx.globalAlpha = mark.opacity ?? 1;
      for (let i = 0; i < mark.y.length; i++) {
        const x0 = L.x(mark.x0[i]),
          x1 = L.x(mark.x1[i]),
          y = L.y(mark.y[i]),
          base = L.y(0);
        ctx.fillRect(x0, Math.min(y, base), Math.max(0.5, x1 - x0 - 0.5), Math.abs(base - y));
      }
      ctx.globalAlpha = 1;
      break;
    }
    case 'symbols': {
      ctx.strokeStyle = mark.color;
      ctx.lineWidth = 1.6;
      for (let i = 0; i < mark.x.length; i++) {
        drawSymbol(ctx, mark.shape, L.x(mark.x[i]), L.y(mark.y[i]), mark.size);
        if (mark.fill) {
          ctx.fillStyle = mark.fill;
          ctx.fill();
        }
        ctx.stroke();
      }
      break;
    }
    case 'rule': {
      ctx.strokeStyle = mark.color;
      ctx.lineWidth = 1;
      ctx.setLineDash(mark.dash ?? []);
      ctx.beginPath();
      if (mark.x !== undefined) {
        ctx.moveTo(L.x(mark.x), L.top);
        ctx.lineTo(L.x(mark.x), L.height - L.bottom);
      } else if (mark.y !== undefined) {
        ctx.moveTo(L.left, L.y(mark.y));
        ctx.lineTo(L.width - L.right, L.y(mark.y));
      }
      ctx.stroke();
      ctx.setLineDash([]);
      break;
    }
    case 'segments': {
      ctx.strokeStyle = mark.color;
      ctx.lineWidth = mark.width ?? 1.5;
      ctx.setLineDash(mark.dash ?? []);
      ctx.beginPath();
      for (let k = 0; k + 1 < mark.x.length; k += 2) {
        ctx.moveTo(L.x(mark.x[k]), L.y(mark.y[k]));
        ctx.lineTo(L.x(mark.x[k + 1]), L.y(mark.y[k + 1]));
      }
      ctx.stroke();
      ctx.setLineDash([]);
      break;
    }
    case 'image':
      drawImage(ctx, mark, L);
      break;
    case 'text':
      break; // drawn after the clipped marks (drawTextMark), so a label is never cut at the plot's edge
  }
}

function drawTextMark(
  ctx: Context,
  boxes: { base: DOMMatrix; list: TextBox[] },
  mark: Mark & { type: 'text' },
  L: Layout,
): void {
  ctx.fillStyle = mark.color;
  ctx.font = SMALL_FONT;
  ctx.textAlign = mark.align === 'middle' ? 'center' : mark.align === 'end' ? 'right' : 'left';
  ctx.textBaseline = 'middle';
  if (mark.halo) {
    ctx.save();
    ctx.strokeStyle = mark.halo;
    ctx.lineWidth = 3;
    ctx.lineJoin = 'round';
    ctx.strokeText(mark.text, L.x(mark.x), L.y(mark.y));
    ctx.restore();
  }
  drawText(ctx, boxes, mark.text, L.x(mark.x), L.y(mark.y));
}

/** A legend entry's symbol at (x, y): what its marks look like on the plot. */
function drawLegendSymbol(ctx: Context, entry: LegendEntry, x: number, y: number): void {
  ctx.fillStyle = entry.color;
  ctx.strokeStyle = entry.color;
  ctx.lineWidth = 2;
  if (entry.kind === 'line' || entry.kind === 'dash') {
    ctx.setLineDash(entry.kind === 'dash' ? [4, 3] : []);
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(x + 16, y);
    ctx.stroke();
    ctx.setLineDash([]);
  } else if (entry.kind === 'area') {
    ctx.globalAlpha = 0.35;
    ctx.fillRect(x, y - 6, 16, 12);
    ctx.globalAlpha = 1;
  } else if (entry.kind === 'point') {
    ctx.beginPath();
    ctx.arc(x + 8, y, 4, 0, 2 * Math.PI);
    ctx.fill();
  } else {
    ctx.lineWidth = 1.6;
    drawSymbol(ctx, entry.kind, x + 8, y, entry.kind === 'square' ? 4.5 : 5);
    if (entry.fill) {
      ctx.fillStyle = entry.fill;
      ctx.fill();
    }
    ctx.stroke();
  }
}

/** Where a text was drawn, in CSS pixels of the plot (whatever the transform): what tests check against the canvas bounds. */
export interface TextBox {
  text: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** fillText that records the text's box in plot pixels (`base`: the transform at the start of the plot). */
function drawText(ctx: Context, boxes: { base: DOMMatrix; list: TextBox[] }, text: string, x: number, y: number): void {
  ctx.fillText(text, x, y);
  const m = ctx.measureText(text);
  const local = boxes.base.inverse().multiply(ctx.getTransform());
  const corners = [
    [x - m.actualBoundingBoxLeft, y - m.actualBoundingBoxAscent],
    [x + m.actualBoundingBoxRight, y - m.actualBoundingBoxAscent],
    [x - m.actualBoundingBoxLeft, y + m.actualBoundingBoxDescent],
    [x + m.actualBoundingBoxRight, y + m.actualBoundingBoxDescent],
  ].map(([cx, cy]) => local.transformPoint({ x: cx, y: cy }));
  const xs = corners.map((p) => p.x),
    ys = corners.map((p) => p.y);
  boxes.list.push({
    text,
    left: Math.min(...xs),
    top: Math.min(...ys),
    right: Math.max(...xs),
    bottom: Math.max(...ys),
  });
}

/** Draws `spec` at width × height CSS pixels; returns its layout and the boxes of the texts around it. */
export function drawPlot(
  ctx: Context,
  spec: PlotSpec,
  width: number,
  height: number,
): Layout & { textBoxes: TextBox[] } {
  const L = layout(spec, width, height);
  const boxes = { base: ctx.getTransform(), list: [] as TextBox[] };
  ctx.save();
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  // grid and frame
  ctx.strokeStyle = GRID;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (const t of L.xTicks) {
    ctx.moveTo(Math.round(t.position) + 0.5, L.top);
    ctx.lineTo(Math.round(t.position) + 0.5, height - L.bottom);
  }
  for (const t of L.yTicks) {
    ctx.moveTo(L.left, Math.round(t.position) + 0.5);
    ctx.lineTo(width - L.right, Math.round(t.position) + 0.5);
  }
  ctx.stroke();
  // marks, clipped to the plotting area
  ctx.save();
  ctx.beginPath();
  ctx.rect(L.left, L.top, width - L.left - L.right, height - L.top - L.bottom);
  ctx.clip();
  for (const mark of spec.marks) drawMark(ctx, mark, L);
  ctx.restore();
  for (const mark of spec.marks) if (mark.type === 'text') drawTextMark(ctx, boxes, mark, L);
  // axes
  ctx.strokeStyle = MUTED;
  ctx.beginPath();
  ctx.moveTo(L.left, height - L.bottom + 0.5);
  ctx.lineTo(width - L.right, height - L.bottom + 0.5);
  ctx.moveTo(L.left - 0.5, L.top);
  ctx.lineTo(L.left - 0.5, height - L.bottom);
  ctx.stroke();
  ctx.fillStyle = MUTED;
  ctx.font = SMALL_FONT;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const t of L.xTicks) drawText(ctx, boxes, t.label, t.position, height - L.bottom + 5);
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const t of L.yTicks) drawText(ctx, boxes, t.label, L.left - 6, t.position);
  ctx.fillStyle = INK;
  ctx.font = FONT;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'bottom';
  drawText(ctx, boxes, spec.x.label, L.xLabelX, height - 4);
  ctx.save();
  ctx.translate(13, (L.top + height - L.bottom) / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textBaseline = 'middle';
  drawText(ctx, boxes, spec.y.label, 0, 0);
  ctx.restore();
  // legend along the top, in the rows the layout gave it
  ctx.font = SMALL_FONT;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  for (const { entry, x, y } of L.legend) {
    drawLegendSymbol(ctx, entry, x, y);
    ctx.fillStyle = INK;
    drawText(ctx, boxes, entry.label, x + 21, y);
  }
  // colour bar on the right
  if (spec.colorBar && L.colorBar) {
    const { palette, label } = spec.colorBar;
    const { x: barX, high, low, boundsX, labelX } = L.colorBar;
    const barTop = L.top,
      barHeight = height - L.top - L.bottom;
    palette.forEach((color, k) => {
      ctx.fillStyle = color;
      const y0 = barTop + barHeight * (1 - (k + 1) / palette.length);
      ctx.fillRect(barX, y0, BAR_WIDTH, barHeight / palette.length + 0.5);
    });
    ctx.fillStyle = MUTED;
    ctx.font = SMALL_FONT;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    drawText(ctx, boxes, high, boundsX, barTop + 4);
    drawText(ctx, boxes, low, boundsX, barTop + barHeight - 4);
    ctx.save();
    ctx.translate(labelX, barTop + barHeight / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = 'center';
    drawText(ctx, boxes, label, 0, 0);
    ctx.restore();
  }
  ctx.fillStyle = INK;
  ctx.restore();
  return { ...L, textBoxes: boxes.list };
}

/**
 * The plot as an exported picture: its title in a band above (wrapped to the width), then the plot.
 * The canvas must be `height` + the band's height (titleBand) tall.
 */
export function drawTitledPlot(ctx: Context, spec: PlotSpec, width: number, height: number): void {
  const band = titleBand(spec.title, width);
  ctx.save();
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, band.height);
  ctx.fillStyle = INK;
  ctx.font = TITLE_FONT;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  band.lines.forEach((line, k) => ctx.fillText(line, 8, 8 + k * 18));
  ctx.translate(0, band.height);
  drawPlot(ctx, spec, width, height);
  ctx.restore();
}

/** Draws extra marks (the selection) over a plot already drawn with the same layout, on a clear canvas. */
export function drawOverlay(ctx: Context, marks: Mark[], L: Layout): void {
  ctx.save();
  ctx.clearRect(0, 0, L.width, L.height);
  ctx.beginPath();
  ctx.rect(L.left, L.top, L.width - L.left - L.right, L.height - L.top - L.bottom);
  ctx.clip();
  for (const mark of marks) drawMark(ctx, mark, L);
  ctx.restore();
}
