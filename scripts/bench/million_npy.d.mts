// Types of scripts/bench/million_npy.mjs for the TypeScript tests that use it.
export function label(i: number): number;
export function rowValues(i: number, cols: number, out?: Float32Array, offset?: number): Float32Array;
export function npyHeader(descr: string, shape: number[]): Buffer;
export function writeEmbeddings(path: string, rows: number, cols: number, chunkRows?: number): void;
export function writeByteColumn(path: string, rows: number, value: (i: number) => number): void;
export function writeNpy(path: string, array: Float64Array | Float32Array | Uint8Array, shape: number[]): void;
