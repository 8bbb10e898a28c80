// Apache Parquet, read with hyparquet (all codecs through hyparquet-compressors), from bytes in memory
// (an upload) or from a URL by HTTP range requests (hyparquet's asyncBufferFromUrl): only the footer
// and the column chunks of the columns gpprobe uses are read. Those are, from the schema alone: the
// embedding — a list column of numbers ("embedding", "vector", ... preferred, as for JSON), or failing
// one, a JSON column (which may hold the vectors) — and every scalar column (numbers, booleans, text)
// as metadata; other list, JSON, struct, map and binary columns are skipped and named in a note. Rows
// then become embeddings + metadata by the rules of row_objects.ts.
import type { AsyncBuffer, SchemaTree } from 'hyparquet';
import { canIsolate, parseIsolated } from './isolated_parse.ts';
import { objectsToParsed, VECTOR_NAMES } from './row_objects.ts';
import { FileError, type ParsedFile } from './table.ts';

export function isParquet(bytes: Uint8Array): boolean {
  const n = bytes.length;
  const par1 = (at: number) =>
    bytes[at] === 0x50 && bytes[at + 1] === 0x41 && bytes[at + 2] === 0x52 && bytes[at + 3] === 0x31;
  return n >= 8 && par1(0) && par1(n - 4);
}

const NUMERIC = new Set(['INT32', 'INT64', 'FLOAT', 'DOUBLE', 'INT96']);

export type Role = 'vector' | 'json' | 'scalar' | 'skip';

export function roleOf(column: SchemaTree): Role {
  const e = column.element;
  if (column.children.length === 0) {
    if (e.repetition_type === 'REPEATED') return e.type && NUMERIC.has(e.type) ? 'vector' : 'skip'; // legacy list
    if (e.type === 'BYTE_ARRAY' || e.type === 'FIXED_LEN_BYTE_ARRAY') {
      if (e.converted_type === 'JSON' || e.logical_type?.type === 'JSON') return 'json';
      const text =
        e.converted_type === 'UTF8' ||
        e.converted_type === 'ENUM' ||
        e.logical_type?.type === 'STRING' ||
        e.logical_type?.type === 'ENUM';
      return text ? 'scalar' : 'skip';
    }
    return 'scalar';
  }
  // A LIST group: group (LIST) > repeated group > element (a numeric leaf for an embedding).
  if (e.converted_type === 'LIST' || e.logical_type?.type === 'LIST') {
    let leaf = column;
    while (leaf.children.length === 1) leaf = leaf.children[0];
    return leaf.children.length === 0 && leaf.element.type && NUMERIC.has(leaf.element.type) ? 'vector' : 'skip';
  }
  return 'skip';
}

/** The columns to read: one embedding column (if any) and the scalar columns; and what is skipped. */
function parquetColumns(schema: SchemaTree): { columns: string[]; skipped: string[] } {
  const top = schema.children.map((c) => ({ name: c.element.name, role: roleOf(c) }));
  const candidates = (role: Role) => top.filter((c) => c.role === role).map((c) => c.name);
  const preferred = (names: string[]) => names.find((name) => VECTOR_NAMES.includes(name.toLowerCase())) ?? names[0];
  const vector = preferred(candidates('vector')) ?? preferred(candidates('json'));
  const columns = top.filter((c) => c.name === vector || c.role === 'scalar').map((c) => c.name);
  return { columns, skipped: top.map((c) => c.name).filter((name) => !columns.includes(name)) };
}

/** Reads a Parquet file from memory or from a range-request buffer over HTTP. */
export async function readParquet(file: AsyncBuffer | ArrayBuffer, fileName: string): Promise<ParsedFile> {
  if (file.byteLength === 0) throw new FileError(fileName, 'file is empty');
  // Loaded on demand: most sessions never read Parquet.
  const [{ parquetMetadataAsync, parquetReadObjects, parquetSchema }, { compressors }] = await Promise.all([
    import('hyparquet'),
    import('hyparquet-compressors'),
  ]);
  let rows: Record<string, unknown>[];
  let skipped: string[];
  try {
    const metadata = await parquetMetadataAsync(file);
    const chosen = parquetColumns(parquetSchema(metadata));
    skipped = chosen.skipped;
    rows = await parquetReadObjects({ file, metadata, columns: chosen.columns, compressors });
  } catch (error) {
    if (error instanceof FileError) throw error;
    throw new FileError(fileName, `cannot read Parquet: ${(error as Error).message}`);
  }
  const parsed = objectsToParsed(fileName, rows, (i) => `row ${i}`);
  if (skipped.length)
    parsed.notes.push(
      `skipped column${skipped.length > 1 ? 's' : ''} ${skipped.map((s) => `'${s}'`).join(', ')} (not an embedding or a scalar)`,
    );
  return parsed;
}

/**
 * Reads an uploaded Parquet file. Where workers exist (the browser) it is read in a parse worker that
 * is stopped on cancel or after a time budget (isolated_parse.ts): hyparquet can spin forever on a
 * damaged page. Elsewhere (Node) it is read here.
 */
export async function parseParquet(
  bytes: Uint8Array,
  fileName: string,
  options: { signal?: AbortSignal } = {},
): Promise<ParsedFile> {
  if (bytes.length === 0) throw new FileError(fileName, 'file is empty');
  if (!isParquet(bytes)) throw new FileError(fileName, 'not a Parquet file (missing PAR1 markers)');
  const copy = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return canIsolate()
    ? (await parseIsolated('parquet', { bytes: copy }, fileName, options)).parsed
    : readParquet(copy, fileName);
}
