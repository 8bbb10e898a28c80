// The Embedding Projector's own files uploaded together (dropped or chosen at once): projector_config.json
// with the tensor it names (".bytes": raw float32, its shape from the config's tensorShape), the
// metadata file and the sprite sheet it names, matched by file name (the config's paths are relative to
// where it was saved, so only their last part counts here). Files the config does not name add metadata
// by the ordinary rules (load_files.ts). Which of the config's embeddings: the first whose tensor was
// uploaded with it.
import { parseProjectorConfig, type ProjectorEmbedding } from './projector.ts';
import { FileError } from './table.ts';

export interface UploadedFile {
  blob: Blob;
  name: string;
}

export interface ProjectorUpload {
  config: UploadedFile;
  embedding: ProjectorEmbedding;
  tensor: UploadedFile;
  metadata?: UploadedFile;
  sprite?: UploadedFile;
  /** The uploaded files the config does not name. */
  others: UploadedFile[];
  notes: string[];
}

/** Configs are small; a larger .json is data (rows as arrays or objects). */
const MAX_CONFIG_BYTES = 4 * 2 ** 20;

/** The last part of a path or URL, as a file name. */
function baseName(url: string): string {
  const path = new URL(url).pathname;
  return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
}

/** Whether `text` is a Projector config: a JSON object with an "embeddings" list. */
function looksLikeConfig(text: string): boolean {
  try {
    const json = JSON.parse(text) as { embeddings?: unknown } | null;
    return json !== null && typeof json === 'object' && Array.isArray(json.embeddings);
  } catch {
    return false;
  }
}

/** The first projector_config.json among `files`, with its text, or null. */
async function findConfig(files: UploadedFile[]): Promise<{ config: UploadedFile; text: string } | null> {
  for (const f of files) {
    if (!/\.json$/i.test(f.name) || f.blob.size > MAX_CONFIG_BYTES) continue;
    const content = await f.blob.text();
    if (looksLikeConfig(content)) return { config: f, text: content };
  }
  return null;
}

/**
 * The embeddings of an uploaded projector_config.json whose tensors were uploaded with it (null when no
 * config is among `files`): when there are several, the app asks which (issue 24, item 2).
 */
export async function uploadedEmbeddings(
  files: UploadedFile[],
): Promise<{ config: string; embeddings: { name: string; shape: [number, number] }[] } | null> {
  const found = await findConfig(files);
  if (!found) return null;
  let embeddings: ProjectorEmbedding[];
  try {
    embeddings = parseProjectorConfig(found.text, 'file:///upload/', found.config.name);
  } catch {
    return null; // loadDataset says what is wrong with it
  }
  const names = new Set(files.map((f) => f.name));
  return {
    config: found.config.name,
    embeddings: embeddings
      .filter((e) => names.has(baseName(e.tensorUrl)))
      .map((e) => ({ name: e.tensorName, shape: e.tensorShape })),
  };
}

/**
 * The Projector's files among `files`, or null when none is a projector_config.json (the upload is read
 * by the ordinary rules). `embedding`: the tensorName to show when several of the config's tensors were
 * uploaded (the first otherwise); the others are left out, with a note. Errors name the config and what
 * is missing.
 */
export async function projectorUpload(files: UploadedFile[], embeddingName?: string): Promise<ProjectorUpload | null> {
  const found = await findConfig(files);
  if (!found) {
    const bytes = files.find((f) => /\.bytes$/i.test(f.name));
    if (bytes) {
      throw new FileError(
        bytes.name,
        "is raw float32 values without their shape: choose its projector_config.json together with it (the config's tensorShape says how many rows and columns)",
      );
    }
    return null;
  }
  const { config, text } = found;
  const embeddings = parseProjectorConfig(text, 'file:///upload/', config.name);
  const byName = new Map(files.map((f) => [f.name, f]));
  const uploaded = embeddings.filter((e) => byName.has(baseName(e.tensorUrl)));
  if (uploaded.length === 0) {
    const named = [...new Set(embeddings.map((e) => baseName(e.tensorUrl)))];
    throw new FileError(
      config.name,
      named.length === 1
        ? `names the tensor ${named[0]}; choose it together with the config`
        : `names ${named.length} tensors (${named.slice(0, -1).join(', ')} and ${named.at(-1)}), one per embedding; choose the one to probe together with the config`,
    );
  }
  let embedding = uploaded[0];
  if (embeddingName !== undefined) {
    const named = uploaded.find((e) => e.tensorName === embeddingName);
    if (!named)
      throw new FileError(
        config.name,
        `has no uploaded embedding named “${embeddingName}” (uploaded: ${uploaded.map((e) => e.tensorName).join(', ')})`,
      );
    embedding = named;
  }
  const tensor = byName.get(baseName(embedding.tensorUrl))!;
  const metadata = embedding.metadataUrl ? byName.get(baseName(embedding.metadataUrl)) : undefined;
  const sprite = embedding.sprite ? byName.get(baseName(embedding.sprite.imageUrl)) : undefined;
  // The config's other tensors (and their own metadata and sprites) are not metadata of this one.
  const otherFiles = new Set(
    uploaded
      .filter((e) => e !== embedding)
      .flatMap((e) => [e.tensorUrl, e.metadataUrl, e.sprite?.imageUrl].filter((u): u is string => !!u).map(baseName)),
  );
  const notes: string[] = [];
  if (embeddings.length > 1) {
    notes.push(
      `${config.name}: showing “${embedding.tensorName}” of ${embeddings.length} embeddings${embeddingName === undefined ? ' (the first whose tensor was uploaded)' : ''}`,
    );
  }
  if (embedding.metadataUrl && !metadata)
    notes.push(`${config.name}: its metadata ${baseName(embedding.metadataUrl)} was not uploaded`);
  if (embedding.sprite && !sprite)
    notes.push(
      `${config.name}: its sprite sheet ${baseName(embedding.sprite.imageUrl)} was not uploaded; no thumbnails`,
    );
  const used = new Set([config, tensor, metadata, sprite]);
  const left = files.filter((f) => !used.has(f) && otherFiles.has(f.name));
  if (left.length) notes.push(`left out: ${left.map((f) => f.name).join(', ')} (of the config's other embeddings)`);
  return {
    config,
    embedding,
    tensor,
    metadata,
    sprite,
    others: files.filter((f) => !used.has(f) && !otherFiles.has(f.name)),
    notes,
  };
}
