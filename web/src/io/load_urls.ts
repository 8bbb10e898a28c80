// Datasets by URL, for the engine worker: the files of a link (?data=, ?metadata=, ?ood=), the bundled
// demo, and an Embedding Projector config's embedding with its metadata and sprite sheet. Each file is
// downloaded with progress in bytes and cancel (fetch_file.ts), except Parquet, which is read by range
// requests so only its footer and the columns gpprobe uses cross the network (parquet.ts). Then the
// files combine into one dataset by the upload rules (load_files.ts).
import type { Progress } from '../engine/progress.ts';
import { fetchBlob, fetchChecked, fetchFailure, fileNameOf } from './fetch_file.ts';
import { combineFiles, isProjectorPair, parseFile, type Dataset } from './load_files.ts';
import { readParquet } from './parquet.ts';
import { parseProjectorConfig, parseTensorBytes, spriteSheet, type ProjectorEmbedding, type SpriteSheet } from './projector.ts';
import { checkAborted, FileError, MAX_FILE_BYTES, tooLarge, type ParsedFile } from './table.ts';

export interface UrlFile {
  url: string;
  /** The name the format is recognised by and messages use ("embeddings.npy"). */
  name: string;
}

export interface LoadUrlOptions {
  signal: AbortSignal;
  onProgress(progress: Progress): void;
}

export type { SpriteSheet } from './projector.ts';

/** Parquet over HTTP: hyparquet's range-request buffer, with our fetch (messages, cancel, progress). */
async function readRemoteParquet(file: UrlFile, options: LoadUrlOptions): Promise<{ parsed: ParsedFile; size: number }> {
  const { asyncBufferFromUrl } = await import('hyparquet');
  let fetched = 0, size = 0;
  const counting: typeof fetch = async (input, init) => {
    if (init?.method === 'HEAD') {
      // hyparquet asks the size first and handles a refused HEAD itself; only network errors are ours.
      return fetch(input, { ...init, signal: options.signal }).catch(async (error: unknown) => {
        if (error instanceof TypeError && !options.signal.aborted) throw await fetchFailure(file.url, file.name);
        throw error;
      });
    }
    const response = await fetchChecked(String(input), file.name, { ...init, signal: options.signal });
    fetched += Number(response.headers.get('content-length') ?? 0);
    options.onProgress({ stage: `reading ${file.name} (only the columns used)`, done: fetched, total: size || fetched });
    return response;
  };
  const buffer = await asyncBufferFromUrl({ url: file.url, fetch: counting });
  size = buffer.byteLength;
  if (size > MAX_FILE_BYTES) throw tooLarge(file.name, size);
  const parsed = await readParquet(buffer, file.name);
  checkAborted(options.signal, file.name);
  return { parsed, size };
}

async function download(file: UrlFile, options: LoadUrlOptions): Promise<Blob> {
  return fetchBlob(file.url, file.name, {
    signal: options.signal,
    onProgress: (done, total) => options.onProgress({ stage: `downloading ${file.name}`, done, total: total || done }),
  });
}

/** The files of one dataset by URL (one holds the embeddings, the others metadata), named `name`. */
export async function loadUrls(files: UrlFile[], options: LoadUrlOptions): Promise<Dataset> {
  if (files.length === 0) throw new FileError('link', 'no data URL given');
  const projectorPair = isProjectorPair(files.map((f) => f.name));
  const parsed: ParsedFile[] = [];
  const sizes: { name: string; size: number }[] = [];
  for (const file of files) {
    if (/\.parquet$/i.test(file.name)) {
      const remote = await readRemoteParquet(file, options);
      parsed.push(remote.parsed);
      sizes.push({ name: file.name, size: remote.size });
      continue;
    }
    const blob = await download(file, options);
    parsed.push(await parseFile(blob, file.name, {
      signal: options.signal, projectorMetadata: projectorPair && /metadata\.tsv$/i.test(file.name),
      onProgress: (fraction) => options.onProgress({ stage: `reading ${file.name}`, done: fraction, total: 1 }),
    }));
    sizes.push({ name: file.name, size: blob.size });
  }
  return combineFiles(parsed, sizes);
}

/** The embeddings a projector_config.json at `url` offers. */
export async function readProjectorConfig(file: UrlFile, options: LoadUrlOptions): Promise<ProjectorEmbedding[]> {
  const blob = await download(file, options);
  return parseProjectorConfig(await blob.text(), file.url, file.name);
}

/**
 * One embedding of a Projector config: its tensor (".bytes" with the config's shape, or a file read
 * by its extension), its metadata (the Projector's header rule) and its sprite sheet, checked to hold
 * a thumbnail per row (a sheet that does not is left out, with a note).
 */
export async function loadProjectorEmbedding(e: ProjectorEmbedding, options: LoadUrlOptions): Promise<{ dataset: Dataset; sprite: SpriteSheet | null }> {
  const tensor = { url: e.tensorUrl, name: fileNameOf(e.tensorUrl) };
  const tensorBlob = await download(tensor, options);
  const parsed: ParsedFile[] = [/\.bytes$/i.test(tensor.name)
    ? parseTensorBytes(new Uint8Array(await tensorBlob.arrayBuffer()), e.tensorShape, tensor.name)
    : await parseFile(tensorBlob, tensor.name, { signal: options.signal })];
  const sizes = [{ name: tensor.name, size: tensorBlob.size }];
  if (e.metadataUrl) {
    const metadata = { url: e.metadataUrl, name: fileNameOf(e.metadataUrl) };
    const blob = await download(metadata, options);
    parsed.push(await parseFile(blob, metadata.name, { signal: options.signal, projectorMetadata: true }));
    sizes.push({ name: metadata.name, size: blob.size });
  }
  const dataset = combineFiles(parsed, sizes);
  dataset.name = e.tensorName;
  let sprite: SpriteSheet | null = null;
  if (e.sprite) {
    const file = { url: e.sprite.imageUrl, name: fileNameOf(e.sprite.imageUrl) };
    const image = await download(file, options);
    sprite = await spriteSheet(image, file.name, dataset.embeddings.rows, e.sprite.singleImageDim, dataset.notes);
  }
  return { dataset, sprite };
}
