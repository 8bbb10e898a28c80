// Apache Parquet, read with hyparquet (all codecs through hyparquet-compressors): rows become objects,
// then embeddings + metadata by the same rules as JSON (a list column of numbers, or numeric columns).
import { objectsToParsed } from './row_objects.ts';
import { FileError, type ParsedFile } from './table.ts';

export function isParquet(bytes: Uint8Array): boolean {
  const n = bytes.length;
  const par1 = (at: number) => bytes[at] === 0x50 && bytes[at + 1] === 0x41 && bytes[at + 2] === 0x52 && bytes[at + 3] === 0x31;
  return n >= 8 && par1(0) && par1(n - 4);
}

export async function parseParquet(bytes: Uint8Array, fileName: string): Promise<ParsedFile> {
  if (bytes.length === 0) throw new FileError(fileName, 'file is empty');
  if (!isParquet(bytes)) throw new FileError(fileName, 'not a Parquet file (missing PAR1 markers)');
  // Loaded on demand: most sessions never read Parquet.
  const [{ parquetReadObjects }, { compressors }] = await Promise.all([import('hyparquet'), import('hyparquet-compressors')]);
  let rows: Record<string, unknown>[];
  try {
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    rows = await parquetReadObjects({ file: buffer, compressors });
  } catch (error) {
    throw new FileError(fileName, `cannot read Parquet: ${(error as Error).message}`);
  }
  return objectsToParsed(fileName, rows, (i) => `row ${i}`);
}
