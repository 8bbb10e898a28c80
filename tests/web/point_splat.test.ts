// Points splatted into pixels (plots of more than a few thousand points): each point is an anti-aliased
// disk blended "source over" in drawing order, as a canvas would; pinned on pictures whose pixels are known.
import { describe, expect, it } from 'vitest';
import { splatPoints } from '../../web/src/common/plots/point_splat.ts';

function image(width: number, height: number): ImageData {
  return { data: new Uint8ClampedArray(4 * width * height), width, height, colorSpace: 'srgb' } as ImageData;
}
const pixel = (img: ImageData, x: number, y: number) =>
  Array.from(img.data.subarray(4 * (y * img.width + x), 4 * (y * img.width + x) + 4));
const palette: [number, number, number][] = [
  [200, 0, 0],
  [0, 0, 100],
];

describe('splatted points', () => {
  it('covers a disk of the radius, opaque at its centre and blended towards its rim', () => {
    const img = image(9, 9);
    splatPoints(img, { px: Float32Array.of(4), py: Float32Array.of(4), palette, radius: 1.6, opacity: 1 });
    expect(pixel(img, 4, 4)).toEqual([200, 0, 0, 255]);
    expect(pixel(img, 5, 4)).toEqual([200, 0, 0, 255]); // 1 px away: fully inside
    expect(pixel(img, 5, 5)[3]).toBe(Math.round(255 * (2.1 - Math.SQRT2))); // partly covered
    expect(pixel(img, 6, 6)).toEqual([0, 0, 0, 0]); // 2.83 px away: outside
    expect(pixel(img, 6, 4)[3]).toBe(Math.round(255 * 0.1)); // 2 px away: a tenth covered
  });

  it('blends in drawing order: later points over earlier ones, alpha accumulating', () => {
    const img = image(5, 5);
    // Same place: red at half opacity twice, then blue at half opacity.
    splatPoints(img, {
      px: Float32Array.of(2, 2, 2),
      py: Float32Array.of(2, 2, 2),
      colors: Uint8Array.of(0, 0, 1),
      palette,
      radius: 0.5,
      opacity: 0.5,
    });
    // alpha 1 - 0.5^3 = 0.875; premultiplied red 200 * 0.75 * 0.5, blue 100 * 0.5, divided by alpha.
    expect(pixel(img, 2, 2)).toEqual([
      Math.round((200 * 0.375) / 0.875),
      0,
      Math.round(50 / 0.875),
      Math.round(255 * 0.875),
    ]);
  });

  it('compounds the opacity of many points on one pixel as drawing them one by one would', () => {
    const img = image(9, 9);
    splatPoints(img, {
      px: new Float32Array(10).fill(4.2),
      py: new Float32Array(10).fill(3.8),
      palette,
      radius: 1.6,
      opacity: 0.3,
    });
    const edge = 0.3 * (2.1 - Math.SQRT2);
    expect(pixel(img, 4, 4)).toEqual([200, 0, 0, Math.round(255 * (1 - 0.7 ** 10))]);
    expect(pixel(img, 5, 5)).toEqual([200, 0, 0, Math.round(255 * (1 - (1 - edge) ** 10))]);
  });

  it('clips disks at the image edge and skips points without a place', () => {
    const img = image(4, 3);
    splatPoints(img, {
      px: Float32Array.of(0, NaN, 3.4),
      py: Float32Array.of(0, 1, 2.4),
      palette,
      radius: 1,
      opacity: 1,
    });
    expect(pixel(img, 0, 0)).toEqual([200, 0, 0, 255]);
    expect(pixel(img, 3, 2)).toEqual([200, 0, 0, 255]);
    expect(pixel(img, 2, 0)[3]).toBe(0);
  });
});
