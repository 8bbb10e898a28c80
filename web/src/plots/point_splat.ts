// Many points drawn as pixels: each point is an anti-aliased disk blended ("source over") into a
// premultiplied float buffer, then the buffer is put on the canvas in one call. For tens of thousands of
// points this is far cheaper than rasterising one arc per point; the picture is the same.

/** [r, g, b] of "#rrggbb" or "rgb(r, g, b)". */
export function parseColor(color: string): [number, number, number] {
  if (color.startsWith('#') && color.length === 7) {
    return [parseInt(color.slice(1, 3), 16), parseInt(color.slice(3, 5), 16), parseInt(color.slice(5, 7), 16)];
  }
  const m = /rgba?\(\s*(\d+)[,\s]+(\d+)[,\s]+(\d+)/.exec(color);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
}

export interface SplatInput {
  /** Pixel positions in the buffer (device pixels). */
  px: Float32Array;
  py: Float32Array;
  /** Palette index per point. */
  colors?: Uint8Array;
  palette: [number, number, number][];
  /** Radius in device pixels. */
  radius: number;
  opacity: number;
}

/**
 * Blends every point into `image` (which must start transparent, as a new ImageData does). Colours are
 * accumulated premultiplied in floats, so "source over" costs four multiply-adds per covered pixel and
 * no division; one pass at the end turns them into RGBA bytes. No allocation per point.
 */
export function splatPoints(image: ImageData, input: SplatInput): void {
  const { data, width, height } = image;
  const r = input.radius;
  const reach = Math.ceil(r + 0.5);
  // Coverage of the pixels around a point at a pixel centre (sub-pixel offsets are rounded away), as
  // offsets (dx, dy), their step in the buffer, and the alpha they get.
  const dx: number[] = [], dy: number[] = [], alpha: number[] = [];
  for (let y = -reach; y <= reach; y++) {
    for (let x = -reach; x <= reach; x++) {
      const coverage = Math.min(1, Math.max(0, r + 0.5 - Math.hypot(x, y)));
      if (coverage > 0) {
        dx.push(x);
        dy.push(y);
        alpha.push(input.opacity * coverage);
      }
    }
  }
  const m = alpha.length;
  const ox = Int32Array.from(dx), oy = Int32Array.from(dy), oa = Float32Array.from(alpha);
  const step = Int32Array.from(dx, (x, k) => 4 * (dy[k] * width + x));
  const palette = input.palette, colors = input.colors;
  const sum = new Float32Array(4 * width * height);
  for (let i = 0; i < input.px.length; i++) {
    const cx = Math.round(input.px[i]), cy = Math.round(input.py[i]);
    if (!(cx > -reach && cy > -reach && cx < width + reach && cy < height + reach)) continue;
    const c = palette[colors ? colors[i] : 0];
    const sr = c[0], sg = c[1], sb = c[2];
    const centre = 4 * (cy * width + cx);
    const inside = cx >= reach && cy >= reach && cx < width - reach && cy < height - reach;
    for (let o = 0; o < m; o++) {
      if (!inside) {
        const x = cx + ox[o], y = cy + oy[o];
        if (x < 0 || y < 0 || x >= width || y >= height) continue;
      }
      const k = centre + step[o], a = oa[o], keep = 1 - a;
      sum[k] = sr * a + sum[k] * keep;
      sum[k + 1] = sg * a + sum[k + 1] * keep;
      sum[k + 2] = sb * a + sum[k + 2] * keep;
      sum[k + 3] = a + sum[k + 3] * keep;
    }
  }
  for (let k = 0; k < sum.length; k += 4) {
    const a = sum[k + 3];
    if (a === 0) continue;
    data[k] = sum[k] / a;
    data[k + 1] = sum[k + 1] / a;
    data[k + 2] = sum[k + 2] / a;
    data[k + 3] = 255 * a;
  }
}
