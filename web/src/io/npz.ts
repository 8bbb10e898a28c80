// NumPy .npz archives: a zip of .npy members (stored or deflated), read by zip_members.ts with the
// members' expanded size limited to what the browser loads (MAX_FILE_BYTES), decompression bombs included.
import { fromArrays, type NamedArray } from './arrays.ts';
import { parseNpy } from './npy.ts';
import { FileError, MAX_FILE_BYTES, type ParsedFile } from './table.ts';
import { readZipMembers } from './zip_members.ts';

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** `maxBytes`: what the .npy members may expand to together (tests lower it). */
export function parseNpz(bytes: Uint8Array, fileName: string, maxBytes = MAX_FILE_BYTES): ParsedFile {
  return fromArrays(fileName, npzArrays(bytes, fileName, maxBytes));
}

/** Every .npy member of a .npz archive, by name (the Compare lab takes each 2-D one as an embedding). */
export function npzArrays(bytes: Uint8Array, fileName: string, maxBytes = MAX_FILE_BYTES): NamedArray[] {
  if (bytes.length === 0) throw new FileError(fileName, 'file is empty');
  if (!isZip(bytes)) throw new FileError(fileName, 'not a .npz file (not a zip archive)');
  const members = readZipMembers(bytes, fileName, (name) => name.endsWith('.npy'), maxBytes);
  return members.map(({ name, data }) => {
    const a = parseNpy(data, `${fileName}/${name}`);
    return { name: name.replace(/\.npy$/, ''), shape: a.shape, data: a.data };
  });
}
