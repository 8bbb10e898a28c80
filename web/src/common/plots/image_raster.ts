// An image mark's pixels: RGBA bytes, top row first (the mark's rows run from y0 upwards), for a canvas
// (ImageData) and for the SVG export (a PNG in a data: URL, encoded here with fflate's zlib: the export
// stays a single self-contained file with the picture the canvas shows).
import { zlibSync } from 'fflate';
import type { ImageMark } from './plot_model.ts';
import { parseColor } from './point_splat.ts';

/** columns × rows × 4 bytes, image order (the mark's last row first). */
export function imagePixels(mark: ImageMark): Uint8ClampedArray<ArrayBuffer> {
  const { columns, rows, colors } = mark;
  const palette = mark.palette.map(parseColor);
  const out = new Uint8ClampedArray(columns * rows * 4);
  for (let i = 0; i < rows; i++) {
    const top = rows - 1 - i;
    for (let j = 0; j < columns; j++) {
      const [r, g, b] = palette[colors[i * columns + j]];
      const k = 4 * (top * columns + j);
      out[k] = r;
      out[k + 1] = g;
      out[k + 2] = b;
      out[k + 3] = 255;
    }
  }
  return out;
}

/** Where the image goes, in data coordinates: the cells' outer edges (half a cell beyond the centres). */
export function imageExtent(mark: ImageMark): { x0: number; x1: number; y0: number; y1: number } {
  const dx = mark.columns > 1 ? (mark.x1 - mark.x0) / (mark.columns - 1) / 2 : 0.5;
  const dy = mark.rows > 1 ? (mark.y1 - mark.y0) / (mark.rows - 1) / 2 : 0.5;
  return { x0: mark.x0 - dx, x1: mark.x1 + dx, y0: mark.y0 - dy, y1: mark.y1 + dy };
}

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let k = 0; k < 4; k++) out[4 + k] = type.charCodeAt(k);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** A PNG (8-bit RGBA, no filtering) of width × height pixels given top row first. */
export function encodePng(width: number, height: number, rgba: Uint8ClampedArray): Uint8Array {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 6, 0, 0, 0], 8); // bit depth 8, colour type RGBA, deflate, no filter method choice, no interlace
  const raw = new Uint8Array(height * (1 + 4 * width));
  for (let y = 0; y < height; y++) raw.set(rgba.subarray(y * 4 * width, (y + 1) * 4 * width), y * (1 + 4 * width) + 1);
  const parts = [
    Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlibSync(raw)),
    chunk('IEND', new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function base64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += BASE64[(n >> 18) & 63] + BASE64[(n >> 12) & 63];
    out += i + 1 < bytes.length ? BASE64[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.length ? BASE64[n & 63] : '=';
  }
  return out;
}
