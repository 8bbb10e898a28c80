// Rows that arrive as JavaScript values (JSON, JSON Lines, Parquet) become embeddings + metadata:
// rows that are arrays of numbers are the embeddings; rows that are objects take the embeddings from
// a field holding an array of numbers ("embedding", "vector", ... preferred), or else from numeric
// fields chosen by column_roles.ts. The remaining fields are metadata columns.
import { dimensionColumns } from './column_roles.ts';
import { checkFiniteEmbeddings, FileError, type Column, type ParsedFile } from './table.ts';

export const VECTOR_NAMES = ['embedding', 'embeddings', 'vector', 'vectors', 'features', 'activations', 'emb', 'x'];

function toNumber(v: unknown): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return null;
}

function isNumberArray(v: unknown): v is ArrayLike<number> {
  if (ArrayBuffer.isView(v)) return !(v instanceof DataView);
  return Array.isArray(v) && v.length > 0 && v.every((x) => toNumber(x) !== null);
}

/** `lineOf(i)` names row i in messages ("line 4", "row 3"). */
export function objectsToParsed(fileName: string, rows: unknown[], lineOf: (i: number) => string): ParsedFile {
  if (rows.length === 0) throw new FileError(fileName, 'no rows');
  const first = rows[0];
  let vectorOf: (row: unknown) => unknown;
  let dimensionKeys: string[] = [];
  let metadataKeys: string[] = [];
  let note = '';
  if (isNumberArray(first)) {
    vectorOf = (row) => row;
  } else if (first !== null && typeof first === 'object' && !Array.isArray(first)) {
    const entries = Object.entries(first as Record<string, unknown>);
    const vectors = entries.filter(([, v]) => isNumberArray(v)).map(([k]) => k);
    const vectorKey = vectors.find((k) => VECTOR_NAMES.includes(k.toLowerCase())) ?? vectors[0];
    if (vectorKey !== undefined) {
      vectorOf = (row) => (row as Record<string, unknown>)?.[vectorKey];
      metadataKeys = entries.map(([k]) => k).filter((k) => k !== vectorKey);
      note = `embeddings from field '${vectorKey}'`;
    } else {
      const names = entries.map(([k]) => k);
      const dimension = dimensionColumns(
        names,
        entries.map(([, v]) => toNumber(v) !== null),
      );
      dimensionKeys = names.filter((_, i) => dimension[i]);
      metadataKeys = names.filter((_, i) => !dimension[i]);
      if (dimensionKeys.length === 0)
        throw new FileError(fileName, `${lineOf(0)} has no array of numbers and no numeric fields`);
      vectorOf = (row) => dimensionKeys.map((k) => (row as Record<string, unknown>)?.[k]);
      note = `${dimensionKeys.length} embedding fields (${dimensionKeys[0]} … ${dimensionKeys.at(-1)})`;
    }
  } else {
    throw new FileError(fileName, `${lineOf(0)} is neither an array of numbers nor an object`);
  }
  const cols = (vectorOf(first) as ArrayLike<unknown>).length;
  const data = new Float64Array(rows.length * cols);
  rows.forEach((row, i) => {
    const v = vectorOf(row) as ArrayLike<unknown> | undefined;
    if (!v || typeof v !== 'object') throw new FileError(fileName, `${lineOf(i)} has no embedding`);
    if (v.length !== cols)
      throw new FileError(fileName, `${lineOf(i)} has ${v.length} values, ${lineOf(0)} has ${cols}`);
    for (let j = 0; j < cols; j++) {
      const x = toNumber(v[j]);
      if (x === null)
        throw new FileError(
          fileName,
          `${lineOf(i)}, value ${j}: ${String(JSON.stringify(v[j])).slice(0, 24)} is not a number`,
        );
      if (!Number.isFinite(x))
        throw new FileError(
          fileName,
          `${lineOf(i)}, value ${j} is ${Number.isNaN(x) ? 'NaN' : x > 0 ? '+Inf' : '-Inf'}`,
        );
      data[i * cols + j] = x;
    }
  });
  const embeddings = { data, rows: rows.length, cols };
  checkFiniteEmbeddings(fileName, embeddings);
  const columns: Column[] = metadataKeys.map((key) => {
    const values = rows.map((r) => (r as Record<string, unknown>)?.[key]);
    const numbers = values.map((v) => (typeof v === 'boolean' ? Number(v) : toNumber(v)));
    if (numbers.every((v) => v !== null))
      return { name: key, kind: 'number', values: Float64Array.from(numbers as number[]) };
    return {
      name: key,
      kind: 'string',
      values: values.map((v) =>
        v === undefined || v === null
          ? ''
          : typeof v === 'string'
            ? v
            : JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? Number(x) : x)),
      ),
    };
  });
  const parsed: ParsedFile = { fileName, embeddings, columns, rows: rows.length, notes: note ? [note] : [] };
  if (dimensionKeys.length === cols) parsed.dimensionNames = dimensionKeys;
  return parsed;
}
