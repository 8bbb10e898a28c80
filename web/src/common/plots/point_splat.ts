// Many points drawn as pixels: each point is an anti-aliased disk blended ("source over") into a
// premultiplied float buffer (points on the same pixel merged first), then the buffer is put on the
// canvas in one call. For tens of thousands of points this is far cheaper than rasterising one arc per
// point; the picture is the same but where points share a pixel (their merged disk is drawn where the
// first of them came).

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
 * Blends every point into `image` (which must start transparent, as a new ImageData does). Points that
 * fall on the same pixel are merged first — their colours blended in drawing order, their opacity
 * compounded (k points of opacity a cover 1 - (1 - a)^k) — so the disks drawn are those of the occupied
 * pixels, in the order of their first point: dense plots cost what their pixels cost, not their points.
 * Colours are accumulated premultiplied in floats (source over: four multiply-adds per covered pixel,
 * no division) and turned into RGBA bytes in one pass at the end. No allocation per point.
 */
export function splatPoints(image: ImageData, input: SplatInput): void {
  const { data, width, height } = image;
  const r = input.radius,
    a = input.opacity;
  if (!(a > 0)) return;
  const reach = Math.ceil(r + 0.5);
  // Coverage of the pixels around a point at a pixel centre (sub-pixel offsets are rounded away), as
  // offsets (dx, dy), their step in the buffer, and log(1 - alpha) (alpha compounds over merged points).
  const dx: number[] = [],
    dy: number[] = [],
    alpha: number[] = [];
  for (let y = -reach; y <= reach; y++) {
    for (let x = -reach; x <= reach; x++) {
      const coverage = Math.min(1, Math.max(0, r + 0.5 - Math.hypot(x, y)));
      if (coverage > 0) {
        dx.push(x);
        dy.push(y);
        alpha.push(a * coverage);
      }
    }
  }
  const m = alpha.length;
  const ox = Int32Array.from(dx),
    oy = Int32Array.from(dy);
  // alphaOf[k * m + o]: the alpha of k merged points at offset o, 1 - (1 - alpha_o)^k, for small k.
  const logKeep = Float64Array.from(alpha, (v) => Math.log1p(-v));
  const tabled = 64;
  const alphaOf = new Float64Array(tabled * alpha.length);
  for (let k = 1; k < tabled; k++)
    for (let o = 0; o < alpha.length; o++) alphaOf[k * alpha.length + o] = -Math.expm1(k * logKeep[o]);
  const step = Int32Array.from(dx, (x, k) => 4 * (dy[k] * width + x));
  const palette = input.palette,
    colors = input.colors;
  // Merge the points per centre pixel, on a grid wider than the image by `reach` (a disk centred just
  // outside still reaches in): count, premultiplied colour (source over at opacity a), first-come order.
  const gridWidth = width + 2 * reach,
    gridHeight = height + 2 * reach;
  const count = new Uint32Array(gridWidth * gridHeight);
  const merged = new Float32Array(3 * gridWidth * gridHeight);
  const order = new Int32Array(input.px.length);
  let occupied = 0;
  for (let i = 0; i < input.px.length; i++) {
    const gx = Math.round(input.px[i]) + reach,
      gy = Math.round(input.py[i]) + reach;
    if (!(gx > 0 && gy > 0 && gx < gridWidth && gy < gridHeight)) continue; // no pixel in reach (or NaN)
    const g = gy * gridWidth + gx;
    if (count[g]++ === 0) order[occupied++] = g;
    const c = palette[colors ? colors[i] : 0];
    merged[3 * g] = c[0] * a + merged[3 * g] * (1 - a);
    merged[3 * g + 1] = c[1] * a + merged[3 * g + 1] * (1 - a);
    merged[3 * g + 2] = c[2] * a + merged[3 * g + 2] * (1 - a);
  }
  const sum = new Float32Array(4 * width * height);
  for (let j = 0; j < occupied; j++) {
    const g = order[j],
      k = count[g];
    const cx = (g % gridWidth) - reach,
      cy = Math.floor(g / gridWidth) - reach;
    // The merged colour without its premultiplication: 1 - (1 - a)^k is its alpha at full coverage.
    const norm = 1 / (k === 1 ? a : -Math.expm1(k * Math.log1p(-a)));
    const sr = merged[3 * g] * norm,
      sg = merged[3 * g + 1] * norm,
      sb = merged[3 * g + 2] * norm;
    const centre = 4 * (cy * width + cx);
    const inside = cx >= reach && cy >= reach && cx < width - reach && cy < height - reach;
    for (let o = 0; o < m; o++) {
      if (!inside) {
        const x = cx + ox[o],
          y = cy + oy[o];
        if (x < 0 || y < 0 || x >= width || y >= height) continue;
      }
      const t = centre + step[o],
        v = k < tabled ? alphaOf[k * m + o] : -Math.expm1(k * logKeep[o]),
        keep = 1 - v;
      sum[t] = sr * v + sum[t] * keep;
      sum[t + 1] = sg * v + sum[t + 1] * keep;
      sum[t + 2] = sb * v + sum[t + 2] * keep;
      sum[t + 3] = v + sum[t + 3] * keep;
    }
  }
  for (let t = 0; t < sum.length; t += 4) {
    const v = sum[t + 3];
    if (v === 0) continue;
    data[t] = sum[t] / v;
    data[t + 1] = sum[t + 1] / v;
    data[t + 2] = sum[t + 2] / v;
    data[t + 3] = 255 * v;
  }
}
