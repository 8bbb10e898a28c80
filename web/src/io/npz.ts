// NumPy .npz archives: a zip of .npy members (stored or deflated), unpacked with fflate.
import { unzipSync } from 'fflate';
import { fromArrays, type NamedArray } from './arrays.ts';
import { parseNpy } from './npy.ts';
import { FileError, type ParsedFile } from './table.ts';

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

export function parseNpz(bytes: Uint8Array, fileName: string): ParsedFile {
  if (bytes.length === 0) throw new FileError(fileName, 'file is empty');
  if (!isZip(bytes)) throw new FileError(fileName, 'not a .npz file (not a zip archive)');
  let members: Record<string, Uint8Array>;
  try {
    members = unzipSync(bytes, { filter: (f) => f.name.endsWith('.npy') });
  } catch (error) {
    throw new FileError(fileName, `cannot unzip: ${(error as Error).message}`);
  }
  const arrays: NamedArray[] = Object.entries(members).map(([name, content]) => {
    const a = parseNpy(content, `${fileName}/${name}`);
    return { name: name.replace(/\.npy$/, ''), shape: a.shape, data: a.data };
  });
  return fromArrays(fileName, arrays);
}
