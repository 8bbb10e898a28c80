// A plot on a canvas that fits its container: hover shows a tooltip for the nearest point of the
// interactive mark, click selects it, and the card exports the same plot as PNG or SVG.
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { titleBand, type Layout } from '../plots/layout.ts';
import type { Mark, PlotSpec, PointsMark } from '../plots/plot_model.ts';
import { drawOverlay, drawPlot, drawTitledPlot } from '../plots/render_canvas.ts';
import { plotToSvg } from '../plots/render_svg.ts';
import { isArrowKey, keyboardStep } from '../plots/keyboard_step.ts';
import { saveBlob, slug } from './download.ts';
import { useElementSize } from './element_size.ts';

interface Props {
  spec: PlotSpec | null;
  /** Marks drawn over the plot on their own canvas (the selection): changing them never redraws the plot. */
  overlay?: Mark[];
  height: number;
  /** Text lines for the tooltip of point i of the interactive mark. */
  tooltip?: (index: number) => string[];
  /** A picture of point i for its tooltip (a sprite sheet's thumbnail). */
  thumbnail?: (index: number) => preact.ComponentChildren;
  /** Text lines for the tooltip at a place (x, y in data coordinates) with no point under the cursor
   * (a map's values), or null for none. */
  hoverAt?: (x: number, y: number) => string[] | null;
  onPick?: (index: number | null, event: MouseEvent) => void;
  /** A click inside the plot area with no point under it, at (x, y) in data coordinates. */
  onPickAt?: (x: number, y: number) => void;
  empty?: string;
  /** Extra controls in the card header. */
  controls?: preact.ComponentChildren;
  /** One line under the plot saying how to read it. */
  caption?: string;
  /** The selection by keyboard: the canvas takes focus, the arrow keys move the selection to the nearest
   * point of the interactive mark that way (keyboard_step.ts), Enter activates the selected point. */
  keyboard?: { selected: number | null; onSelect(index: number): void; onActivate?(index: number): void; help: string };
  testId?: string;
}

/**
 * Points of the interactive mark bucketed by 8-pixel cells of the canvas, for nearest-point lookups:
 * typed arrays only (a counting sort into cells), built when the pointer first moves over a plot.
 */
class PointIndex {
  readonly #px: Float32Array;
  readonly #py: Float32Array;
  readonly #columns: number;
  readonly #rows: number;
  /** Points of cell c: #items[#starts[c] .. #starts[c + 1]). */
  readonly #starts: Int32Array;
  readonly #items: Int32Array;
  constructor(mark: PointsMark, L: Layout) {
    const n = mark.x.length;
    const count = mark.subset ? mark.subset.length : n;
    this.#px = new Float32Array(n);
    this.#py = new Float32Array(n);
    this.#columns = Math.ceil(L.width / 8) + 1;
    this.#rows = Math.ceil(L.height / 8) + 1;
    const cells = this.#columns * this.#rows;
    const cellOf = new Int32Array(count).fill(-1);
    const starts = new Int32Array(cells + 1);
    const { offset: ax, slope: bx } = L.xLinear,
      { offset: ay, slope: by } = L.yLinear;
    for (let k = 0; k < count; k++) {
      const i = mark.subset ? mark.subset[k] : k;
      const px = ax + bx * mark.x[i],
        py = ay + by * mark.y[i];
      this.#px[i] = px;
      this.#py[i] = py;
      const cx = Math.floor(px / 8),
        cy = Math.floor(py / 8);
      if (!(cx >= 0 && cy >= 0 && cx < this.#columns && cy < this.#rows)) continue; // off the canvas (or NaN)
      cellOf[k] = cy * this.#columns + cx;
      starts[cellOf[k] + 1]++;
    }
    for (let c = 0; c < cells; c++) starts[c + 1] += starts[c];
    const next = starts.slice(0, cells);
    this.#items = new Int32Array(starts[cells]);
    for (let k = 0; k < count; k++) {
      if (cellOf[k] >= 0) this.#items[next[cellOf[k]]++] = mark.subset ? mark.subset[k] : k;
    }
    this.#starts = starts;
  }
  nearest(x: number, y: number, radius = 7): number | null {
    let best: number | null = null,
      bestDistance = radius * radius;
    const cx = Math.floor(x / 8),
      cy = Math.floor(y / 8);
    for (let ny = Math.max(0, cy - 1); ny <= Math.min(this.#rows - 1, cy + 1); ny++) {
      for (let nx = Math.max(0, cx - 1); nx <= Math.min(this.#columns - 1, cx + 1); nx++) {
        const c = ny * this.#columns + nx;
        for (let k = this.#starts[c]; k < this.#starts[c + 1]; k++) {
          const i = this.#items[k];
          const d = (this.#px[i] - x) ** 2 + (this.#py[i] - y) ** 2;
          if (d <= bestDistance) [best, bestDistance] = [i, d];
        }
      }
    }
    return best;
  }
}

/** The canvas sized to width x height CSS pixels at the device's pixel ratio, its context scaled to match. */
function sizedContext(c: HTMLCanvasElement, width: number, height: number): CanvasRenderingContext2D {
  const ratio = window.devicePixelRatio || 1;
  if (c.width !== Math.round(width * ratio) || c.height !== Math.round(height * ratio)) {
    c.width = Math.round(width * ratio);
    c.height = Math.round(height * ratio);
    c.style.width = `${width}px`;
    c.style.height = `${height}px`;
  }
  const ctx = c.getContext('2d')!;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  return ctx;
}

export function PlotView({
  spec,
  overlay,
  height,
  tooltip,
  thumbnail,
  hoverAt,
  onPick,
  onPickAt,
  empty,
  controls,
  caption,
  testId,
  keyboard,
}: Props) {
  const [box, { width }] = useElementSize<HTMLDivElement>();
  const canvas = useRef<HTMLCanvasElement>(null);
  const overlayCanvas = useRef<HTMLCanvasElement>(null);
  /** index: the point under the cursor, or null over a place of a map (hoverAt). */
  const [hover, setHover] = useState<{ lines: string[]; x: number; y: number; index: number | null } | null>(null);
  const [layoutState, setLayout] = useState<Layout | null>(null);

  // Drawn in the commit that brings the new spec (a layout effect), so the points show in the same frame
  // as the rest of the update (the table, the summary); a plain effect runs after that frame is painted and
  // showed them one frame later.
  useLayoutEffect(() => {
    const c = canvas.current;
    if (!c || !spec || width === 0) return;
    const drawn = drawPlot(sizedContext(c, width, height), spec, width, height);
    // The drawn texts' boxes, for checks that nothing is cut off (tests/e2e/embed.e2e.ts).
    c.dataset.textBoxes = JSON.stringify(
      drawn.textBoxes.map((b) => [b.left, b.top, b.right, b.bottom].map((v) => Math.round(v * 10) / 10)),
    );
    // How often the points were drawn (tests/e2e/toggle.e2e.ts: once per toggled observation).
    c.dataset.draws = String(Number(c.dataset.draws ?? 0) + 1);
    setLayout(drawn);
  }, [spec, width, height]);

  useLayoutEffect(() => {
    const c = overlayCanvas.current;
    if (!c || !layoutState) return;
    drawOverlay(sizedContext(c, width, height), overlay ?? [], layoutState);
  }, [overlay, layoutState]);

  const interactive = spec?.marks.find((m): m is PointsMark => m.type === 'points' && !!m.interactive);
  // Built at the first hover or click after a redraw, not at every redraw.
  const indexCache = useRef<{ mark: PointsMark; layout: Layout; index: PointIndex } | null>(null);
  const pointIndex = (): PointIndex | null => {
    if (!interactive || !layoutState) return null;
    const cached = indexCache.current;
    if (cached?.mark === interactive && cached.layout === layoutState) return cached.index;
    const index = new PointIndex(interactive, layoutState);
    indexCache.current = { mark: interactive, layout: layoutState, index };
    return index;
  };

  const at = (event: MouseEvent) => {
    const rect = canvas.current!.getBoundingClientRect();
    const x = event.clientX - rect.left,
      y = event.clientY - rect.top;
    return { x, y, index: pointIndex()?.nearest(x, y) ?? null };
  };

  // The arrow keys and Enter (keyboard): the tooltip follows the selection, as the pointer's would.
  const showAt = (index: number) => {
    const L = layoutState;
    if (!L || !interactive) return;
    const x = L.xLinear.offset + L.xLinear.slope * interactive.x[index],
      y = L.yLinear.offset + L.yLinear.slope * interactive.y[index];
    const lines = tooltip?.(index);
    setHover(lines ? { lines, x, y, index } : null);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const L = layoutState;
    if (!keyboard || !interactive || !L) return;
    if (isArrowKey(event.key)) {
      event.preventDefault();
      const next = keyboardStep(interactive, L.xLinear, L.yLinear, keyboard.selected, event.key, [
        (L.left + L.width - L.right) / 2,
        (L.top + L.height - L.bottom) / 2,
      ]);
      if (next !== null) {
        keyboard.onSelect(next);
        showAt(next);
      }
    } else if (event.key === 'Enter' && keyboard.selected !== null && keyboard.onActivate) {
      event.preventDefault();
      keyboard.onActivate(keyboard.selected);
    }
  };
  const helpId = testId ? `${testId}-keys` : undefined;

  const full = (): PlotSpec | null => (spec ? { ...spec, marks: [...spec.marks, ...(overlay ?? [])] } : null);
  const exportPng = () => {
    const spec = full();
    if (!spec) return;
    const scale = 2;
    const off = document.createElement('canvas');
    off.width = width * scale;
    off.height = (height + titleBand(spec.title, width).height) * scale;
    const ctx = off.getContext('2d')!;
    ctx.scale(scale, scale);
    drawTitledPlot(ctx, spec, width, height);
    off.toBlob((blob) => blob && saveBlob(blob, `${slug(spec.title)}.png`), 'image/png');
  };
  const exportSvg = () => {
    const spec = full();
    if (spec)
      saveBlob(new Blob([plotToSvg(spec, width, height)], { type: 'image/svg+xml' }), `${slug(spec.title)}.svg`);
  };

  return (
    <section class="card plot-card" data-testid={testId}>
      <header class="card-header">
        <h2>{spec?.title ?? ''}</h2>
        <div class="card-actions">
          {controls}
          <button
            type="button"
            class="small"
            onClick={exportPng}
            disabled={!spec}
            aria-label={`Export ${spec?.title ?? 'plot'} as PNG`}
          >
            PNG
          </button>
          <button
            type="button"
            class="small"
            onClick={exportSvg}
            disabled={!spec}
            aria-label={`Export ${spec?.title ?? 'plot'} as SVG`}
          >
            SVG
          </button>
        </div>
      </header>
      <div class="plot-box" ref={box} style={{ height: `${height}px` }}>
        {spec ? (
          <canvas
            ref={canvas}
            role="img"
            aria-label={spec.title}
            tabIndex={keyboard ? 0 : undefined}
            aria-describedby={keyboard ? helpId : undefined}
            onKeyDown={keyboard ? onKeyDown : undefined}
            onBlur={keyboard ? () => setHover(null) : undefined}
            onMouseMove={(e) => {
              const p = at(e),
                L = layoutState;
              const inside =
                L && p.x >= L.left && p.x <= L.width - L.right && p.y >= L.top && p.y <= L.height - L.bottom;
              const lines =
                p.index !== null
                  ? tooltip?.(p.index)
                  : inside && hoverAt
                    ? hoverAt(L.invertX(p.x), L.invertY(p.y))
                    : null;
              setHover(lines ? { lines, x: p.x, y: p.y, index: p.index } : null);
            }}
            onMouseLeave={() => setHover(null)}
            onClick={(e) => {
              const p = at(e),
                L = layoutState;
              onPick?.(p.index, e);
              if (
                p.index === null &&
                onPickAt &&
                L &&
                p.x >= L.left &&
                p.x <= L.width - L.right &&
                p.y >= L.top &&
                p.y <= L.height - L.bottom
              ) {
                onPickAt(L.invertX(p.x), L.invertY(p.y));
              }
            }}
            style={{ cursor: hover?.index != null ? 'pointer' : 'default' }}
          />
        ) : null}
        {spec ? (
          <canvas ref={overlayCanvas} class="overlay" aria-hidden="true" />
        ) : (
          <div class="plot-empty">{empty ?? 'Nothing to show yet.'}</div>
        )}
        {hover && (
          <div
            class="tooltip"
            style={{ left: `${Math.min(hover.x + 12, width - 220)}px`, top: `${Math.max(hover.y - 10, 0)}px` }}
          >
            {hover.index !== null && thumbnail?.(hover.index)}
            {hover.lines.map((line) => (
              <div>{line}</div>
            ))}
          </div>
        )}
      </div>
      {caption && spec && <p class="caption">{caption}</p>}
      {keyboard && spec && (
        <p class="sr-only" id={helpId}>
          {keyboard.help}
        </p>
      )}
    </section>
  );
}
