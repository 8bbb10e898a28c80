// A fitted probe to take away: the probe file (".probe.json"), read here for the library
// (engine.loadProbe) and written by the app's "Export probe"; the CLI reads the same format in C++
// (core/cli/readers/probe_file.cpp, `gpprobe probe --probe FILE`). It holds what a fit needs, never a posterior,
// so every reader fits the same probe and scores new queries with the same numbers:
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
// Parsing only moves bytes (JSON, base64) into a typed array: no mathematics happens here, and the
// fit is the core's. Errors are GpprobeErrors (code "parse_error") naming the field and the problem.
// The CLI's reader is held to the same validation table (tests/reference/probe_file/{valid,invalid}/).
import { GpprobeError } from '../errors.ts';
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

function fail(problem: string): never {
  throw new GpprobeError('parse_error', `probe file: ${problem}`);
}

function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

function fromBase64(text: string, what: string): Uint8Array {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    fail(`${what} must be base64 text`);
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
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

/** ", got <value as JSON>", or nothing for a missing field. */
const got = (value: unknown) => (value === undefined ? '' : `, got ${JSON.stringify(value)}`);

function positive(value: unknown, name: string): number {
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value))
    fail(`"${name}" must be a positive number${got(value)}`);
  return value;
}

function count(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    fail(`"${name}" must be a non-negative integer${got(value)}`);
  return value;
}

function dataId(value: unknown): ProbeDataId {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    fail('"data" must be an object with "name", "rows", "cols" and "dtype"');
  const d = value as Record<string, unknown>;
  if (typeof d.name !== 'string') fail(`"data.name" must be text${got(d.name)}`);
  count(d.rows, 'data.rows');
  count(d.cols, 'data.cols');
  if (d.dtype !== 'float32' && d.dtype !== 'float64')
    fail(`"data.dtype" must be "float32" or "float64"${got(d.dtype)}`);
  if (d.sha256 !== undefined && (typeof d.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(d.sha256))) {
    fail(`"data.sha256" must be 64 lowercase hexadecimal digits, got ${JSON.stringify(d.sha256)}`);
  }
  return d as unknown as ProbeDataId;
}

/** Reads a probe file (its bytes, or its text). */
export function parseProbeFile(input: Uint8Array | ArrayBuffer | string): ProbeFile {
  const text = typeof input === 'string' ? input : new TextDecoder().decode(input);
  let json: Record<string, unknown>;
  try {
    // A number beyond the largest double (1e400) is not one the CLI's reader can hold either.
    json = JSON.parse(text, (_key, value: unknown) => {
      if (typeof value === 'number' && !Number.isFinite(value)) throw new RangeError('number overflow');
      return value;
    }) as Record<string, unknown>;
  } catch {
    fail('not JSON');
  }
  if (!json || typeof json !== 'object' || json.format !== PROBE_FILE_FORMAT)
    fail(`not a gpprobe probe file (expected "format": "${PROBE_FILE_FORMAT}")`);
  if (json.version !== PROBE_FILE_VERSION) {
    fail(
      `version ${json.version === undefined ? '(missing)' : JSON.stringify(json.version)} is not one this gpprobe reads (version ${PROBE_FILE_VERSION})`,
    );
  }
  const epsilon = positive(json.epsilon, 'epsilon'),
    strength = positive(json.strength, 'strength');
  const space = json.space === undefined ? 'automatic' : json.space;
  if (space !== 'automatic' && space !== 'function' && space !== 'weight')
    fail(`"space" must be "automatic", "function" or "weight", got ${JSON.stringify(space)}`);
  const o = json.observations as Record<string, unknown> | undefined;
  if (!o || typeof o !== 'object' || Array.isArray(o)) fail('"observations" is missing');
  const rows = count(o.rows, 'observations.rows'),
    cols = count(o.cols, 'observations.cols');
  if (o.dtype !== 'float32' && o.dtype !== 'float64')
    fail(`"observations.dtype" must be "float32" or "float64"${got(o.dtype)}`);
  // Strict base64 (atob would also take whitespace), padding optional, as the CLI reads it.
  if (typeof o.data !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(o.data))
    fail('"observations.data" must be base64 text');
  const bytes = fromBase64(o.data.replace(/=+$/, ''), '"observations.data"');
  const size = o.dtype === 'float32' ? 4 : 8;
  if ((cols === 0 && rows > 0) || rows * cols * size > Number.MAX_SAFE_INTEGER) {
    fail(`observations of ${rows} x ${cols} ${o.dtype} values cannot be stored (${bytes.length} bytes of data)`);
  }
  if (bytes.length !== rows * cols * size) {
    fail(
      `observations.data holds ${bytes.length} bytes; ${rows} x ${cols} ${o.dtype} values need ${rows * cols * size}`,
    );
  }
  if (!littleEndian) throw new GpprobeError('internal_error', 'probe files are read on little-endian machines only');
  const data = o.dtype === 'float32' ? new Float32Array(bytes.buffer) : new Float64Array(bytes.buffer);
  if (!Array.isArray(json.labels)) fail('"labels" must be a list of 0/1 values');
  if (json.labels.length !== rows) fail(`"labels" has ${json.labels.length} values for ${rows} observation rows`);
  const labels = Uint8Array.from(json.labels, (v: unknown, i) =>
    v === 0 || v === 1 ? v : fail(`label ${i} is ${JSON.stringify(v)}; labels must be 0 or 1`),
  );
  const file: ProbeFile = { epsilon, strength, space, observations: { data, rows, cols }, labels };
  if (json.observation_rows !== undefined) {
    const list = json.observation_rows;
    if (!Array.isArray(list) || list.length !== rows) fail(`"observation_rows" must list ${rows} row numbers`);
    file.observationRows = list.map((r: unknown, i) => count(r, `observation_rows[${i}]`));
  }
  if (json.data !== undefined) file.data = dataId(json.data);
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
