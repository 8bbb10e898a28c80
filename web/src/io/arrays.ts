// Files that hold named arrays (.npy, .npz, .safetensors) become embeddings + metadata columns:
// the 2-D array is the embeddings (preferring conventional names when there are several), and 1-D
// arrays with one value per row become numeric metadata columns.
import { checkFiniteEmbeddings, FileError, type Column, type ParsedFile } from './table.ts';

/** An IEEE 754 half-precision value (its 16 bits) as a number; npy's float16 and safetensors' F16. */
export function float16(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1,
    exponent = (bits >> 10) & 0x1f,
    fraction = bits & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 31) return fraction ? NaN : sign * Infinity;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

export interface NamedArray {
  name: string;
  shape: number[];
  data: Float32Array | Float64Array;
}

/** The refusal of an embedding matrix with no rows ("x.npz: array 'emb' has shape (0, 3): ..."). */
export function emptyEmbedding(fileName: string, what: string, shape: number[]): FileError {
  return new FileError(
    fileName,
    `${what} has shape ${shapeText(shape)}: an embedding matrix with no rows (an embedding needs at least one)`,
  );
}

const PREFERRED = ['embeddings', 'embedding', 'vectors', 'activations', 'features', 'x', 'arr_0', 'data'];

function shapeText(shape: number[]): string {
  return `(${shape.join(', ')}${shape.length === 1 ? ',' : ''})`;
}

export function fromArrays(fileName: string, arrays: NamedArray[]): ParsedFile {
  if (arrays.length === 0) throw new FileError(fileName, 'holds no arrays');
  const tooDeep = arrays.find((a) => a.shape.length > 2);
  const matrices = arrays.filter((a) => a.shape.length === 2 && a.shape[1] > 1);
  const notes: string[] = [];
  let embedding: NamedArray | undefined;
  if (matrices.length > 0) {
    embedding =
      matrices.find((a) => PREFERRED.includes(a.name.toLowerCase())) ??
      matrices.reduce((best, a) => (a.data.length > best.data.length ? a : best));
    if (matrices.length > 1) notes.push(`embeddings from '${embedding.name}' ${shapeText(embedding.shape)}`);
  } else if (tooDeep) {
    throw new FileError(fileName, `expected a 2-D array of embeddings, got shape ${shapeText(tooDeep.shape)}`);
  }
  const rows = embedding ? embedding.shape[0] : (arrays.find((a) => a.shape.length <= 2)?.shape[0] ?? 0);
  const columns: Column[] = [];
  for (const a of arrays) {
    if (a === embedding) continue;
    const isColumn = (a.shape.length === 1 || (a.shape.length === 2 && a.shape[1] === 1)) && a.shape[0] === rows;
    if (isColumn) columns.push({ name: a.name, kind: 'number', values: Float64Array.from(a.data) });
    else notes.push(`ignored '${a.name}' ${shapeText(a.shape)}: not one value per row`);
  }
  if (!embedding) {
    return { fileName, columns, rows, notes };
  }
  const m = { data: embedding.data, rows: embedding.shape[0], cols: embedding.shape[1] };
  checkFiniteEmbeddings(fileName, m);
  return { fileName, embeddings: m, columns, rows, notes };
}
