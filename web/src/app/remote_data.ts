// Data by URL for the session: a link's ?data= (+ ?metadata=) and ?ood= files, and an Embedding
// Projector config (?config=, one of its embeddings by tensorName, asked when the link names none).
// Nothing is fetched from another site before the reader confirms it (prompts.ts) or the page that
// embeds the app allowed it; the worker then downloads with progress and cancel (io/load_urls.ts).
import { fileNameOf } from '../io/fetch_file.ts';
import type { DatasetSummary } from '../common/data/dataset.ts';
import { notify, request } from '../common/state/engine_tasks.ts';
import { chooseEmbedding, confirmOrigins } from '../common/state/prompts.ts';
import type { DataRef } from '../common/state/session.ts';

type UrlRef = Extract<DataRef, { kind: 'url' }>;

/** What loading left out or read specially (a sprite that could not be downloaded, ...), said once. */
function tellNotes(summary: DatasetSummary): void {
  if (summary.notes.length) notify('info', `Loaded ${summary.name}: ${summary.notes.join('; ')}.`);
}
type ProjectorRef = Extract<DataRef, { kind: 'projector' }>;

export async function loadUrlData(ref: UrlRef): Promise<{ summary: DatasetSummary; ref: DataRef }> {
  const urls = [ref.data, ...ref.metadata];
  await confirmOrigins(urls);
  const files = urls.map((url) => ({ url, name: fileNameOf(url) }));
  const summary = await request(`Loading ${files.map((f) => f.name).join(' + ')}`, {
    kind: 'load-urls',
    role: 'main',
    name: files.map((f) => f.name).join(' + '),
    urls: files,
  });
  tellNotes(summary);
  return { summary, ref };
}

export async function loadOodUrl(url: string): Promise<DatasetSummary> {
  await confirmOrigins([url]);
  const name = fileNameOf(url);
  return request(`Loading the OOD set ${name}`, { kind: 'load-urls', role: 'ood', name, urls: [{ url, name }] });
}

/** The config's embedding named in `ref` (or the one the reader picks), with its metadata and sprite. */
export async function loadProjectorData(ref: ProjectorRef): Promise<{ summary: DatasetSummary; ref: DataRef }> {
  await confirmOrigins([ref.config]);
  const configName = fileNameOf(ref.config);
  const embeddings = await request(`Reading ${configName}`, {
    kind: 'read-projector-config',
    url: ref.config,
    name: configName,
  });
  let index = embeddings.findIndex((e) => e.tensorName === ref.embedding);
  if (index < 0 && embeddings.length === 1) index = 0;
  if (index < 0) {
    const picked = await chooseEmbedding(
      configName,
      embeddings.map((e) => ({ name: e.tensorName, shape: e.tensorShape })),
      ref.embedding || undefined,
    );
    if (picked === null) throw new Error(`Not loaded: no embedding of ${configName} was chosen.`);
    index = picked;
  }
  const embedding = embeddings[index];
  await confirmOrigins([
    embedding.tensorUrl,
    ...(embedding.metadataUrl ? [embedding.metadataUrl] : []),
    ...(embedding.sprite ? [embedding.sprite.imageUrl] : []),
  ]);
  const summary = await request(`Loading ${embedding.tensorName} from ${configName}`, {
    kind: 'load-projector',
    embedding,
  });
  tellNotes(summary);
  return { summary, ref: { kind: 'projector', config: ref.config, embedding: embedding.tensorName } };
}
