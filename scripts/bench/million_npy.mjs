// Large seeded embeddings as .npy files, written in chunks (never whole in memory), for the streamed
// path's browser test (tests/e2e/million.e2e.ts) and benchmark (scripts/bench/bench_million.mjs):
//   row i: `cols` float32 values from a xorshift32 generator seeded by a hash of i, uniform in [-1, 1),
//          shifted by +0.75 in the first 8 dimensions when label(i) is 1
//   label(i) = 1 when i % 3 == 0
// Any row can be computed alone (rowValues), so a reference needs no second read of the file.
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';

export function label(i) {
  return i % 3 === 0 ? 1 : 0;
}

/** Row `i` of `cols` values into `out` (a Float32Array of at least `cols`) at `offset`. */
export function rowValues(i, cols, out = new Float32Array(cols), offset = 0) {
  let s = Math.imul(i + 0x9e3779b9, 0x85ebca6b) ^ 0x5bd1e995;
  s = Math.imul(s ^ (s >>> 15), 0xc2b2ae35) | 1;
  const shift = label(i) ? 0.75 : 0;
  for (let j = 0; j < cols; j++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[offset + j] = s * 4.656612873077393e-10; // s / 2^31
  }
  for (let j = 0; j < Math.min(8, cols); j++) out[offset + j] += shift;
  return out;
}

/** A .npy header (version 1) for `descr` and `shape`, padded so the data starts on a 64-byte boundary. */
export function npyHeader(descr, shape) {
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  header += ' '.repeat((64 - ((10 + header.length + 1) % 64)) % 64) + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head.writeUInt16LE(header.length, 8);
  return Buffer.concat([head, Buffer.from(header, 'latin1')]);
}

/** Writes a typed array (float64, float32 or bytes) as a C-order .npy of the given shape. */
export function writeNpy(path, array, shape) {
  const descr = array instanceof Float64Array ? '<f8' : array instanceof Float32Array ? '<f4' : '|u1';
  writeFileSync(
    path,
    Buffer.concat([npyHeader(descr, shape), Buffer.from(array.buffer, array.byteOffset, array.byteLength)]),
  );
}

/** Writes `rows` x `cols` float32 embeddings (rowValues) to `path` in chunks of `chunkRows` rows. */
export function writeEmbeddings(path, rows, cols, chunkRows = 16384) {
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, npyHeader('<f4', [rows, cols]));
    const chunk = new Float32Array(chunkRows * cols);
    for (let first = 0; first < rows; first += chunkRows) {
      const count = Math.min(chunkRows, rows - first);
      for (let r = 0; r < count; r++) rowValues(first + r, cols, chunk, r * cols);
      writeSync(fd, new Uint8Array(chunk.buffer, 0, count * cols * 4));
    }
  } finally {
    closeSync(fd);
  }
}

/** Writes a one-byte-per-row column (`<i1`) to `path`: value(i) for each row. */
export function writeByteColumn(path, rows, value) {
  const bytes = new Uint8Array(rows);
  for (let i = 0; i < rows; i++) bytes[i] = value(i);
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, npyHeader('<i1', [rows]));
    writeSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
}
