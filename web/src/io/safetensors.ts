// safetensors: 8-byte little-endian header length N, N bytes of JSON
// {name: {dtype, shape, data_offsets: [begin, end]}, "__metadata__": {...}}, then the tensor bytes.
import { float16, fromArrays, type NamedArray } from './arrays.ts';
import { FileError, type ParsedFile } from './table.ts';

interface TensorInfo {
  dtype: string;
  shape: number[];
  data_offsets: [number, number];
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** A header entry checked field by field: JSON from an untrusted file may hold anything. */
function tensorInfo(info: unknown, name: string, fileName: string): TensorInfo {
  const problem = (what: string) => new FileError(fileName, `tensor '${name}' ${what}`);
  if (typeof info !== 'object' || info === null || Array.isArray(info))
    throw problem('is not a {dtype, shape, data_offsets} entry');
  const { dtype, shape, data_offsets: offsets } = info as Record<string, unknown>;
  if (typeof dtype !== 'string') throw problem('has no dtype');
  if (!Array.isArray(shape)) throw problem('has no shape');
  const bad = shape.find((n) => !isCount(n));
  if (bad !== undefined)
    throw problem(`has shape ${JSON.stringify(shape)}; dimensions are whole numbers ≥ 0, got ${JSON.stringify(bad)}`);
  if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every(isCount) || offsets[0] > offsets[1]) {
    throw problem(
      `has data_offsets ${JSON.stringify(offsets) ?? 'missing'}; expected [begin, end], whole numbers with begin ≤ end`,
    );
  }
  // JSON's -0 is a whole number ≥ 0 too: read as 0, so no message or shape shows "-0".
  return { dtype, shape: shape.map((n: number) => n + 0), data_offsets: [offsets[0] + 0, offsets[1] + 0] };
}

const SIZES: Record<string, number> = {
  F64: 8,
  F32: 4,
  F16: 2,
  BF16: 2,
  I64: 8,
  I32: 4,
  I16: 2,
  I8: 1,
  U8: 1,
  BOOL: 1,
};

/**
 * The tensors' byte ranges tile the data exactly, as the format's reference reader (Hugging Face's
 * safetensors crate) requires: no two tensors share a byte (one would read the other's values), no bytes
 * belong to none (room for another file hidden inside), none follow the last. Ranges past the data's end
 * are the callers' "truncated" refusal.
 */
export function checkSafetensorsLayout(
  ranges: { name: string; begin: number; end: number }[],
  dataBytes: number,
  fileName: string,
): void {
  const sorted = [...ranges].sort((a, b) => a.begin - b.begin || a.end - b.end);
  let at = 0;
  let previous: { name: string; begin: number; end: number } | null = null;
  for (const r of sorted) {
    if (r.begin === r.end) continue; // an empty tensor takes no bytes
    if (previous && r.begin < at)
      throw new FileError(
        fileName,
        `tensors '${previous.name}' and '${r.name}' share bytes (data_offsets [${previous.begin}, ${previous.end}] and [${r.begin}, ${r.end}]); each byte of the data belongs to one tensor`,
      );
    if (r.begin > at)
      throw new FileError(
        fileName,
        `bytes ${at} to ${r.begin} of the data belong to no tensor (before '${r.name}'); the tensors must cover the data exactly`,
      );
    at = r.end;
    previous = r;
  }
  if (at < dataBytes)
    throw new FileError(
      fileName,
      `${dataBytes - at} bytes follow the last tensor's data (the tensors end at byte ${at} of ${dataBytes}); the tensors must cover the data exactly`,
    );
}

export function parseSafetensors(bytes: Uint8Array, fileName: string): ParsedFile {
  return fromArrays(fileName, safetensorsArrays(bytes, fileName));
}

/** Every tensor of a safetensors file, by name (the Compare lab takes each 2-D one as an embedding). */
export function safetensorsArrays(bytes: Uint8Array, fileName: string): NamedArray[] {
  if (bytes.length === 0) throw new FileError(fileName, 'file is empty');
  if (bytes.length < 8) throw new FileError(fileName, 'not a safetensors file (too short)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  if (headerLength > bytes.length - 8 || headerLength > 100 * 2 ** 20) {
    throw new FileError(fileName, 'not a safetensors file (bad header length)');
  }
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
  } catch {
    throw new FileError(fileName, 'not a safetensors file (header is not JSON)');
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) {
    throw new FileError(fileName, 'not a safetensors file (header is not a JSON object)');
  }
  const start = 8 + headerLength;
  const arrays: NamedArray[] = [];
  const tensors = Object.entries(header)
    .filter(([name]) => name !== '__metadata__')
    .map(([name, info]) => {
      const t = tensorInfo(info, name, fileName);
      const size = SIZES[t.dtype];
      if (!size) throw new FileError(fileName, `tensor '${name}' has unsupported dtype ${t.dtype}`);
      const count = t.shape.reduce((a, b) => a * b, 1);
      const [begin, end] = t.data_offsets;
      if (end - begin !== count * size || start + end > bytes.length) {
        throw new FileError(fileName, `tensor '${name}' is truncated or its offsets do not match its shape`);
      }
      return { name, ...t, size, count };
    });
  checkSafetensorsLayout(
    tensors.map((t) => ({ name: t.name, begin: t.data_offsets[0], end: t.data_offsets[1] })),
    bytes.length - start,
    fileName,
  );
  for (const {
    name,
    dtype,
    shape,
    size,
    count,
    data_offsets: [begin],
  } of tensors) {
    const at = start + begin;
    let data: Float32Array | Float64Array;
    if (dtype === 'F32') {
      data = new Float32Array(count);
      for (let k = 0; k < count; k++) data[k] = view.getFloat32(at + 4 * k, true);
    } else {
      data = new Float64Array(count);
      for (let k = 0; k < count; k++) {
        const p = at + k * size;
        data[k] =
          dtype === 'F64'
            ? view.getFloat64(p, true)
            : dtype === 'F16'
              ? float16(view.getUint16(p, true))
              : dtype === 'BF16'
                ? new Float32Array(new Uint32Array([view.getUint16(p, true) << 16]).buffer)[0]
                : dtype === 'I64'
                  ? Number(view.getBigInt64(p, true))
                  : dtype === 'I32'
                    ? view.getInt32(p, true)
                    : dtype === 'I16'
                      ? view.getInt16(p, true)
                      : dtype === 'I8'
                        ? view.getInt8(p)
                        : bytes[p];
      }
    }
    arrays.push({ name, shape, data });
  }
  return arrays;
}
