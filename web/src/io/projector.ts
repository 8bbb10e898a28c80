// The TensorFlow Embedding Projector's sharing format, read as the Projector reads it:
//
//   projector_config.json  { "embeddings": [ { "tensorName": "...", "tensorShape": [N, d],
//                              "tensorPath": "tensors.bytes",           // float32 little-endian, row-major
//                              "metadataPath": "metadata.tsv",          // optional
//                              "sprite": { "imagePath": "sprite.png", "singleImageDim": [w, h] } } ] }
//
// Paths are resolved against the config's URL (absolute URLs stay as they are). A tensorPath that is
// not ".bytes" is read by its extension (the Projector also accepts TSV). metadata.tsv follows the
// Projector's rule: one column has no header, several have one (load_files.ts, projectorMetadata). The
// sprite sheet holds image i at column i mod ⌈√N⌉, row ⌊i / ⌈√N⌉⌋, each w × h pixels.
import { fromArrays } from './arrays.ts';
import { FileError, type ParsedFile } from './table.ts';

export interface ProjectorSprite {
  imageUrl: string;
  /** Width and height of one thumbnail in the sheet, in pixels. */
  singleImageDim: [number, number];
}

/** One embedding of a config, its paths resolved to URLs. */
export interface ProjectorEmbedding {
  tensorName: string;
  /** [rows, cols] as the config states them. */
  tensorShape: [number, number];
  tensorUrl: string;
  metadataUrl?: string;
  sprite?: ProjectorSprite;
}

function pair(value: unknown, what: string, configName: string): [number, number] {
  if (!Array.isArray(value) || value.length !== 2 || !value.every((v) => Number.isInteger(v) && v > 0)) {
    throw new FileError(configName, `${what} must be two positive integers, got ${JSON.stringify(value)}`);
  }
  return [value[0], value[1]];
}

function resolve(path: unknown, base: string, what: string, configName: string): string {
  if (typeof path !== 'string' || path === '') throw new FileError(configName, `${what} must be a path or URL`);
  try {
    return new URL(path, base).href;
  } catch {
    throw new FileError(configName, `${what} '${path}' is not a valid path or URL`);
  }
}

/** The embeddings a projector_config.json offers. */
export function parseProjectorConfig(text: string, configUrl: string, configName: string): ProjectorEmbedding[] {
  let json: { embeddings?: unknown };
  try {
    json = JSON.parse(text) as { embeddings?: unknown };
  } catch {
    throw new FileError(configName, 'is not JSON');
  }
  if (!json || !Array.isArray(json.embeddings) || json.embeddings.length === 0) {
    throw new FileError(configName, 'is not an Embedding Projector config (expected a non-empty "embeddings" list)');
  }
  return json.embeddings.map((raw: Record<string, unknown>, k) => {
    const where = `embeddings[${k}]`;
    if (!raw || typeof raw !== 'object') throw new FileError(configName, `${where} is not an object`);
    const embedding: ProjectorEmbedding = {
      tensorName: typeof raw.tensorName === 'string' && raw.tensorName ? raw.tensorName : `embedding ${k + 1}`,
      tensorShape: pair(raw.tensorShape, `${where}.tensorShape`, configName),
      tensorUrl: resolve(raw.tensorPath, configUrl, `${where}.tensorPath`, configName),
    };
    if (raw.metadataPath !== undefined && raw.metadataPath !== '') {
      embedding.metadataUrl = resolve(raw.metadataPath, configUrl, `${where}.metadataPath`, configName);
    }
    const sprite = raw.sprite as Record<string, unknown> | undefined;
    if (sprite && typeof sprite === 'object') {
      embedding.sprite = {
        imageUrl: resolve(sprite.imagePath, configUrl, `${where}.sprite.imagePath`, configName),
        singleImageDim: pair(sprite.singleImageDim, `${where}.sprite.singleImageDim`, configName),
      };
    }
    return embedding;
  });
}

/** A ".bytes" tensor: rows × cols float32 values, little-endian, row-major, nothing else. */
export function parseTensorBytes(bytes: Uint8Array, [rows, cols]: [number, number], fileName: string): ParsedFile {
  const expected = rows * cols * 4;
  if (bytes.length !== expected) {
    throw new FileError(
      fileName,
      `holds ${bytes.length.toLocaleString('en-US')} bytes; the config's tensorShape [${rows}, ${cols}] needs ${expected.toLocaleString('en-US')} (float32)`,
    );
  }
  const data = new Float32Array(rows * cols);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let k = 0; k < data.length; k++) data[k] = view.getFloat32(4 * k, true);
  return fromArrays(fileName, [{ name: fileName.replace(/\.bytes$/i, ''), shape: [rows, cols], data }]);
}

/** A sprite sheet as loaded: the image and how thumbnails sit in it. */
export interface SpriteSheet {
  image: Blob;
  /** The sheet's size in pixels. */
  width: number;
  height: number;
  singleImageDim: [number, number];
  /** Thumbnails per row. */
  columns: number;
}

/**
 * The sprite sheet `image` for `rows` thumbnails of `dim` pixels, or null with a note (appended to
 * `notes`) when it cannot hold them or is not an image this browser decodes.
 */
export async function spriteSheet(
  image: Blob,
  fileName: string,
  rows: number,
  dim: [number, number],
  notes: string[],
): Promise<SpriteSheet | null> {
  try {
    const bitmap = await createImageBitmap(image);
    const { width, height } = bitmap;
    bitmap.close();
    const problem = spriteProblem(width, height, rows, dim);
    if (!problem) return { image, width, height, singleImageDim: dim, columns: spriteColumns(rows) };
    notes.push(`${fileName}: ${problem}; thumbnails are not shown`);
  } catch {
    notes.push(`${fileName}: not an image this browser can decode; thumbnails are not shown`);
  }
  return null;
}

/** Thumbnails per row of a sprite sheet of `count` images (the Projector's rule). */
export function spriteColumns(count: number): number {
  return Math.ceil(Math.sqrt(count));
}

/** Why a sheet of `width` × `height` pixels cannot hold `count` thumbnails of `dim`, or null when it can. */
export function spriteProblem(width: number, height: number, count: number, [w, h]: [number, number]): string | null {
  const perRow = spriteColumns(count),
    rowsNeeded = Math.ceil(count / perRow);
  if (width >= perRow * w && height >= rowsNeeded * h) return null;
  return `is ${width} × ${height} pixels; ${count.toLocaleString('en-US')} thumbnails of ${w} × ${h} in rows of ${perRow} need ${perRow * w} × ${rowsNeeded * h}`;
}
