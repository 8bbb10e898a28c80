// Datasets by URL, for the engine worker: the files of a link (?data=, ?metadata=, ?ood=), the bundled
// demo, and an Embedding Projector config's embedding with its metadata and sprite sheet. Each file is
// downloaded with progress in bytes and cancel (fetch_file.ts), except Parquet, which is read by range
// requests so only its footer and the columns gpprobe uses cross the network (parquet_over_http.ts),
// in a parse worker that can be stopped (isolated_parse.ts). Then the files combine into one dataset
// by the upload rules (load_files.ts).
import type { Progress } from '../engine/progress.ts';
import { fetchBlob, fileNameOf } from './fetch_file.ts';
import { canIsolate, parseIsolated } from './isolated_parse.ts';
import { combineFiles, isProjectorPair, parseFile, type Dataset } from './load_files.ts';
import { readParquetOverHttp } from './parquet_over_http.ts';
import {
  parseProjectorConfig,
  parseTensorBytes,
  spriteSheet,
  type ProjectorEmbedding,
  type SpriteSheet,
} from './projector.ts';
import { checkAborted, FileError, type ParsedFile } from './table.ts';

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

/**
 * Parquet over HTTP, read by range requests (parquet_over_http.ts). Where workers exist (the browser)
 * the reading and decoding run in a parse worker that is stopped on cancel or when the reader stops
 * making progress (isolated_parse.ts): hyparquet can spin forever on a damaged page.
 */
function readRemoteParquet(file: UrlFile, options: LoadUrlOptions): Promise<{ parsed: ParsedFile; size: number }> {
  return canIsolate()
    ? parseIsolated('parquet', { url: file.url }, file.name, options)
    : readParquetOverHttp(file.url, file.name, options);
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
    parsed.push(
      await parseFile(blob, file.name, {
        signal: options.signal,
        projectorMetadata: projectorPair && /metadata\.tsv$/i.test(file.name),
        onProgress: (fraction) => options.onProgress({ stage: `reading ${file.name}`, done: fraction, total: 1 }),
      }),
    );
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
 * a thumbnail per row (a sheet that does not is left out, with a note). Only the tensor is required:
 * metadata or a sprite that cannot be downloaded is left out with a note naming it and why.
 */
export async function loadProjectorEmbedding(
  e: ProjectorEmbedding,
  options: LoadUrlOptions,
): Promise<{ dataset: Dataset; sprite: SpriteSheet | null }> {
  const tensor = { url: e.tensorUrl, name: fileNameOf(e.tensorUrl) };
  const tensorBlob = await download(tensor, options);
  const parsed: ParsedFile[] = [
    /\.bytes$/i.test(tensor.name)
      ? parseTensorBytes(new Uint8Array(await tensorBlob.arrayBuffer()), e.tensorShape, tensor.name)
      : await parseFile(tensorBlob, tensor.name, { signal: options.signal }),
  ];
  const sizes = [{ name: tensor.name, size: tensorBlob.size }];
  // The metadata and the sprite sheet are optional (issue 24, item 1): one that cannot be downloaded is
  // left out with a note saying what is missing and why, and the tensor loads (as an upload does).
  const missing: string[] = [];
  const optional = async (file: UrlFile): Promise<Blob | null> => {
    try {
      return await download(file, options);
    } catch (error) {
      checkAborted(options.signal, file.name);
      missing.push(error instanceof Error ? error.message : String(error));
      return null;
    }
  };
  if (e.metadataUrl) {
    const metadata = { url: e.metadataUrl, name: fileNameOf(e.metadataUrl) };
    const blob = await optional(metadata);
    if (blob) {
      parsed.push(await parseFile(blob, metadata.name, { signal: options.signal, projectorMetadata: true }));
      sizes.push({ name: metadata.name, size: blob.size });
    } else {
      missing[missing.length - 1] += ': loaded without its metadata (no columns for a concept)';
    }
  }
  const dataset = combineFiles(parsed, sizes);
  dataset.name = e.tensorName;
  let sprite: SpriteSheet | null = null;
  if (e.sprite) {
    const file = { url: e.sprite.imageUrl, name: fileNameOf(e.sprite.imageUrl) };
    const image = await optional(file);
    if (image)
      sprite = await spriteSheet(image, file.name, dataset.embeddings.rows, e.sprite.singleImageDim, dataset.notes);
    else missing[missing.length - 1] += ': no thumbnails';
  }
  dataset.notes.push(...missing);
  return { dataset, sprite };
}
