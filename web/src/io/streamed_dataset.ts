// Uploads whose embeddings are too large to hold in memory: a 2-D float32/float64 .npy file whose data
// passes STREAM_ABOVE_BYTES is not read at load time — only its header is checked — and its rows are
// read from the file when needed (npy_rows.ts): chunk by chunk to score them, a sample for the map, the
// observations for the probe. The other files chosen with it are parsed as usual and add metadata
// columns, with row counts checked against the .npy file's.
import { demoteOthers, joinMetadata, parseFile } from './load_files.ts';
import { openNpyRows, type NpyRows } from './npy_rows.ts';
import { checkAborted, formatSize, type Column, type ParsedFile, type ParseOptions } from './table.ts';

/**
 * Embeddings larger than this are streamed from their file. The wasm heap holds at most 2 GiB, and
 * beside the embeddings it holds the probe, a chunk of scores and the map's working copy; 400 MiB keeps
 * every in-memory dataset well inside it (200,000 x 384 float32 is 293 MiB) while 1,000,000 x 128
 * float32 (488 MiB) and anything larger is streamed.
 */
export const STREAM_ABOVE_BYTES = 400 * 2 ** 20;

export interface StreamedDataset {
  name: string;
  files: { name: string; size: number }[];
  embeddings: NpyRows;
  columns: Column[];
  notes: string[];
}

/**
 * The dataset of `files` with its embeddings streamed, when one of them is a float .npy file of more
 * than `streamAboveBytes` of embeddings; null otherwise (the caller loads the files into memory).
 * Errors name the file and the problem.
 */
export async function openStreamedDataset(
  files: { blob: Blob; name: string }[],
  options: ParseOptions & { streamAboveBytes?: number } = {},
): Promise<StreamedDataset | null> {
  const threshold = options.streamAboveBytes ?? STREAM_ABOVE_BYTES;
  let main: { file: { blob: Blob; name: string }; rows: NpyRows } | null = null;
  for (const file of files) {
    if (!/\.npy$/i.test(file.name) || file.blob.size <= threshold) continue;
    const rows = await openNpyRows(file.blob, file.name);
    if (rows && rows.dataBytes > threshold && (!main || rows.cols > main.rows.cols)) main = { file, rows };
  }
  if (!main) return null;
  const others = files.filter((f) => f !== main!.file);
  const total = others.reduce((s, f) => s + Math.max(1, f.blob.size), 0);
  let done = 0;
  const parsed: ParsedFile[] = [];
  for (const f of others) {
    checkAborted(options.signal, f.name);
    const size = Math.max(1, f.blob.size);
    parsed.push(
      await parseFile(f.blob, f.name, {
        signal: options.signal,
        onProgress: (fraction) => options.onProgress?.((done + fraction * size) / total),
      }),
    );
    done += size;
  }
  const embeddings = main.rows;
  demoteOthers(embeddings.fileName, parsed);
  const head: ParsedFile = { fileName: embeddings.fileName, columns: [], rows: embeddings.rows, notes: [] };
  const { columns, notes } = joinMetadata(head, [head, ...parsed], embeddings.rows);
  notes.unshift(
    `${embeddings.fileName}: ${formatSize(embeddings.dataBytes)} of embeddings, read from the file as needed, since embeddings over ${formatSize(threshold)} are not held in memory`,
  );
  return {
    name: files.map((f) => f.name).join(' + '),
    files: files.map((f) => ({ name: f.name, size: f.blob.size })),
    embeddings,
    columns,
    notes,
  };
}
