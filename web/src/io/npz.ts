// NumPy .npz archives: a zip of .npy members (stored or deflated), read by zip_members.ts with the
// members' expanded size limited to what the browser loads (MAX_FILE_BYTES), decompression bombs included.
import { emptyEmbedding, fromArrays, type NamedArray } from './arrays.ts';
import { parseNpy } from './npy.ts';
import { FileError, MAX_FILE_BYTES, type ParsedFile } from './table.ts';
import { readZipMembers } from './zip_members.ts';

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** `maxBytes`: what the .npy members may expand to together (tests lower it). */
export function parseNpz(bytes: Uint8Array, fileName: string, maxBytes = MAX_FILE_BYTES): ParsedFile {
  // The Probe tab refuses a dataset of no rows itself, when it loads (load_files.ts).
  return fromArrays(fileName, npzArrays(bytes, fileName, maxBytes, { emptyEmbeddings: true }));
}

/**
 * Every .npy member of a .npz archive, by name (the Compare lab takes each 2-D one as an embedding: one of
 * no rows is refused, unless `emptyEmbeddings`).
 */
export function npzArrays(
  bytes: Uint8Array,
  fileName: string,
  maxBytes = MAX_FILE_BYTES,
  { emptyEmbeddings = false } = {},
): NamedArray[] {
  if (bytes.length === 0) throw new FileError(fileName, 'file is empty');
  if (!isZip(bytes)) throw new FileError(fileName, 'not a .npz file (not a zip archive)');
  const members = readZipMembers(bytes, fileName, (name) => name.endsWith('.npy'), maxBytes);
  return members.map(({ name, data }) => {
    const a = parseNpy(data, `${fileName}/${name}`);
    // A 2-D array of more than one column is an embedding wherever it is read (the Compare lab takes each).
    const array = name.replace(/\.npy$/, '');
    if (!emptyEmbeddings && a.shape.length === 2 && a.shape[1] > 1 && a.shape[0] === 0)
      throw emptyEmbedding(fileName, `array '${array}'`, a.shape);
    return { name: array, shape: a.shape, data: a.data };
  });
}
