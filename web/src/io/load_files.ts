// Turns the files a user dropped into one dataset: exactly one of them holds the embeddings, the others
// add metadata columns (a labels .npy, a metadata.csv, the Projector's metadata.tsv), row counts must
// agree. Format by extension, confirmed by magic bytes where the format has them.
import type { Matrix } from '../engine/matrix.ts';
import { parseDelimitedBlob, parseNumber } from './delimited.ts';
import { parseJson, parseJsonLines } from './json.ts';
import { fromArrays } from './arrays.ts';
import { isNpy, npyLayout, parseNpy } from './npy.ts';
import { isZip, parseNpz } from './npz.ts';
import { isParquet, parseParquet } from './parquet.ts';
import { parseTensorBytes, spriteSheet, type SpriteSheet } from './projector.ts';
import { projectorUpload, type UploadedFile } from './projector_upload.ts';
import { parseSafetensors } from './safetensors.ts';
import {
  checkAborted,
  FileError,
  MAX_FILE_BYTES,
  tooLarge,
  type Column,
  type ParsedFile,
  type ParseOptions,
} from './table.ts';

export { MAX_FILE_BYTES };

export const SUPPORTED_EXTENSIONS = [
  '.npy',
  '.npz',
  '.csv',
  '.tsv',
  '.txt',
  '.json',
  '.jsonl',
  '.ndjson',
  '.safetensors',
  '.parquet',
  '.bytes (with its projector_config.json)',
];

export interface Dataset {
  /** What the user sees: "vectors.tsv + metadata.tsv". */
  name: string;
  files: { name: string; size: number }[];
  embeddings: Matrix;
  columns: Column[];
  notes: string[];
  /** Thumbnails of the rows (an Embedding Projector config's sprite sheet). */
  sprite?: SpriteSheet;
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

/** Bytes enough for any .npy header we accept and for the other formats' magic numbers. */
const HEAD_BYTES = 1 << 16;

/**
 * Refuses a binary file whose first bytes are not its format's before its body is read (a 1.4 GB file
 * of junk named .npy costs a 64 KB read, not 1.4 GB): the .npy header, checked against the file's size;
 * the magic numbers of .npz (zip), .parquet (PAR1) and .safetensors (a JSON header's length).
 */
async function checkHead(file: Blob, name: string, ext: string): Promise<void> {
  if (file.size === 0) return; // each parser says "file is empty"
  const head = new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer());
  if (ext === '.npy') npyLayout(head, file.size, name);
  else if (ext === '.npz' && !isZip(head)) throw new FileError(name, 'not a .npz file (not a zip archive)');
  else if (ext === '.parquet' && !(head.length >= 4 && new TextDecoder().decode(head.subarray(0, 4)) === 'PAR1')) {
    throw new FileError(name, 'not a Parquet file (missing PAR1 markers)');
  } else if (ext === '.safetensors') {
    const length = head.length >= 8 ? Number(new DataView(head.buffer).getBigUint64(0, true)) : Infinity;
    if (length > file.size - 8 || head[8] !== 0x7b)
      throw new FileError(name, 'not a safetensors file (bad header length)');
  }
}

/** Parses one file by its type. `projectorMetadata`: the Embedding Projector's metadata.tsv rules. */
export async function parseFile(
  file: Blob,
  name: string,
  options: ParseOptions & { projectorMetadata?: boolean } = {},
): Promise<ParsedFile> {
  if (file.size > MAX_FILE_BYTES) throw tooLarge(name, file.size);
  const ext = extensionOf(name);
  try {
    if (options.projectorMetadata) {
      // Projector: a single-column metadata.tsv has no header; with several columns the first row is one.
      const head = await file.slice(0, 64 * 1024).text();
      const firstLine = head.split(/\r?\n/, 1)[0];
      return await parseDelimitedBlob(file, name, {
        ...options,
        delimiter: '\t',
        noHeader: !firstLine.includes('\t'),
        metadataOnly: true,
      });
    }
    if (ext === '.csv' || ext === '.tsv' || ext === '.txt') return await parseDelimitedBlob(file, name, options);
    if (ext === '.json' || ext === '.jsonl' || ext === '.ndjson') {
      const text = new TextDecoder().decode(await readBytes(file, name, options));
      return ext === '.json' ? parseJson(text, name) : parseJsonLines(text, name);
    }
    await checkHead(file, name, ext);
    const bytes = await readBytes(file, name, options);
    if (ext === '.npy' || (ext === '' && isNpy(bytes))) {
      const a = parseNpy(bytes, name);
      return fromArrays(name, [{ name: name.replace(/\.npy$/i, ''), shape: a.shape, data: a.data }]);
    }
    if (ext === '.npz' || (ext === '' && isZip(bytes))) return parseNpz(bytes, name);
    if (ext === '.safetensors') return parseSafetensors(bytes, name);
    if (ext === '.parquet' || (ext === '' && isParquet(bytes)))
      return await parseParquet(bytes, name, { signal: options.signal });
  } catch (error) {
    if (error instanceof FileError) throw error;
    if (error instanceof RangeError) {
      throw new FileError(name, `is too large for this browser tab's memory (${error.message})`);
    }
    throw new FileError(name, `could not be read (${(error as Error).message})`);
  }
  if (ext === '.png')
    throw new FileError(
      name,
      'is an image: gpprobe reads one as the sprite sheet that a projector_config.json chosen with it names',
    );
  throw new FileError(
    name,
    `unsupported file type${ext ? ` (${ext})` : ''}; gpprobe reads ${SUPPORTED_EXTENSIONS.join(', ')}`,
  );
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
  // The parser's "N embedding columns (...)" note no longer holds: they are metadata columns now.
  p.notes = p.notes.filter((n) => !/^\d+ embedding columns \(/.test(n));
}

/** "line 1 (“name, label”)", for messages. */
function lineOne(cells: string[]): string {
  const text = cells.join(', ');
  return `line 1 (“${text.length > 40 ? `${text.slice(0, 40)}…` : text}”)`;
}

/** A column of the texts `texts` (numeric when each is a number). */
function columnOf(name: string, texts: string[]): Column {
  const numbers = texts.map(parseNumber);
  return numbers.every((v) => v !== null)
    ? { name, kind: 'number', values: Float64Array.from(numbers as number[]) }
    : { name, kind: 'string', values: texts };
}

/**
 * A one-column metadata file whose rows are one off the embeddings' is read with its line 1 the other
 * way: as a value when it was taken as the header (the Embedding Projector's rule: a one-column metadata
 * file has no header, whatever its name), or as the header when it was read as a value. Returns the note
 * saying so, or null when nothing changed.
 */
function rereadFirstLine(p: ParsedFile, rows: number): string | null {
  if (p.embeddings || p.columns.length !== 1) return null;
  const c = p.columns[0];
  const texts = c.kind === 'string' ? c.values : Array.from(c.values, String);
  // A text line 1 over a column of numbers is a header by any rule ("label" over 0/1).
  if (p.header && p.rows + 1 === rows && (c.kind === 'string' || parseNumber(p.header[0]) !== null)) {
    const first = p.header[0];
    p.columns[0] = columnOf('column 1', [first, ...texts]);
    p.rows += 1;
    delete p.header;
    return `${p.fileName}: ${lineOne([first])} is a value, not a header: a one-column metadata file has none (the Embedding Projector's rule)`;
  }
  if (!p.header && p.rows - 1 === rows) {
    const [first, ...rest] = texts;
    p.columns[0] = columnOf(first, rest);
    p.rows -= 1;
    p.header = [first];
    return `${p.fileName}: ${lineOne([first])} was taken as the header, which leaves one row per embedding`;
  }
  return null;
}

/** The stem of a file name, for naming the columns a labels file adds ("labels.npy" -> "labels"). */
function stem(name: string): string {
  return name.replace(/\.[^.]+$/, '');
}

/** Whether `names` are the Embedding Projector's pair (vectors.tsv + metadata.tsv). */
export function isProjectorPair(names: string[]): boolean {
  return (
    names.length === 2 && names.some((n) => /vectors?\.tsv$/i.test(n)) && names.some((n) => /metadata\.tsv$/i.test(n))
  );
}

/**
 * One dataset from the files a user chose together. `onProgress(fraction)` covers all files.
 * Errors name the file and the problem; nothing is half-loaded (the caller keeps its old dataset).
 */
export async function loadDataset(
  files: { blob: Blob; name: string }[],
  options: ParseOptions & { embedding?: string } = {},
): Promise<Dataset> {
  if (files.length === 0) throw new FileError('upload', 'no files chosen');
  const projector = await projectorUpload(files, options.embedding);
  const projectorPair = isProjectorPair(files.map((f) => f.name));
  const total = files.reduce((s, f) => s + Math.max(1, f.blob.size), 0);
  let done = 0;
  const parse = async (
    f: UploadedFile,
    how: { projectorMetadata?: boolean; shape?: [number, number] } = {},
  ): Promise<ParsedFile> => {
    const size = Math.max(1, f.blob.size);
    const onProgress = (fraction: number) => options.onProgress?.((done + fraction * size) / total);
    const p = how.shape
      ? parseTensorBytes(await readBytes(f.blob, f.name, { ...options, onProgress }), how.shape, f.name)
      : await parseFile(f.blob, f.name, {
          signal: options.signal,
          projectorMetadata: how.projectorMetadata,
          onProgress,
        });
    done += size;
    return p;
  };
  const sizes = files.map((f) => ({ name: f.name, size: f.blob.size }));
  if (!projector) {
    const parsed: ParsedFile[] = [];
    for (const f of files)
      parsed.push(await parse(f, { projectorMetadata: projectorPair && /metadata\.tsv$/i.test(f.name) }));
    return combineFiles(parsed, sizes);
  }
  // The Projector's own files: the tensor with the config's shape (".bytes") or read by its extension,
  // its metadata by the Projector's header rule, the sprite sheet checked to hold a thumbnail per row.
  const { embedding, tensor, metadata, sprite } = projector;
  const parsed = [await parse(tensor, /\.bytes$/i.test(tensor.name) ? { shape: embedding.tensorShape } : {})];
  if (metadata) parsed.push(await parse(metadata, { projectorMetadata: true }));
  for (const f of projector.others) parsed.push(await parse(f));
  const dataset = combineFiles(parsed, sizes);
  dataset.name = embedding.tensorName;
  dataset.notes.push(...projector.notes);
  if (sprite && embedding.sprite) {
    const sheet = await spriteSheet(
      sprite.blob,
      sprite.name,
      dataset.embeddings.rows,
      embedding.sprite.singleImageDim,
      dataset.notes,
    );
    if (sheet) dataset.sprite = sheet;
  }
  return dataset;
}

/**
 * The dataset of files parsed together: exactly one holds the embeddings (the widest candidate), the
 * others add metadata columns, and row counts must agree.
 */
export function combineFiles(parsed: ParsedFile[], files: { name: string; size: number }[]): Dataset {
  const withEmbeddings = parsed.filter((p) => p.embeddings);
  if (withEmbeddings.length === 0) {
    throw new FileError(
      files.map((f) => f.name).join(', '),
      'no embeddings found (expected a 2-D array or numeric columns)',
    );
  }
  // Several candidates: the widest is the embeddings; the others' named numeric columns are metadata.
  const main = withEmbeddings.reduce((best, p) => (p.embeddings!.cols > best.embeddings!.cols ? p : best));
  demoteOthers(
    main.fileName,
    parsed.filter((p) => p !== main),
  );
  const embeddings = main.embeddings!;
  // Refused here, at load, so the data already loaded and the saved session stay (issue 23, item 6).
  if (embeddings.rows === 0)
    throw new FileError(main.fileName, `holds no rows (0 × ${embeddings.cols} embeddings): there is nothing to probe`);
  return {
    name: files.map((f) => f.name).join(' + '),
    files,
    embeddings,
    ...joinMetadata(main, parsed, embeddings.rows),
  };
}

/**
 * Makes the parsed files beside the embeddings file `main` metadata: a table whose numeric columns were
 * taken for embedding dimensions gives them back as columns; any other embeddings are refused.
 */
export function demoteOthers(main: string, others: ParsedFile[]): void {
  for (const p of others) {
    if (!p.embeddings) continue;
    if (!p.dimensionNames) {
      throw new FileError(p.fileName, `holds embeddings too; choose one embeddings file (${main}) plus metadata files`);
    }
    demoteToMetadata(p);
  }
}

/**
 * The metadata columns and notes of the embeddings file `main` (of `rows` rows) and of the other files
 * of `parsed`, whose row counts must agree with it.
 */
export function joinMetadata(
  main: ParsedFile,
  parsed: ParsedFile[],
  rows: number,
): { columns: Column[]; notes: string[] } {
  const columns: Column[] = [...main.columns];
  const notes = [...main.notes.map((n) => `${main.fileName}: ${n}`)];
  for (const p of parsed) {
    if (p === main) continue;
    const reread = rereadFirstLine(p, rows);
    if (reread) notes.push(reread);
    if (p.rows !== rows) {
      const header = p.header ? ` after ${lineOne(p.header)} was taken as its header` : '';
      throw new FileError(p.fileName, `has ${p.rows} rows${header}, ${main.fileName} has ${rows}`);
    }
    if (!reread && p.header && p.columns.length === 1)
      notes.push(`${p.fileName}: ${lineOne(p.header)} was taken as the header`);
    for (const c of p.columns) {
      let name = parsed.length > 1 && p.columns.length === 1 && /^column 1$/.test(c.name) ? stem(p.fileName) : c.name;
      while (columns.some((existing) => existing.name === name)) name = `${name} (${stem(p.fileName)})`;
      columns.push({ ...c, name } as Column);
    }
    notes.push(...p.notes.map((n) => `${p.fileName}: ${n}`));
  }
  return { columns, notes };
}
