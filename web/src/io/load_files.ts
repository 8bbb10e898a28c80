// Turns the files a user dropped into one dataset: exactly one of them holds the embeddings, the others
// add metadata columns (a labels .npy, a metadata.csv, the Projector's metadata.tsv), row counts must
// agree. Format by extension, confirmed by magic bytes where the format has them.
import type { Matrix } from '../engine/matrix.ts';
import { parseDelimitedBlob } from './delimited.ts';
import { parseJson, parseJsonLines } from './json.ts';
import { fromArrays } from './arrays.ts';
import { isNpy, parseNpy } from './npy.ts';
import { isZip, parseNpz } from './npz.ts';
import { isParquet, parseParquet } from './parquet.ts';
import { parseSafetensors } from './safetensors.ts';
import { checkAborted, FileError, MAX_FILE_BYTES, tooLarge, type Column, type ParsedFile, type ParseOptions } from './table.ts';

export { MAX_FILE_BYTES };

export const SUPPORTED_EXTENSIONS = ['.npy', '.npz', '.csv', '.tsv', '.txt', '.json', '.jsonl', '.ndjson', '.safetensors', '.parquet'];

export interface Dataset {
  /** What the user sees: "vectors.tsv + metadata.tsv". */
  name: string;
  files: { name: string; size: number }[];
  embeddings: Matrix;
  columns: Column[];
  notes: string[];
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
}

async function readBytes(file: Blob, name: string, options: ParseOptions): Promise<Uint8Array> {
  const reader = file.stream().getReader();
  const bytes = new Uint8Array(file.size);
  let offset = 0;
  for (;;) {
    if (options.signal?.aborted) await reader.cancel();
    checkAborted(options.signal, name);
    const { done, value } = await reader.read();
    if (done) break;
    bytes.set(value, offset);
    offset += value.length;
    options.onProgress?.(offset / Math.max(1, file.size));
  }
  return bytes;
}

/** Parses one file by its type. `projectorMetadata`: the Embedding Projector's metadata.tsv rules. */
export async function parseFile(
  file: Blob, name: string, options: ParseOptions & { projectorMetadata?: boolean } = {},
): Promise<ParsedFile> {
  if (file.size > MAX_FILE_BYTES) throw tooLarge(name, file.size);
  const ext = extensionOf(name);
  try {
    if (options.projectorMetadata) {
      // Projector: a single-column metadata.tsv has no header; with several columns the first row is one.
      const head = await file.slice(0, 64 * 1024).text();
      const firstLine = head.split(/\r?\n/, 1)[0];
      return await parseDelimitedBlob(file, name, {
        ...options, delimiter: '\t', noHeader: !firstLine.includes('\t'), metadataOnly: true,
      });
    }
    if (ext === '.csv' || ext === '.tsv' || ext === '.txt') return await parseDelimitedBlob(file, name, options);
    if (ext === '.json' || ext === '.jsonl' || ext === '.ndjson') {
      const text = new TextDecoder().decode(await readBytes(file, name, options));
      return ext === '.json' ? parseJson(text, name) : parseJsonLines(text, name);
    }
    const bytes = await readBytes(file, name, options);
    if (ext === '.npy' || (ext === '' && isNpy(bytes))) {
      const a = parseNpy(bytes, name);
      return fromArrays(name, [{ name: name.replace(/\.npy$/i, ''), shape: a.shape, data: a.data }]);
    }
    if (ext === '.npz' || (ext === '' && isZip(bytes))) return parseNpz(bytes, name);
    if (ext === '.safetensors') return parseSafetensors(bytes, name);
    if (ext === '.parquet' || (ext === '' && isParquet(bytes))) return await parseParquet(bytes, name, { signal: options.signal });
  } catch (error) {
    if (error instanceof FileError) throw error;
    if (error instanceof RangeError) {
      throw new FileError(name, `is too large for this browser tab's memory (${error.message})`);
    }
    throw new FileError(name, `could not be read (${(error as Error).message})`);
  }
  throw new FileError(name, `unsupported file type${ext ? ` (${ext})` : ''}; gpprobe reads ${SUPPORTED_EXTENSIONS.join(', ')}`);
}

/** Turns the numeric columns a table parser took for embedding dimensions back into metadata. */
function demoteToMetadata(p: ParsedFile): void {
  const { data, rows, cols } = p.embeddings!;
  p.dimensionNames!.forEach((name, j) => {
    const values = new Float64Array(rows);
    for (let i = 0; i < rows; i++) values[i] = data[i * cols + j];
    p.columns.push({ name, kind: 'number', values });
  });
  delete p.embeddings;
  delete p.dimensionNames;
}

/** The stem of a file name, for naming the columns a labels file adds ("labels.npy" -> "labels"). */
function stem(name: string): string {
  return name.replace(/\.[^.]+$/, '');
}

/** Whether `names` are the Embedding Projector's pair (vectors.tsv + metadata.tsv). */
export function isProjectorPair(names: string[]): boolean {
  return names.length === 2 && names.some((n) => /vectors?\.tsv$/i.test(n)) && names.some((n) => /metadata\.tsv$/i.test(n));
}

/**
 * One dataset from the files a user chose together. `onProgress(fraction)` covers all files.
 * Errors name the file and the problem; nothing is half-loaded (the caller keeps its old dataset).
 */
export async function loadDataset(
  files: { blob: Blob; name: string }[], options: ParseOptions = {},
): Promise<Dataset> {
  if (files.length === 0) throw new FileError('upload', 'no files chosen');
  const projectorPair = isProjectorPair(files.map((f) => f.name));
  const total = files.reduce((s, f) => s + Math.max(1, f.blob.size), 0);
  let done = 0;
  const parsed: ParsedFile[] = [];
  for (const f of files) {
    const size = Math.max(1, f.blob.size);
    parsed.push(await parseFile(f.blob, f.name, {
      signal: options.signal,
      projectorMetadata: projectorPair && /metadata\.tsv$/i.test(f.name),
      onProgress: (fraction) => options.onProgress?.((done + fraction * size) / total),
    }));
    done += size;
  }
  return combineFiles(parsed, files.map((f) => ({ name: f.name, size: f.blob.size })));
}

/**
 * The dataset of files parsed together: exactly one holds the embeddings (the widest candidate), the
 * others add metadata columns, and row counts must agree.
 */
export function combineFiles(parsed: ParsedFile[], files: { name: string; size: number }[]): Dataset {
  const withEmbeddings = parsed.filter((p) => p.embeddings);
  if (withEmbeddings.length === 0) {
    throw new FileError(files.map((f) => f.name).join(', '), 'no embeddings found (expected a 2-D array or numeric columns)');
  }
  // Several candidates: the widest is the embeddings; the others' named numeric columns are metadata.
  const main = withEmbeddings.reduce((best, p) => (p.embeddings!.cols > best.embeddings!.cols ? p : best));
  for (const p of withEmbeddings) {
    if (p === main) continue;
    if (!p.dimensionNames) {
      throw new FileError(p.fileName, `holds embeddings too; choose one embeddings file (${main.fileName}) plus metadata files`);
    }
    demoteToMetadata(p);
  }
  const embeddings = main.embeddings!;
  const columns: Column[] = [...main.columns];
  const notes = [...main.notes.map((n) => `${main.fileName}: ${n}`)];
  for (const p of parsed) {
    if (p === main) continue;
    if (p.rows !== embeddings.rows) {
      throw new FileError(p.fileName, `has ${p.rows} rows, ${main.fileName} has ${embeddings.rows}`);
    }
    for (const c of p.columns) {
      let name = parsed.length > 1 && p.columns.length === 1 && /^column 1$/.test(c.name) ? stem(p.fileName) : c.name;
      while (columns.some((existing) => existing.name === name)) name = `${name} (${stem(p.fileName)})`;
      columns.push({ ...c, name } as Column);
    }
    notes.push(...p.notes.map((n) => `${p.fileName}: ${n}`));
  }
  return { name: files.map((f) => f.name).join(' + '), files, embeddings, columns, notes };
}
