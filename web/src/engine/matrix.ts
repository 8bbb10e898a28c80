// Matrices cross into the engine as one row-major typed array with its shape.

/** A row-major matrix: row i occupies data[i*cols .. (i+1)*cols). */
export interface Matrix {
  data: Float32Array | Float64Array;
  rows: number;
  cols: number;
}

import { GpprobeError } from './errors.ts';

/** Checks the shape bookkeeping of `m` (the core checks the values); `name` appears in messages. */
export function checkMatrix(name: string, m: Matrix): void {
  if (!(m.data instanceof Float32Array) && !(m.data instanceof Float64Array)) {
    throw new GpprobeError('invalid_argument', `${name}.data must be a Float32Array or Float64Array`);
  }
  for (const key of ['rows', 'cols'] as const) checkCount(`${name}.${key}`, m[key]);
  if (m.data.length !== m.rows * m.cols) {
    throw new GpprobeError(
      'dimension_mismatch',
      `${name}.data has ${m.data.length} values, expected rows × cols = ${m.rows} × ${m.cols} = ${m.rows * m.cols}`,
    );
  }
}

/** Rows [first, first + count) of `m` as a matrix viewing the same memory. */
export function sliceRows(m: Matrix, first: number, count: number): Matrix {
  return { data: m.data.subarray(first * m.cols, (first + count) * m.cols), rows: count, cols: m.cols };
}

/** Checks that `labels` is a Uint8Array (the core checks the 0/1 values); `name` appears in the message. */
export function checkLabels(name: string, labels: unknown): asserts labels is Uint8Array {
  if (!(labels instanceof Uint8Array)) {
    throw new GpprobeError('invalid_argument', `${name} must be a Uint8Array of 0/1 values`);
  }
}

/** Throws unless `value` is a non-negative integer (counts, seeds, sizes); `name` appears in the message. */
export function checkCount(name: string, value: unknown): asserts value is number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new GpprobeError('invalid_argument', `${name} must be a non-negative integer, got ${String(value)}`);
  }
}
