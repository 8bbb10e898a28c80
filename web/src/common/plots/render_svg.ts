// Writes a PlotSpec as a standalone SVG document (the vector export), with the same layout as the canvas.
import { BAR_WIDTH, GRID, INK, layout, MUTED, titleBand, type Layout } from './layout.ts';
import { base64, encodePng, imageExtent, imagePixels } from './image_raster.ts';
import type { LegendEntry, Mark, PlotSpec, SymbolShape } from './plot_model.ts';

const FONT_FAMILY = 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif';

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const n = (v: number): string => (Math.round(v * 100) / 100).toString();

function symbolPath(shape: SymbolShape, x: number, y: number, s: number): string {
  if (shape === 'ring') return `M${n(x - s)},${n(y)}a${s},${s} 0 1,0 ${2 * s},0a${s},${s} 0 1,0 ${-2 * s},0Z`;
  if (shape === 'diamond') return `M${n(x)},${n(y - s)}L${n(x + s)},${n(y)}L${n(x)},${n(y + s)}L${n(x - s)},${n(y)}Z`;
  return `M${n(x - s)},${n(y - s)}h${2 * s}v${2 * s}h${-2 * s}Z`;
}

function markSvg(mark: Mark, L: Layout): string {
  switch (mark.type) {
    case 'points': {
      const r = mark.radius;
      const paths = mark.palette.map(() => [] as string[]);
      const count = mark.subset ? mark.subset.length : mark.x.length;
      for (let k = 0; k < count; k++) {
        const i = mark.subset ? mark.subset[k] : k;
        const px = L.x(mark.x[i]),
          py = L.y(mark.y[i]);
        if (!Number.isFinite(px) || !Number.isFinite(py)) continue;
        paths[mark.colors ? mark.colors[i] : 0].push(
          `M${n(px - r)},${n(py)}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0`,
        );
      }
      return paths
        .map((d, c) =>
          d.length ? `<path fill="${mark.palette[c]}" fill-opacity="${mark.opacity ?? 1}" d="${d.join('')}"/>` : '',
        )
        .join('');
    }
    case 'line': {
      const d = Array.from(
        { length: mark.x.length },
        (_, i) => `${i ? 'L' : 'M'}${n(L.x(mark.x[i]))},${n(L.y(mark.y[i]))}`,
      ).join('');
      return `<path d="${d}" fill="none" stroke="${mark.color}" stroke-width="${mark.width ?? 1.5}"${mark.dash ? ` stroke-dasharray="${mark.dash.join(' ')}"` : ''}/>`;
    }
    case 'area': {
      const top = Array.from(
        { length: mark.x.length },
        (_, i) => `${i ? 'L' : 'M'}${n(L.x(mark.x[i]))},${n(L.y(mark.y1[i]))}`,
      ).join('');
      const back = mark.y0
        ? Array.from({ length: mark.x.length }, (_, k) => {
            const i = mark.x.length - 1 - k;
            return `L${n(L.x(mark.x[i]))},${n(L.y(mark.y0![i]))}`;
          }).join('')
        : '';
      return `<path d="${top}${back}Z" fill="${mark.fill}" fill-opacity="${mark.opacity ?? 1}"/>`;
    }
    case 'bars': {
      let out = '';
      for (let i = 0; i < mark.y.length; i++) {
        const x0 = L.x(mark.x0[i]),
          x1 = L.x(mark.x1[i]),
          y = L.y(mark.y[i]),
          base = L.y(0);
        out += `<rect x="${n(x0)}" y="${n(Math.min(y, base))}" width="${n(Math.max(0.5, x1 - x0 - 0.5))}" height="${n(Math.abs(base - y))}"/>`;
      }
      return `<g fill="${mark.fill}" fill-opacity="${mark.opacity ?? 1}">${out}</g>`;
    }
    case 'symbols': {
      const d = Array.from({ length: mark.x.length }, (_, i) =>
        symbolPath(mark.shape, L.x(mark.x[i]), L.y(mark.y[i]), mark.size),
      ).join('');
      return `<path d="${d}" fill="${mark.fill ?? 'none'}" stroke="${mark.color}" stroke-width="1.6"/>`;
    }
    case 'rule': {
      const dash = mark.dash ? ` stroke-dasharray="${mark.dash.join(' ')}"` : '';
      if (mark.x !== undefined)
        return `<line x1="${n(L.x(mark.x))}" x2="${n(L.x(mark.x))}" y1="${L.top}" y2="${L.height - L.bottom}" stroke="${mark.color}"${dash}/>`;
      if (mark.y !== undefined)
        return `<line x1="${L.left}" x2="${L.width - L.right}" y1="${n(L.y(mark.y))}" y2="${n(L.y(mark.y))}" stroke="${mark.color}"${dash}/>`;
      return '';
    }
    case 'segments': {
      let d = '';
      for (let k = 0; k + 1 < mark.x.length; k += 2) {
        d += `M${n(L.x(mark.x[k]))},${n(L.y(mark.y[k]))}L${n(L.x(mark.x[k + 1]))},${n(L.y(mark.y[k + 1]))}`;
      }
      return `<path d="${d}" fill="none" stroke="${mark.color}" stroke-width="${mark.width ?? 1.5}"${mark.dash ? ` stroke-dasharray="${mark.dash.join(' ')}"` : ''}/>`;
    }
    case 'image': {
      const e = imageExtent(mark);
      const png = base64(encodePng(mark.columns, mark.rows, imagePixels(mark)));
      return (
        `<image x="${n(L.x(e.x0))}" y="${n(L.y(e.y1))}" width="${n(L.x(e.x1) - L.x(e.x0))}" height="${n(L.y(e.y0) - L.y(e.y1))}" ` +
        `preserveAspectRatio="none" href="data:image/png;base64,${png}"/>`
      );
    }
    case 'text':
      return ''; // drawn outside the plot area's clip (textMarkSvg), as on the canvas
  }
}

function textMarkSvg(mark: Mark & { type: 'text' }, L: Layout): string {
  const anchor = mark.align ?? 'start';
  const halo = mark.halo ? ` stroke="${mark.halo}" stroke-width="3" stroke-linejoin="round" paint-order="stroke"` : '';
  return `<text x="${n(L.x(mark.x))}" y="${n(L.y(mark.y))}" fill="${mark.color}"${halo} font-size="11" text-anchor="${anchor}" dominant-baseline="middle">${esc(mark.text)}</text>`;
}

/** A legend entry's symbol at (x, y), as render_canvas.ts draws it. */
function legendSymbol(e: LegendEntry, x: number, y: number): string {
  if (e.kind === 'line' || e.kind === 'dash') {
    return `<line x1="${n(x)}" x2="${n(x + 16)}" y1="${y}" y2="${y}" stroke="${e.color}" stroke-width="2"${e.kind === 'dash' ? ' stroke-dasharray="4 3"' : ''}/>`;
  }
  if (e.kind === 'area')
    return `<rect x="${n(x)}" y="${y - 6}" width="16" height="12" fill="${e.color}" fill-opacity="0.35"/>`;
  if (e.kind === 'point') return `<circle cx="${n(x + 8)}" cy="${y}" r="4" fill="${e.color}"/>`;
  return `<path d="${symbolPath(e.kind, x + 8, y, e.kind === 'square' ? 4.5 : 5)}" fill="${e.fill ?? 'none'}" stroke="${e.color}" stroke-width="1.6"/>`;
}

/** The plot as a standalone SVG document, with its title above it (as the PNG export has it). */
export function plotToSvg(spec: PlotSpec, width: number, height: number): string {
  const L = layout(spec, width, height);
  const band = titleBand(spec.title, width);
  const total = height + band.height;
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${total}" viewBox="0 0 ${width} ${total}" font-family="${FONT_FAMILY}">`,
  );
  parts.push(`<title>${esc(spec.title)}</title><rect width="${width}" height="${total}" fill="#ffffff"/>`);
  band.lines.forEach((line, k) =>
    parts.push(
      `<text x="8" y="${8 + k * 18}" dominant-baseline="hanging" font-size="13" font-weight="600" fill="${INK}">${esc(line)}</text>`,
    ),
  );
  parts.push(`<g transform="translate(0 ${band.height})">`);
  const grid = [
    ...L.xTicks.map((t) => `M${n(t.position)},${L.top}V${height - L.bottom}`),
    ...L.yTicks.map((t) => `M${L.left},${n(t.position)}H${width - L.right}`),
  ].join('');
  parts.push(`<path d="${grid}" stroke="${GRID}" fill="none"/>`);
  parts.push(
    `<clipPath id="plot-area"><rect x="${L.left}" y="${L.top}" width="${width - L.left - L.right}" height="${height - L.top - L.bottom}"/></clipPath>`,
  );
  parts.push(`<g clip-path="url(#plot-area)">${spec.marks.map((m) => markSvg(m, L)).join('')}</g>`);
  for (const m of spec.marks) if (m.type === 'text') parts.push(textMarkSvg(m, L));
  parts.push(
    `<path d="M${L.left},${height - L.bottom}H${width - L.right}M${L.left},${L.top}V${height - L.bottom}" stroke="${MUTED}" fill="none"/>`,
  );
  parts.push(`<g fill="${MUTED}" font-size="11">`);
  for (const t of L.xTicks)
    parts.push(`<text x="${n(t.position)}" y="${height - L.bottom + 15}" text-anchor="middle">${esc(t.label)}</text>`);
  for (const t of L.yTicks)
    parts.push(
      `<text x="${L.left - 6}" y="${n(t.position)}" text-anchor="end" dominant-baseline="middle">${esc(t.label)}</text>`,
    );
  parts.push('</g>');
  parts.push(
    `<text x="${n(L.xLabelX)}" y="${height - 6}" text-anchor="middle" font-size="12" fill="${INK}">${esc(spec.x.label)}</text>`,
  );
  parts.push(
    `<text transform="translate(13 ${(L.top + height - L.bottom) / 2}) rotate(-90)" text-anchor="middle" dominant-baseline="middle" font-size="12" fill="${INK}">${esc(spec.y.label)}</text>`,
  );
  for (const { entry, x, y } of L.legend) {
    parts.push(
      `${legendSymbol(entry, x, y)}<text x="${n(x + 21)}" y="${y}" dominant-baseline="middle" font-size="11" fill="${INK}">${esc(entry.label)}</text>`,
    );
  }
  if (spec.colorBar && L.colorBar) {
    const { palette, label } = spec.colorBar;
    const { x: barX, high, low, boundsX, labelX } = L.colorBar;
    const barHeight = height - L.top - L.bottom;
    palette.forEach((color, k) => {
      parts.push(
        `<rect x="${n(barX)}" y="${n(L.top + barHeight * (1 - (k + 1) / palette.length))}" width="${BAR_WIDTH}" height="${n(barHeight / palette.length + 0.5)}" fill="${color}"/>`,
      );
    });
    parts.push(
      `<g fill="${MUTED}" font-size="11"><text x="${n(boundsX)}" y="${L.top + 4}" dominant-baseline="middle">${esc(high)}</text>`,
    );
    parts.push(`<text x="${n(boundsX)}" y="${L.top + barHeight - 4}" dominant-baseline="middle">${esc(low)}</text>`);
    parts.push(
      `<text transform="translate(${n(labelX)} ${L.top + barHeight / 2}) rotate(-90)" text-anchor="middle" dominant-baseline="middle">${esc(label)}</text></g>`,
    );
  }
  parts.push('</g>');
  parts.push('</svg>');
  return parts.join('');
}
