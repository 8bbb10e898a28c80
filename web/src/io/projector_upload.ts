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

/**
 * The Projector's files among `files`, or null when none is a projector_config.json (the upload is read
 * by the ordinary rules). Errors name the config and what is missing.
 */
export async function projectorUpload(files: UploadedFile[]): Promise<ProjectorUpload | null> {
  let config: UploadedFile | null = null, text = '';
  for (const f of files) {
    if (!/\.json$/i.test(f.name) || f.blob.size > MAX_CONFIG_BYTES) continue;
    const content = await f.blob.text();
    if (looksLikeConfig(content)) {
      config = f;
      text = content;
      break;
    }
  }
  if (!config) {
    const bytes = files.find((f) => /\.bytes$/i.test(f.name));
    if (bytes) {
      throw new FileError(bytes.name, 'is raw float32 values without their shape: choose its projector_config.json together with it (the config\'s tensorShape says how many rows and columns)');
    }
    return null;
  }
  const embeddings = parseProjectorConfig(text, 'file:///upload/', config.name);
  const byName = new Map(files.map((f) => [f.name, f]));
  const embedding = embeddings.find((e) => byName.has(baseName(e.tensorUrl)));
  if (!embedding) {
    const named = [...new Set(embeddings.map((e) => baseName(e.tensorUrl)))].join(', ');
    throw new FileError(config.name, `names the tensor ${named}; choose it together with the config`);
  }
  const tensor = byName.get(baseName(embedding.tensorUrl))!;
  const metadata = embedding.metadataUrl ? byName.get(baseName(embedding.metadataUrl)) : undefined;
  const sprite = embedding.sprite ? byName.get(baseName(embedding.sprite.imageUrl)) : undefined;
  const notes: string[] = [];
  if (embeddings.length > 1) notes.push(`${config.name}: showing “${embedding.tensorName}” of ${embeddings.length} embeddings (the first whose tensor was uploaded)`);
  if (embedding.metadataUrl && !metadata) notes.push(`${config.name}: its metadata ${baseName(embedding.metadataUrl)} was not uploaded`);
  if (embedding.sprite && !sprite) notes.push(`${config.name}: its sprite sheet ${baseName(embedding.sprite.imageUrl)} was not uploaded; no thumbnails`);
  const used = new Set([config, tensor, metadata, sprite]);
  return { config, embedding, tensor, metadata, sprite, others: files.filter((f) => !used.has(f)), notes };
}
