// Files that hold several embeddings of the same rows, read one array at a time and kept float32 (the
// Compare lab: labs/compare/worker/representation_files.ts). What the single-embedding readers would
// read whole is read here in parts, so K arrays of n x d float32 cost K n d 4 bytes and one array's
// bytes at a time more, never the file twice over nor a float64 copy of them all:
//   .safetensors  the 8-byte header length and the JSON header first, then each 2-D tensor's own byte
//                 range (Blob.slice): F32 tensors become Float32Arrays over their own bytes, no copy;
//   .npy          a little-endian float32 C-order 2-D array streamed from the Blob straight into its
//                 Float32Array (other dtypes: the whole-file reader);
//   Parquet       every list<number> / fixed-size-list column is one embedding; each is read alone (only
//                 its column chunks), one row group at a time with its row counts checked
//                 (parquet.ts: parquetRowGroups, readParquetGroup), into a Float32Array (float64 columns are
//                 kept float64). In the browser this runs in a parse worker (isolated_parse.ts) that is
//                 terminated after a time budget without progress, and whose death (hyparquet's unbounded
//                 runs, docs/upstream/hyparquet-hybrid-run-hang.md, end in a RangeError or an exhausted heap
//                 there) becomes a FileError naming the file: the engine worker holding the lab's data never blocks.
import type { AsyncBuffer } from 'hyparquet';
import { emptyEmbedding, type NamedArray } from './arrays.ts';
import { canIsolate, parquetMatricesIsolated } from './isolated_parse.ts';
import { npyLayout } from './npy.ts';
import { parquetRowGroups, readParquetGroup, roleOf } from './parquet.ts';
import { checkSafetensorsLayout, safetensorsArrays } from './safetensors.ts';
import { checkAborted, checkFiniteEmbeddings, FileError, formatSize, MAX_FILE_BYTES } from './table.ts';

export interface ReadArraysOptions {
  signal?: AbortSignal;
  /** Fraction of the file read, 0 to 1. */
  onProgress?: (fraction: number) => void;
}

const MAX_HEADER_BYTES = 100 * 2 ** 20;

/**
 * A float32 (little-endian, C order) 2-D .npy Blob read chunk by chunk into its Float32Array: the file's
 * bytes are never held twice. Null for any other layout (the whole-file reader takes those).
 */
export async function npyFloat32Matrix(
  blob: Blob,
  fileName: string,
  options: ReadArraysOptions = {},
): Promise<NamedArray | null> {
  const head = new Uint8Array(await blob.slice(0, 64 * 1024).arrayBuffer());
  const layout = npyLayout(head, blob.size, fileName);
  if (layout.descr !== '<f4' || layout.fortran || layout.shape.length !== 2 || layout.shape[1] < 2) return null;
  if (layout.shape[0] === 0) throw emptyEmbedding(fileName, 'the array', layout.shape);
  const data = new Float32Array(layout.count);
  const target = new Uint8Array(data.buffer);
  const reader = blob
    .slice(layout.dataStart, layout.dataStart + target.length)
    .stream()
    .getReader();
  let offset = 0;
  for (;;) {
    if (options.signal?.aborted) await reader.cancel();
    checkAborted(options.signal, fileName);
    const { done, value } = await reader.read();
    if (done) break;
    target.set(value, offset);
    offset += value.length;
    options.onProgress?.(offset / target.length);
  }
  if (offset !== target.length) throw new FileError(fileName, `truncated: ${offset} of ${target.length} bytes of data`);
  checkFiniteEmbeddings(fileName, { data, cols: layout.shape[1] });
  return { name: fileName.replace(/\.npy$/i, ''), shape: layout.shape, data };
}
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The 2-D tensors (with more than one column) of a .safetensors Blob, each read by its byte range. */
export async function safetensorsMatrices(
  blob: Blob,
  fileName: string,
  options: ReadArraysOptions = {},
): Promise<NamedArray[]> {
  if (blob.size < 8)
    throw new FileError(fileName, blob.size === 0 ? 'file is empty' : 'not a safetensors file (too short)');
  const headerLength = Number(new DataView(await blob.slice(0, 8).arrayBuffer()).getBigUint64(0, true));
  if (headerLength > blob.size - 8 || headerLength > MAX_HEADER_BYTES)
    throw new FileError(fileName, 'not a safetensors file (bad header length)');
  const headerBytes = new Uint8Array(await blob.slice(8, 8 + headerLength).arrayBuffer());
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder().decode(headerBytes));
  } catch {
    throw new FileError(fileName, 'not a safetensors file (header is not JSON)');
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) {
    throw new FileError(fileName, 'not a safetensors file (header is not a JSON object)');
  }
  const start = 8 + headerLength;
  const entries = Object.entries(header as Record<string, unknown>).filter(([name]) => name !== '__metadata__');
  // Every entry checked first, and their byte ranges against each other (checkSafetensorsLayout).
  const checked = entries.map(([name, info]) => {
    const t = info as { dtype?: unknown; shape?: unknown; data_offsets?: unknown } | null;
    // JSON's -0 read as 0, as the whole-file reader reads it.
    const shape =
      t && typeof t === 'object' && Array.isArray(t.shape) && t.shape.every(isCount)
        ? (t.shape as number[]).map((n) => n + 0)
        : null;
    const offsets =
      t &&
      typeof t === 'object' &&
      Array.isArray(t.data_offsets) &&
      t.data_offsets.length === 2 &&
      t.data_offsets.every(isCount)
        ? ((t.data_offsets as number[]).map((n) => n + 0) as [number, number])
        : null;
    if (!shape || !offsets || offsets[0] > offsets[1] || typeof t?.dtype !== 'string') {
      // The whole-file reader's messages name what is wrong with the entry.
      safetensorsArrays(tinyFile(name, info, new Uint8Array(0)), fileName);
      throw new FileError(fileName, `tensor '${name}' is not a {dtype, shape, data_offsets} entry`);
    }
    return { name, dtype: t.dtype, shape, offsets };
  });
  checkSafetensorsLayout(
    checked.map((c) => ({ name: c.name, begin: c.offsets[0], end: c.offsets[1] })),
    blob.size - start,
    fileName,
  );
  const out: NamedArray[] = [];
  for (const [i, { name, dtype, shape, offsets }] of checked.entries()) {
    checkAborted(options.signal, fileName);
    if (shape.length !== 2 || shape[1] < 2) continue;
    if (shape[0] === 0) throw emptyEmbedding(fileName, `tensor '${name}'`, shape);
    const [begin, end] = offsets;
    if (start + end > blob.size)
      throw new FileError(fileName, `tensor '${name}' is truncated or its offsets do not match its shape`);
    const bytes = await blob.slice(start + begin, start + end).arrayBuffer();
    let a: NamedArray;
    if (dtype === 'F32' && bytes.byteLength === shape[0] * shape[1] * 4) {
      a = { name, shape, data: new Float32Array(bytes) };
    } else {
      // Other dtypes (and a size that does not match) go through the whole-file reader on this tensor alone.
      [a] = safetensorsArrays(
        tinyFile(name, { dtype, shape, data_offsets: [0, bytes.byteLength] }, new Uint8Array(bytes)),
        fileName,
      );
    }
    // The whole-file reader leaves finiteness to fromArrays; every tensor here is an embedding.
    checkFiniteEmbeddings(fileName, { data: a.data, cols: shape[1] }, `tensor '${name}' element`);
    out.push(a);
    options.onProgress?.((i + 1) / entries.length);
  }
  return out;
}

/** A safetensors file of one tensor: its header entry, then `data`. */
function tinyFile(name: string, info: unknown, data: Uint8Array): Uint8Array {
  const header = new TextEncoder().encode(JSON.stringify({ [name]: info }));
  const bytes = new Uint8Array(8 + header.length + data.length);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(header.length), true);
  bytes.set(header, 8);
  bytes.set(data, 8 + header.length);
  return bytes;
}

/** A Blob as hyparquet's AsyncBuffer: only the byte ranges asked for are read. */
export function blobBuffer(blob: Blob): AsyncBuffer {
  return { byteLength: blob.size, slice: (start: number, end?: number) => blob.slice(start, end).arrayBuffer() };
}

/**
 * Every vector column of a Parquet Blob (parquetMatrices): where workers exist, in a parse worker that a
 * hang, a crash or `signal` ends with a FileError naming the file; elsewhere (Node) here.
 */
export async function readParquetMatrices(
  blob: Blob,
  fileName: string,
  options: ReadArraysOptions = {},
): Promise<NamedArray[]> {
  if (blob.size === 0) throw new FileError(fileName, 'file is empty');
  if (!canIsolate()) return parquetMatrices(blobBuffer(blob), fileName, options);
  return parquetMatricesIsolated(blob, fileName, {
    signal: options.signal,
    onProgress: (p) => options.onProgress?.(p.total > 0 ? p.done / p.total : 0),
  });
}

/** Every vector column (list<number>, fixed-size list) of a Parquet file, one embedding each. */
export async function parquetMatrices(
  file: AsyncBuffer | ArrayBuffer,
  fileName: string,
  options: ReadArraysOptions = {},
): Promise<NamedArray[]> {
  if (file.byteLength === 0) throw new FileError(fileName, 'file is empty');
  const [{ parquetMetadataAsync, parquetSchema }, { compressors }] = await Promise.all([
    import('hyparquet'),
    import('hyparquet-compressors'),
  ]);
  let metadata;
  try {
    metadata = await parquetMetadataAsync(file);
  } catch (error) {
    throw new FileError(fileName, `cannot read Parquet: ${(error as Error).message}`);
  }
  const schema = parquetSchema(metadata);
  const vectors = schema.children.filter((c) => roleOf(c) === 'vector');
  if (vectors.length === 0)
    throw new FileError(fileName, 'holds no vector column (list of numbers) to take as an embedding');
  // The footer's counts agree with each other (or the file is refused) before any page is read; each
  // row group's pages are then held to them as it is read (readParquetGroup).
  const groups = parquetRowGroups(
    metadata,
    schema,
    fileName,
    vectors.map((c) => c.element.name),
  );
  const rows = groups.reduce((a, b) => a + b, 0);
  if (rows === 0) throw new FileError(fileName, 'holds 0 rows: an embedding needs at least one row');
  const out: NamedArray[] = [];
  for (const [k, column] of vectors.entries()) {
    const name = column.element.name;
    let leaf = column;
    while (leaf.children.length === 1) leaf = leaf.children[0];
    const wide = leaf.element.type === 'DOUBLE' || leaf.element.type === 'INT64';
    let data: Float32Array | Float64Array | null = null;
    let cols = 0;
    let at = 0;
    for (const [g, groupRows] of groups.entries()) {
      checkAborted(options.signal, fileName);
      if (groupRows === 0) continue;
      let part: unknown[];
      try {
        part = (await readParquetGroup(file, metadata, [name], g, at, groupRows, fileName, compressors)).get(name)!;
      } catch (error) {
        if (error instanceof FileError) throw error;
        throw new FileError(fileName, `cannot read Parquet column '${name}': ${(error as Error).message}`);
      }
      for (const [j, value] of part.entries()) {
        const v = value as ArrayLike<number | bigint> | null | undefined;
        const i = at + j;
        if (!v || typeof v !== 'object' || typeof v.length !== 'number')
          throw new FileError(fileName, `column '${name}' has no vector in row ${i}`);
        if (data === null) {
          cols = v.length;
          if (cols < 2)
            throw new FileError(
              fileName,
              `column '${name}' holds vectors of ${cols} value${cols === 1 ? '' : 's'}; an embedding needs at least 2`,
            );
          data = allocate(fileName, name, rows, cols, wide);
        }
        if (v.length !== cols)
          throw new FileError(fileName, `column '${name}' has ${v.length} values in row ${i}, ${cols} in row 0`);
        for (let c = 0; c < cols; c++) {
          const x = Number(v[c]);
          if (!Number.isFinite(x))
            throw new FileError(fileName, `column '${name}' holds ${x} in row ${i}, column ${c}`);
          data[i * cols + c] = x;
        }
      }
      at += groupRows;
      options.onProgress?.((k + at / rows) / vectors.length);
    }
    if (data) out.push({ name, shape: [rows, cols], data });
  }
  return out;
}

/** A rows x cols array for a Parquet embedding, or a FileError naming its size when no tab can hold it. */
function allocate(
  fileName: string,
  name: string,
  rows: number,
  cols: number,
  wide: boolean,
): Float32Array | Float64Array {
  const bytes = rows * cols * (wide ? 8 : 4);
  try {
    if (bytes > MAX_FILE_BYTES * 2) throw new RangeError('too large');
    return wide ? new Float64Array(rows * cols) : new Float32Array(rows * cols);
  } catch {
    throw new FileError(
      fileName,
      `column '${name}' is ${rows.toLocaleString('en-US')} rows × ${cols.toLocaleString('en-US')} values (${formatSize(bytes)}), more than this browser tab can hold`,
    );
  }
}

/** The first pair of sources whose row counts differ, as an error naming both files; null if they agree. */
export function rowCountProblem(list: { name: string; source: string; rows: number }[]): FileError | null {
  const first = list[0];
  const other = list.find((r) => r.rows !== first?.rows);
  if (!first || !other) return null;
  const label = (r: { name: string; source: string }) => {
    const file = r.source.includes('/') ? r.source.slice(r.source.lastIndexOf('/') + 1) : r.source;
    return r.name === file || r.name.startsWith(`${file}/`) ? `'${r.name}'` : `'${r.name}' (${file})`;
  };
  const count = (n: number) => n.toLocaleString('en-US');
  return new FileError(
    other.source.slice(other.source.lastIndexOf('/') + 1),
    `embedding ${label(other)} has ${count(other.rows)} rows, embedding ${label(first)} has ${count(first.rows)} rows; every embedding must hold the same rows`,
  );
}
