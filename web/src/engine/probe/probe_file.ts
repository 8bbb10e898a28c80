// A fitted probe to take away: the probe file (".probe.json"), written here by the app's "Export probe" and
// read for the library (engine.readProbeFile, engine.loadProbe) by the core's one reader
// (core/src/probe/probe_file.cpp, through wasm/bindings_probe_file.cpp), the same the CLI (`gpprobe probe
// --probe FILE`) and Python (`Probe.load`) call. It holds what a fit needs, never a posterior, so every
// face fits the same probe and scores new queries with the same numbers:
//
//   {
//     "format": "gpprobe-probe", "version": 1,
//     "epsilon": 0.1, "strength": 5,
//     "space": "weight",                         // "function" | "weight" | "automatic" (the fit's choice)
//     "observations": { "rows": 16, "cols": 64, "dtype": "float32",
//                       "data": "<base64 of the row-major values, little-endian>" },
//     "labels": [0, 1, ...],                     // one 0/1 per observation row
//     "observation_rows": [12, 40, ...],         // optional: the rows of the data they were taken from
//     "data": { "name": "...", "rows": 1797, "cols": 64, "dtype": "float32",
//               "sha256": "<hex>" }              // optional: the id of that data (embeddingsId below)
//   }
//
// Errors are GpprobeErrors (code "parse_error", "probe file: " and the core's message naming the field and
// the problem). The reader is held to one validation table (tests/reference/probe_file/{valid,invalid}/),
// and the faces to each other (tests/wasm/probe_file_faces.test.ts).
import type { GpprobeModule } from '../generated/gpprobe.mjs';
import { GpprobeError, throwIfFailed } from '../errors.ts';
import type { Matrix } from '../matrix.ts';
import type { PosteriorSpace } from './probe_engine.ts';

export const PROBE_FILE_FORMAT = 'gpprobe-probe';
export const PROBE_FILE_VERSION = 1;

/** The data a probe was fitted on, by name, shape and content hash. */
export interface ProbeDataId {
  name: string;
  rows: number;
  cols: number;
  dtype: 'float32' | 'float64';
  /** SHA-256 (hex) of the embeddings' row-major little-endian bytes, as embeddingsId computes it. */
  sha256?: string;
}

export interface ProbeFile {
  epsilon: number;
  strength: number;
  space: PosteriorSpace;
  /** O by d, float32 or float64 as it was stored. */
  observations: Matrix;
  labels: Uint8Array;
  observationRows?: number[];
  data?: ProbeDataId;
}

function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The row-major values of `m` as little-endian bytes. */
function matrixBytes(m: Matrix): Uint8Array<ArrayBuffer> {
  if (!littleEndian) throw new GpprobeError('internal_error', 'probe files are written on little-endian machines only');
  const bytes = new Uint8Array(m.data.buffer, m.data.byteOffset, m.data.byteLength);
  // A view of the threaded module's shared heap is copied: SubtleCrypto refuses shared memory.
  return m.data.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
}

/** The file's bytes (UTF-8 JSON). */
export function probeFileBytes(file: ProbeFile): Uint8Array {
  const { observations: x } = file;
  const json = {
    format: PROBE_FILE_FORMAT,
    version: PROBE_FILE_VERSION,
    epsilon: file.epsilon,
    strength: file.strength,
    space: file.space,
    observations: {
      rows: x.rows,
      cols: x.cols,
      dtype: x.data instanceof Float32Array ? 'float32' : 'float64',
      data: toBase64(matrixBytes(x)),
    },
    labels: Array.from(file.labels),
    ...(file.observationRows ? { observation_rows: file.observationRows } : {}),
    ...(file.data ? { data: file.data } : {}),
  };
  return new TextEncoder().encode(JSON.stringify(json, null, 1) + '\n');
}

/**
 * Reads a probe file (its bytes, or its text) with the core's reader (gpprobe/probe/probe_file.h), the one
 * `gpprobe probe --probe` and Python's `Probe.load` call: the same files are refused with the same
 * messages, here prefixed "probe file: ". Used through engine.readProbeFile and engine.loadProbe.
 */
export function readProbeFile(
  module: Pick<GpprobeModule, 'parseProbeFile'>,
  input: Uint8Array | ArrayBuffer | string,
): ProbeFile {
  // Bytes cross unchanged (Embind copies a Uint8Array's bytes into the std::string); text as its UTF-8.
  const bytes =
    typeof input === 'string'
      ? new TextEncoder().encode(input)
      : input instanceof Uint8Array
        ? input
        : new Uint8Array(input);
  const r = throwIfFailed(module.parseProbeFile(bytes, 'probe file'));
  const file: ProbeFile = {
    epsilon: r.epsilon,
    strength: r.strength,
    space: r.space,
    observations: { data: r.observations, rows: r.rows, cols: r.cols },
    labels: r.labels,
  };
  if (r.observationRows) file.observationRows = Array.from(r.observationRows);
  if (r.data) file.data = r.data;
  return file;
}

/**
 * The id of a dataset's embeddings in probe files: the SHA-256 (hex) of their row-major little-endian
 * bytes in their own precision, so `hashlib.sha256(x.astype('<f4').tobytes()).hexdigest()` in numpy
 * gives the same id for float32 embeddings. Null where the platform has no Web Crypto (pages served
 * over plain http from a host other than localhost).
 */
export async function embeddingsId(m: Matrix): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  const digest = await subtle.digest('SHA-256', matrixBytes(m));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}
