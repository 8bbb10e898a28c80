// JSON and JSON Lines: an array of rows (arrays of numbers, or objects with a vector field), one row
// per line (JSONL), or an object of columns ({"embeddings": [[...]], "label": [...]}).
import { objectsToParsed } from './row_objects.ts';
import { FileError, type ParsedFile } from './table.ts';

function columnsToParsed(fileName: string, object: Record<string, unknown>): ParsedFile {
  const entries = Object.entries(object);
  const matrix = entries.find(([, v]) => Array.isArray(v) && v.length > 0 && Array.isArray(v[0]));
  if (!matrix) throw new FileError(fileName, 'has no array of rows (expected e.g. {"embeddings": [[...], ...]})');
  const parsed = objectsToParsed(fileName, matrix[1] as unknown[], (i) => `'${matrix[0]}' row ${i}`);
  for (const [key, v] of entries) {
    if (key === matrix[0] || !Array.isArray(v)) continue;
    if (v.length !== parsed.rows) {
      parsed.notes.push(`ignored '${key}': ${v.length} values for ${parsed.rows} rows`);
      continue;
    }
    parsed.columns.push(
      v.every((x) => typeof x === 'number')
        ? { name: key, kind: 'number', values: Float64Array.from(v as number[]) }
        : { name: key, kind: 'string', values: v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))) },
    );
  }
  return parsed;
}

export function parseJson(text: string, fileName: string): ParsedFile {
  if (text.trim() === '') throw new FileError(fileName, 'file is empty');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new FileError(fileName, `is not valid JSON (${(error as Error).message})`);
  }
  if (Array.isArray(value)) return objectsToParsed(fileName, value, (i) => `row ${i}`);
  if (value !== null && typeof value === 'object') return columnsToParsed(fileName, value as Record<string, unknown>);
  throw new FileError(fileName, 'expected an array of rows or an object of columns');
}

export function parseJsonLines(text: string, fileName: string): ParsedFile {
  if (text.trim() === '') throw new FileError(fileName, 'file is empty');
  const rows: unknown[] = [];
  const lineNumbers: number[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      rows.push(JSON.parse(line));
    } catch {
      throw new FileError(fileName, `line ${i + 1} is not valid JSON`);
    }
    lineNumbers.push(i + 1);
  });
  return objectsToParsed(fileName, rows, (i) => `line ${lineNumbers[i]}`);
}
