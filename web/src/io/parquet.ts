// Apache Parquet, read with hyparquet (all codecs through hyparquet-compressors), from bytes in memory
// (an upload) or from a URL by HTTP range requests (hyparquet's asyncBufferFromUrl): only the footer
// and the column chunks of the columns gpprobe uses are read. Those are, from the schema alone: the
// embedding — a list column of numbers ("embedding", "vector", ... preferred, as for JSON), or failing
// one, a JSON column (which may hold the vectors) — and every scalar column (numbers, booleans, text)
// as metadata; other list, JSON, struct, map and binary columns are skipped and named in a note. Rows
// then become embeddings + metadata by the rules of row_objects.ts. Row counts are checked: the footer's
// must agree with each other before any page is read (parquetRowGroups), and each row group is read on its
// own, its pages' rows held to its footer entry (readParquetGroup); the Compare lab's reader
// (multi_arrays.ts) reads through the same two.
import type { AsyncBuffer, Compressors, FileMetaData, SchemaTree } from 'hyparquet';
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

/** "1,797" (a count from a file: a number or a bigint, whatever its size). */
const counted = (n: number | bigint) => n.toLocaleString('en-US');

/**
 * The rows of each row group, once the footer's counts agree with each other: the file's num_rows is a
 * whole number (not negative, at most 2^53), the row groups' num_rows add up to it, and every column
 * chunk of `columns` declares as many values as its row group has rows (a column of lists: at least one
 * per row, none in a group of no rows). Checked before any page is read: a footer that says more rows than
 * the pages hold would otherwise read as rows of zeros or undefined, or ask for an array of 2^31 rows.
 */
export function parquetRowGroups(
  metadata: FileMetaData,
  schema: SchemaTree,
  fileName: string,
  columns: string[],
): number[] {
  const refuse = (problem: string) => new FileError(fileName, problem);
  const whole = (n: unknown): n is bigint | number =>
    (typeof n === 'bigint' && n >= 0n && n <= BigInt(Number.MAX_SAFE_INTEGER)) ||
    (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0);
  const claimed = metadata.num_rows as unknown;
  if (!whole(claimed))
    throw refuse(
      `the Parquet footer says the file holds ${typeof claimed === 'bigint' || typeof claimed === 'number' ? counted(claimed) : 'no number of'} rows; a row count is a whole number from 0 to 2^53`,
    );
  const rows = Number(claimed);
  const flat = new Map(schema.children.map((c) => [c.element.name, isFlat(c)]));
  const groups = metadata.row_groups.map((group, g) => {
    const n = group.num_rows as unknown;
    if (!whole(n))
      throw refuse(
        `row group ${g} says it holds ${typeof n === 'bigint' || typeof n === 'number' ? counted(n) : 'no number of'} rows; a row count is a whole number`,
      );
    const groupRows = Number(n);
    for (const chunk of group.columns) {
      const meta = chunk.meta_data;
      const name = meta?.path_in_schema?.[0];
      if (!meta || name === undefined || !columns.includes(name)) continue;
      const values = meta.num_values as unknown;
      const where = `column '${name}' in row group ${g}`;
      if (!whole(values))
        throw refuse(
          `${where} declares ${typeof values === 'bigint' || typeof values === 'number' ? counted(values) : 'no number of'} values; a value count is a whole number`,
        );
      const v = Number(values);
      const agrees = flat.get(name) ? v === groupRows : groupRows === 0 ? v === 0 : v >= groupRows;
      if (!agrees)
        throw refuse(
          `${where} declares ${counted(v)} values for the ${counted(groupRows)} rows its row group says it holds; the file's counts disagree`,
        );
    }
    return groupRows;
  });
  const total = groups.reduce((a, b) => a + b, 0);
  if (total !== rows)
    throw refuse(
      `the Parquet footer says the file holds ${counted(rows)} rows; ${groups.length === 1 ? 'its row group holds' : `its ${groups.length} row groups hold`} ${counted(total)}${groups.length > 1 ? ' together' : ''}: the file's counts disagree`,
    );
  return groups;
}

/** A top-level column of one value per row (not a list, a repeated field or a group of them). */
function isFlat(column: SchemaTree): boolean {
  return column.children.length === 0 && column.element.repetition_type !== 'REPEATED';
}

/**
 * The values of `columns` in row group `g` (rows [start, start + groupRows) of the file), read with its
 * pages' row counts checked against the footer's: each column's pages must hold exactly the group's rows
 * (hyparquet leaves rows the pages lack undefined and drops rows past the footer's count). One array of
 * groupRows values per column.
 */
export async function readParquetGroup(
  file: AsyncBuffer | ArrayBuffer,
  metadata: FileMetaData,
  columns: string[],
  g: number,
  start: number,
  groupRows: number,
  fileName: string,
  compressors: Compressors,
): Promise<Map<string, unknown[]>> {
  const { parquetRead } = await import('hyparquet');
  const paths = metadata.row_groups[g].columns
    .map((c) => c.meta_data?.path_in_schema)
    .filter((p): p is string[] => !!p && columns.includes(p[0]))
    .map((p) => p.join('.'));
  // Rows each leaf column's pages decoded (before hyparquet cuts them to the row group), and the values.
  const decoded = new Map<string, number>(paths.map((p) => [p, 0]));
  const values = new Map<string, unknown[]>(columns.map((c) => [c, new Array<unknown>(groupRows)]));
  const seen = new Map<string, number>(columns.map((c) => [c, 0]));
  await parquetRead({
    file,
    metadata,
    columns,
    rowStart: start,
    rowEnd: start + groupRows,
    compressors,
    onPage: ({ pathInSchema, rowEnd }) => {
      const path = pathInSchema.join('.');
      decoded.set(path, Math.max(decoded.get(path) ?? 0, rowEnd - start));
    },
    onChunk: ({ columnName, columnData, rowStart }) => {
      const out = values.get(columnName);
      if (!out) return;
      const at = rowStart - start;
      for (let i = 0; i < columnData.length; i++) if (at + i >= 0 && at + i < groupRows) out[at + i] = columnData[i];
      seen.set(columnName, Math.max(seen.get(columnName) ?? 0, Math.min(groupRows, at + columnData.length)));
    },
  });
  const disagree = (name: string, n: number) =>
    new FileError(
      fileName,
      `the pages of column '${name}' hold ${counted(n)} rows in row group ${g}; the footer says it holds ${counted(groupRows)}: the file's counts disagree`,
    );
  for (const [path, n] of decoded) if (n !== groupRows) throw disagree(path.split('.')[0], n);
  for (const [name, n] of seen) if (n !== groupRows) throw disagree(name, n);
  return values;
}

/** Reads a Parquet file from memory or from a range-request buffer over HTTP. */
export async function readParquet(file: AsyncBuffer | ArrayBuffer, fileName: string): Promise<ParsedFile> {
  if (file.byteLength === 0) throw new FileError(fileName, 'file is empty');
  // Loaded on demand: most sessions never read Parquet.
  const [{ parquetMetadataAsync, parquetSchema }, { compressors }] = await Promise.all([
    import('hyparquet'),
    import('hyparquet-compressors'),
  ]);
  const rows: Record<string, unknown>[] = [];
  let skipped: string[];
  try {
    const metadata = await parquetMetadataAsync(file);
    const schema = parquetSchema(metadata);
    const chosen = parquetColumns(schema);
    skipped = chosen.skipped;
    if (chosen.columns.length === 0)
      throw new FileError(fileName, 'holds no embedding and no scalar column (numbers, booleans, text)');
    const groups = parquetRowGroups(metadata, schema, fileName, chosen.columns);
    let start = 0;
    for (const [g, groupRows] of groups.entries()) {
      if (groupRows > 0) {
        const values = await readParquetGroup(
          file,
          metadata,
          chosen.columns,
          g,
          start,
          groupRows,
          fileName,
          compressors,
        );
        for (let i = 0; i < groupRows; i++) {
          const row: Record<string, unknown> = {};
          for (const name of chosen.columns) row[name] = values.get(name)![i];
          rows.push(row);
        }
      }
      start += groupRows;
    }
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
