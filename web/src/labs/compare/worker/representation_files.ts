// The embeddings the Compare lab compares, read from the files chosen together (or fetched by URL): every
// 2-D array becomes one representation, named after its file or tensor, kept in its own precision
// (float32 stays float32: K files of n x d take K n d 4 bytes, never a float64 copy of them all).
//   .npy                     one representation, named after the file (float32 streamed into its array)
//   .npz                     each 2-D array with more than one column, "file/array" (NaN/Inf refused, naming the array and element)
//   .safetensors             the same, each tensor read by its own byte range (io/multi_arrays.ts)
//   Parquet                  each vector column (list<float>, fixed-size list), "file/column", one at a time, in a
//                            parse worker stopped when it hangs (io/isolated_parse.ts)
//   projector_config.json    each of its tensors uploaded with it (.bytes), named by tensorName
//   .csv/.tsv/.json          one representation each, by the Probe tab's rules (load_files.ts)
// A file named ood_<name> is the OOD set of the representation <name> chosen with it (as the bundled
// layers demo has them). Row counts that differ are refused here, naming both files (and again by the
// core when the comparison runs); given the rows of the dataset whose metadata defines the concepts (while
// a set of that many rows is loaded), a representation of another row count is refused too, so one wrong
// file never replaces a loaded set.
// A table chosen with the embeddings that is metadata — no embedding columns, a name like metadata.csv
// or labels.tsv, or columns that are all the dataset's own metadata columns — is set aside and said so,
// never compared as a representation; a representation that holds one of the dataset's metadata columns
// (a concept's own labels) among its dimensions is refused.
import type { Matrix } from '../../../engine/matrix.ts';
import {
  npyFloat32Matrix,
  readParquetMatrices,
  rowCountProblem,
  safetensorsMatrices,
} from '../../../io/multi_arrays.ts';
import { npzArrays } from '../../../io/npz.ts';
import { isParquet } from '../../../io/parquet.ts';
import { parseFile } from '../../../io/load_files.ts';
import { parseTensorBytes } from '../../../io/projector.ts';
import { projectorUpload, uploadedEmbeddings, type UploadedFile } from '../../../io/projector_upload.ts';
import { checkAborted, checkFiniteEmbeddings, FileError, type ParseOptions } from '../../../io/table.ts';
import type { NamedArray } from '../../../io/arrays.ts';

export interface RepresentationData {
  name: string;
  embeddings: Matrix;
  ood?: Matrix;
  /** Where it was read from: the file's name, or its URL. */
  source: string;
}

const OOD_PREFIX = /^ood_/i;
/** File names that say "metadata" or "labels" (metadata.csv, train_labels.tsv, meta.json). */
const METADATA_NAME = /(^|[_\-. ])(metadata|meta|labels?)\.(csv|tsv|txt|json)$/i;

/** What the page knows about the dataset whose metadata defines the concepts. */
export interface ConceptSource {
  /** Its name ("digits"). */
  dataset: string;
  /** Its rows: when given, every representation must have as many (the handler gives them while a set of
   * that many rows is loaded, so that one wrong file never replaces it). */
  rows?: number;
  /** Its metadata columns' names (the concepts are made from them). */
  columns: string[];
}

/** A file chosen with the representations that is not one, and why. */
export interface SetAside {
  name: string;
  reason: string;
}

/** Whether a parsed table is metadata (set aside, with the reason), a representation that holds the
 * concepts' own labels (refused), or a representation. */
export function classifyTable(
  fileName: string,
  parsed: { embeddings?: unknown; dimensionNames?: string[]; columns: { name: string }[] },
  source?: ConceptSource,
): { metadata: string } | { refused: string } | 'representation' {
  const own = new Set(source?.columns ?? []);
  const dims = parsed.dimensionNames ?? [];
  const labelled = dims.filter((n) => own.has(n));
  if (!parsed.embeddings)
    return { metadata: `holds metadata columns (${parsed.columns.map((c) => c.name).join(', ')}), no embeddings` };
  if (METADATA_NAME.test(fileName))
    return {
      metadata:
        dims.length > 0
          ? `is named as metadata; its numeric column${dims.length === 1 ? '' : 's'} (${dims.join(', ')}) ${dims.length === 1 ? 'is' : 'are'} not read as a representation`
          : 'is named as metadata; its numeric columns are not read as a representation',
    };
  if (dims.length > 0 && labelled.length === dims.length)
    return {
      metadata: `its columns (${dims.join(', ')}) are ${source!.dataset}'s metadata columns, not a representation`,
    };
  if (labelled.length > 0)
    return {
      refused:
        `holds ${labelled.map((n) => `'${n}'`).join(', ')} among its dimensions: ${labelled.length > 1 ? 'columns' : 'a column'} of ` +
        `${source!.dataset}'s metadata, which the concepts are made from; a representation that holds a concept's own labels ` +
        'would find it by reading them. Remove the column, or choose it as metadata in the Probe tab',
    };
  return 'representation';
}

function matricesOf(fileName: string, arrays: NamedArray[]): { name: string; embeddings: Matrix }[] {
  const matrices = arrays.filter((a) => a.shape.length === 2 && a.shape[1] > 1);
  if (matrices.length === 0) throw new FileError(fileName, 'holds no 2-D array of embeddings');
  return matrices.map((a) => ({
    name: `${fileName}/${a.name}`,
    embeddings: { data: a.data, rows: a.shape[0], cols: a.shape[1] },
  }));
}

async function bytesOf(blob: Blob): Promise<Uint8Array> {
  return new Uint8Array(await blob.arrayBuffer());
}

/** A Blob's first and last 4 bytes, as isParquet reads them. */
async function parquetEnds(blob: Blob): Promise<Uint8Array> {
  const bytes = new Uint8Array(8);
  bytes.set(new Uint8Array(await blob.slice(0, 4).arrayBuffer()), 0);
  bytes.set(new Uint8Array(await blob.slice(blob.size - 4).arrayBuffer()), 4);
  return bytes;
}

/** The representations in one file (not a Projector config's); a metadata table is recorded in `setAside`. */
async function fromFile(
  file: UploadedFile,
  options: ParseOptions,
  source?: ConceptSource,
  setAside?: SetAside[],
): Promise<{ name: string; embeddings: Matrix }[]> {
  const lower = file.name.toLowerCase();
  const reading = { signal: options.signal, onProgress: options.onProgress };
  if (lower.endsWith('.npy')) {
    // float32 streamed into its array (the file's bytes never held twice); other dtypes below.
    const a = await npyFloat32Matrix(file.blob, file.name, reading);
    if (a) return [{ name: file.name, embeddings: { data: a.data, rows: a.shape[0], cols: a.shape[1] } }];
  }
  if (lower.endsWith('.npz')) {
    const arrays = npzArrays(await bytesOf(file.blob), file.name);
    const matrices = matricesOf(file.name, arrays);
    // The whole-file reader leaves finiteness to fromArrays; every 2-D array here is an embedding.
    for (const a of arrays.filter((x) => x.shape.length === 2 && x.shape[1] > 1)) {
      checkFiniteEmbeddings(file.name, { data: a.data, cols: a.shape[1] }, `array '${a.name}' element`);
    }
    return matrices;
  }
  if (lower.endsWith('.safetensors'))
    return matricesOf(file.name, await safetensorsMatrices(file.blob, file.name, reading));
  if (lower.endsWith('.parquet') || (file.blob.size >= 8 && isParquet(await parquetEnds(file.blob)))) {
    // Read by ranges of the Blob (only the footer and the vector columns' chunks, one column at a time), in
    // a parse worker where there are workers: hyparquet can hang or exhaust memory on a damaged page.
    return matricesOf(file.name, await readParquetMatrices(file.blob, file.name, reading));
  }
  const parsed = await parseFile(file.blob, file.name, options);
  const kind = classifyTable(file.name, parsed, source);
  if (kind !== 'representation' && 'refused' in kind) throw new FileError(file.name, kind.refused);
  if (kind !== 'representation') {
    if (!setAside) throw new FileError(file.name, `${kind.metadata}: it cannot be a representation`);
    setAside.push({ name: file.name, reason: kind.metadata });
    return [];
  }
  return [{ name: file.name, embeddings: parsed.embeddings! }];
}

/**
 * The representations of the files chosen together, in the order chosen (a Projector config's tensors in
 * the config's order); `source` names where each file came from (its URL, for a download).
 */
export async function readRepresentations(
  files: UploadedFile[],
  options: ParseOptions & { sources?: Map<string, string>; concepts?: ConceptSource; setAside?: SetAside[] } = {},
): Promise<RepresentationData[]> {
  if (files.length === 0) throw new FileError('compare', 'no files chosen');
  const out: RepresentationData[] = [];
  let rest = files;
  const projector = await uploadedEmbeddings(files);
  if (projector) {
    const used = new Set<string>([projector.config]);
    for (const { name } of projector.embeddings) {
      const upload = await projectorUpload(files, name);
      if (!upload) break;
      checkAborted(options.signal, upload.tensor.name);
      const parsed = parseTensorBytes(
        await bytesOf(upload.tensor.blob),
        upload.embedding.tensorShape,
        upload.tensor.name,
      );
      out.push({
        name,
        embeddings: parsed.embeddings!,
        source: options.sources?.get(upload.tensor.name) ?? upload.tensor.name,
      });
      used.add(upload.tensor.name);
      if (upload.metadata) used.add(upload.metadata.name);
      if (upload.sprite) used.add(upload.sprite.name);
    }
    rest = files.filter((f) => !used.has(f.name));
  }
  const oodFiles = rest.filter((f) => OOD_PREFIX.test(f.name));
  for (const [i, file] of rest.entries()) {
    if (OOD_PREFIX.test(file.name) || /\.(png|jpe?g)$/i.test(file.name)) continue;
    checkAborted(options.signal, file.name);
    for (const r of await fromFile(
      file,
      { signal: options.signal, onProgress: (f) => options.onProgress?.((i + f) / rest.length) },
      options.concepts,
      options.setAside,
    )) {
      out.push({ ...r, source: options.sources?.get(file.name) ?? file.name });
    }
  }
  for (const file of oodFiles) {
    const owner = out.find((r) => r.name === file.name.replace(OOD_PREFIX, ''));
    if (!owner)
      throw new FileError(
        file.name,
        `is named as an OOD set (ood_<name>), but no representation ${file.name.replace(OOD_PREFIX, '')} was chosen with it`,
      );
    const [ood] = await fromFile(file, { signal: options.signal });
    if (ood.embeddings.cols !== owner.embeddings.cols) {
      throw new FileError(file.name, `has ${ood.embeddings.cols} columns, ${owner.name} has ${owner.embeddings.cols}`);
    }
    owner.ood = ood.embeddings;
  }
  if (out.length === 0) {
    const aside = options.setAside?.length
      ? ` (${options.setAside.map((a) => `${a.name} ${a.reason}`).join('; ')})`
      : '';
    throw new FileError(files[0].name, `no embeddings among the chosen files${aside}`);
  }
  const c = options.concepts;
  const wrong = c?.rows !== undefined ? out.find((r) => r.embeddings.rows !== c.rows) : undefined;
  if (c?.rows !== undefined && wrong)
    throw new FileError(
      wrong.source,
      `has ${wrong.embeddings.rows.toLocaleString('en-US')} rows; ${c.dataset}, whose metadata defines the concepts, has ` +
        `${c.rows.toLocaleString('en-US')}: a representation holds one row per row of the dataset, in its order ` +
        '(the representations loaded before are kept)',
    );
  const mismatch = rowCountProblem(out.map((r) => ({ name: r.name, source: r.source, rows: r.embeddings.rows })));
  if (mismatch) throw mismatch;
  return out;
}
