// Many points drawn as pixels: each point is an anti-aliased disk blended ("source over") straight
// into an RGBA buffer, then the buffer is put on the canvas in one call. For tens of thousands of
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

export function splatPoints(image: ImageData, input: SplatInput): void {
  const { data, width, height } = image;
  const r = input.radius;
  const reach = Math.ceil(r + 0.5);
  // Coverage of the pixels around a point at a pixel centre (sub-pixel offsets are rounded away).
  const offsets: { dx: number; dy: number; coverage: number }[] = [];
  for (let dy = -reach; dy <= reach; dy++) {
    for (let dx = -reach; dx <= reach; dx++) {
      const coverage = Math.min(1, Math.max(0, r + 0.5 - Math.hypot(dx, dy)));
      if (coverage > 0) offsets.push({ dx, dy, coverage });
    }
  }
  for (let i = 0; i < input.px.length; i++) {
    const cx = Math.round(input.px[i]), cy = Math.round(input.py[i]);
    if (!(cx > -reach && cy > -reach && cx < width + reach && cy < height + reach)) continue;
    const [sr, sg, sb] = input.palette[input.colors ? input.colors[i] : 0];
    for (const o of offsets) {
      const x = cx + o.dx, y = cy + o.dy;
      if (x < 0 || y < 0 || x >= width || y >= height) continue;
      const k = 4 * (y * width + x);
      const a = input.opacity * o.coverage;
      const da = data[k + 3] / 255;
      const outA = a + da * (1 - a);
      const keep = (da * (1 - a)) / outA;
      data[k] = sr * (a / outA) + data[k] * keep;
      data[k + 1] = sg * (a / outA) + data[k + 1] * keep;
      data[k + 2] = sb * (a / outA) + data[k + 2] * keep;
      data[k + 3] = 255 * outA;
    }
  }
}
