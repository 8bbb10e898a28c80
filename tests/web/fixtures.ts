// Builders for test files in memory: .npy bytes, .npz archives, safetensors, CSV text parsed as the
// labs parse it; and the message of a call that must fail.
import { zipSync } from 'fflate';
import { parseDelimitedText } from '../../web/src/io/delimited.ts';
import type { ParsedTable } from '../../web/src/labs/regression/worker/protocol.ts';

/** `shape` as numbers, or as the verbatim text inside the header's parentheses (for broken headers). */
export function npyBytes(descr: string, shape: number[] | string, data: ArrayBufferView, fortran = false): Uint8Array {
  const shapeText = typeof shape === 'string' ? shape : `${shape.join(', ')}${shape.length === 1 ? ',' : ''}`;
  let header = `{'descr': '${descr}', 'fortran_order': ${fortran ? 'True' : 'False'}, 'shape': (${shapeText}), }`;
  while ((10 + header.length + 1) % 64 !== 0) header += ' ';
  header += '\n';
  const out = new Uint8Array(10 + header.length + data.byteLength);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, header.length & 0xff, header.length >> 8]);
  out.set(new TextEncoder().encode(header), 10);
  out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), 10 + header.length);
  return out;
}

export function npzBytes(members: Record<string, Uint8Array>, deflate = true): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(members).map(([k, v]) => [k, [v, { level: deflate ? 6 : 0 }]])));
}

export function safetensorsBytes(
  tensors: Record<string, { dtype: string; shape: number[]; data: ArrayBufferView }>,
): Uint8Array {
  const header: Record<string, unknown> = { __metadata__: { format: 'pt' } };
  let offset = 0;
  for (const [name, t] of Object.entries(tensors)) {
    header[name] = { dtype: t.dtype, shape: t.shape, data_offsets: [offset, offset + t.data.byteLength] };
    offset += t.data.byteLength;
  }
  const json = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(8 + json.length + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(json, 8);
  let at = 8 + json.length;
  for (const t of Object.values(tensors)) {
    out.set(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength), at);
    at += t.data.byteLength;
  }
  return out;
}

export function blob(content: Uint8Array | string): Blob {
  return new Blob([content as BlobPart]);
}

/** CSV text as the labs' 'parse-table' gives it (metadata only: every column numeric or text). */
export function tableOf(text: string, fileName = 'data.csv'): ParsedTable {
  const parsed = parseDelimitedText(text, fileName, { metadataOnly: true });
  return { fileName, rows: parsed.rows, columns: parsed.columns };
}

/** The message `run` fails with ('no error' when it does not). */
export function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return 'no error';
}

/** Seeded standard normal values (mulberry32 and Box-Muller), for random matrices the tests can repeat. */
export function normals(seed: number): () => number {
  let a = seed >>> 0;
  const uniform = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
}
