// gpprobe-publish: a one-file gpprobe page (docs/embed.md, "One file") from files on disk, in Node. The
// files are read by the app's own readers (web/src/io), so what this accepts the page opens, and what the
// page would refuse is refused here first with the same message; the session comes from --concept,
// --per-class, --seed (read as the link parameters of those names), a session file or a link, held to the
// session schema. The files go into the page's data block as they are. Bundled into
// dist/single/gpprobe-publish.mjs (scripts/make/build_single.mjs), beside the template it fills.
import { readFile, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadDataset } from '../../web/src/io/load_files.ts';
import { parseProjectorConfig } from '../../web/src/io/projector.ts';
import { FileError, type Column } from '../../web/src/io/table.ts';
import { paramsLink } from '../../web/src/app/link_params.ts';
import { decodeLink, type LinkTarget } from '../../web/src/app/share_link.ts';
import { stateJson, targetOfState } from '../../web/src/single/state_json.ts';
import { cellText, parseSession } from '../../web/src/common/state/session.ts';
import { SCHEMA_LIMITS, SchemaError } from '../../web/src/common/state/session_schema.ts';
import {
  encodeDataBlock,
  fillTemplate,
  ONE_FILE_LIMITS,
  OneFileError,
  type OneFileMember,
} from '../../web/src/single/one_file_format.ts';

export const USAGE = `gpprobe-publish: one self-contained .html with the app, the data and the session, that runs the
probe offline from file:// or any static host (docs/embed.md, "One file").

Usage:
  gpprobe-publish --embeddings FILE [--metadata FILE ...] [--ood FILE ...]
                  [--concept COL=VALUE[,VALUE...] | --concept 'COL>=NUMBER'] [--per-class N] [--seed S]
                  [--session FILE | --link URL] [--title TEXT] --out demo.html

  --embeddings FILE   the embeddings: .npy, .npz, .csv, .tsv, .txt, .json, .jsonl, .parquet, .safetensors,
                      or an Embedding Projector projector_config.json (its tensor, metadata and sprite
                      sheet are read from the paths it names, relative to it)
  --embedding NAME    with a projector_config.json: which of its embeddings (tensorName; default the first)
  --metadata FILE     a metadata file read beside the embeddings, as the app's upload reads it (repeatable)
  --ood FILE          a file of the OOD set (repeatable)
  --concept C         the concept: column=value[,value...] or column>=number (as the link parameter)
  --per-class N       observations drawn per class (default 8)
  --seed S            the draw's seed (default 1)
  --session FILE      a session file (the app's Export session); its data is replaced by these files
  --link URL          a link the app copied (#s=...) or one with parameters (?concept=...&per-class=...)
  --title TEXT        the page's title (at most 200 characters)
  --out FILE          the page to write (required)
  --help              this text

The files go into the page as they are, compressed; at most 256 MiB of files (a million rows of 64
float32 dimensions). Threads and data by URL need the hosted app.`;

/** A problem with the command line or its files: the message says which and what. */
export class PublishError extends Error {}

export interface PublishOptions {
  embeddings: string;
  embedding?: string;
  metadata: string[];
  ood: string[];
  concept?: string;
  perClass?: string;
  seed?: string;
  session?: string;
  link?: string;
  title?: string;
  out: string;
}

/** The options of a command line; throws a PublishError for a missing or contradictory flag. */
export function readArguments(argv: string[]): PublishOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        embeddings: { type: 'string' },
        embedding: { type: 'string' },
        metadata: { type: 'string', multiple: true },
        ood: { type: 'string', multiple: true },
        concept: { type: 'string' },
        'per-class': { type: 'string' },
        seed: { type: 'string' },
        session: { type: 'string' },
        link: { type: 'string' },
        title: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new PublishError(`${error instanceof Error ? error.message : String(error)} (see --help)`);
  }
  if (values.help) return 'help';
  if (!values.embeddings) throw new PublishError('--embeddings FILE is required (see --help)');
  if (!values.out) throw new PublishError('--out FILE is required: where to write the page (see --help)');
  if (values.session !== undefined && values.link !== undefined)
    throw new PublishError('--session and --link are alternatives: give one');
  const flags = (['concept', 'per-class', 'seed'] as const).filter((k) => values[k] !== undefined);
  if (flags.length && (values.session !== undefined || values.link !== undefined))
    throw new PublishError(
      `--${flags[0]} cannot be combined with ${values.session !== undefined ? '--session' : '--link'}: the session says it`,
    );
  if (values.title !== undefined && values.title.length > 200)
    throw new PublishError(`--title is ${values.title.length} characters long; at most 200`);
  if (values.embedding !== undefined && !/\.json$/i.test(values.embeddings))
    throw new PublishError('--embedding names a tensor of a projector_config.json given as --embeddings');
  return {
    embeddings: values.embeddings,
    embedding: values.embedding,
    metadata: values.metadata ?? [],
    ood: values.ood ?? [],
    concept: values.concept,
    perClass: values['per-class'],
    seed: values.seed,
    session: values.session,
    link: values.link,
    title: values.title,
    out: values.out,
  };
}

interface DiskFile {
  path: string;
  name: string;
  role: 'main' | 'ood';
}

/** The last part of a path in a Projector config (relative to the config, or a URL). */
function lastPart(path: string): string {
  return decodeURIComponent(new URL(path, 'file:///config/').pathname.split('/').pop() ?? path);
}

/** The files of a projector_config.json given as --embeddings: it and the one embedding's tensor, metadata, sprite. */
async function projectorFiles(config: string, wanted: string | undefined): Promise<DiskFile[]> {
  const text = await readText(config);
  let embeddings;
  try {
    embeddings = parseProjectorConfig(text, 'file:///config/', basename(config));
  } catch (error) {
    throw new PublishError(error instanceof Error ? error.message : String(error));
  }
  const embedding = wanted === undefined ? embeddings[0] : embeddings.find((e) => e.tensorName === wanted);
  if (!embedding)
    throw new PublishError(
      `${config}: has no embedding named “${wanted}” (it has ${embeddings.map((e) => e.tensorName).join(', ')})`,
    );
  const at = (url: string) => {
    if (!url.startsWith('file:///config/'))
      throw new PublishError(
        `${config}: names ${url}, which is not beside it; gpprobe-publish reads files only (download it next to the config)`,
      );
    return resolve(dirname(config), decodeURIComponent(new URL(url).pathname.slice('/config/'.length)));
  };
  const files: DiskFile[] = [{ path: config, name: basename(config), role: 'main' }];
  files.push({ path: at(embedding.tensorUrl), name: lastPart(embedding.tensorUrl), role: 'main' });
  if (embedding.metadataUrl)
    files.push({ path: at(embedding.metadataUrl), name: lastPart(embedding.metadataUrl), role: 'main' });
  if (embedding.sprite)
    files.push({ path: at(embedding.sprite.imageUrl), name: lastPart(embedding.sprite.imageUrl), role: 'main' });
  return files;
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new PublishError(`${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

async function sizeOf(path: string): Promise<number> {
  try {
    const s = await stat(path);
    if (!s.isFile()) throw new PublishError(`${path}: is not a file`);
    return s.size;
  } catch (error) {
    if (error instanceof PublishError) throw error;
    throw new PublishError(`${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

/** The session the options ask for, as a link target (its data left out: the page's data are its files). */
async function sessionOf(options: PublishOptions): Promise<LinkTarget | null> {
  if (options.session !== undefined) {
    const size = await sizeOf(options.session);
    if (size > SCHEMA_LIMITS.stateBytes)
      throw new PublishError(
        `${options.session}: holds ${size.toLocaleString('en-US')} bytes; a session file is at most ${SCHEMA_LIMITS.stateBytes.toLocaleString('en-US')}`,
      );
    const text = await readText(options.session);
    const session = parseSession(text, options.session);
    return { session: { ...session, data: null }, drawn: false, view: {} };
  }
  if (options.link !== undefined) {
    let url: URL;
    try {
      url = new URL(options.link);
    } catch {
      throw new PublishError(`--link ${options.link} is not a URL`);
    }
    const state = decodeLink(url.hash);
    if (state) return { ...state, session: { ...state.session, data: null } };
    const params = new URLSearchParams(url.search);
    for (const word of ['data', 'metadata', 'config', 'embedding', 'demo', 'ood']) params.delete(word);
    const parsed = paramsLink(params, url.href);
    if (!parsed)
      throw new PublishError(`--link ${options.link} holds no session (no #s= and no concept, per-class, ...)`);
    if (parsed.problems.length) throw new PublishError(`--link: ${parsed.problems.join('; ')}`);
    return parsed.link;
  }
  const params = new URLSearchParams();
  if (options.concept !== undefined) params.set('concept', options.concept);
  if (options.perClass !== undefined) params.set('per-class', options.perClass);
  if (options.seed !== undefined) params.set('seed', options.seed);
  const parsed = paramsLink(params, 'file:///');
  if (!parsed) return null;
  if (parsed.problems.length) throw new PublishError(parsed.problems.map((p) => `--${p}`).join('; '));
  return parsed.link;
}

/** Refuses a session whose concept, query subset or rows do not fit the data. */
function checkSessionFits(target: LinkTarget, columns: Column[], rows: number, where: string): void {
  const names = columns.map((c) => c.name);
  const column = (name: string, what: string) => {
    const c = columns.find((x) => x.name === name);
    if (!c)
      throw new PublishError(
        `${what}: the data have no column “${name}” (their columns: ${names.join(', ') || 'none'})`,
      );
    return c;
  };
  const concept = target.session.concept;
  if (concept) {
    const c = column(concept.column, `${where}'s concept`);
    if (concept.kind === 'values') {
      const present = new Set(Array.from({ length: rows }, (_, i) => cellText(c, i)));
      const missing = concept.positives.filter((v) => !present.has(v));
      if (missing.length === concept.positives.length)
        throw new PublishError(`${where}'s concept: no row has ${concept.column} = ${missing.join(' or ')}`);
    } else if (c.kind !== 'number') {
      throw new PublishError(`${where}'s concept: ${concept.column} ≥ ${concept.threshold} needs a numeric column`);
    }
  }
  const q = target.session.queries;
  if (q && q.kind !== 'all') column(q.column, `${where}'s query subset`);
  const beyond = (target.session.observations ?? []).filter((r) => r >= rows);
  if (!target.drawn && beyond.length)
    throw new PublishError(
      `${where}'s observations include row ${beyond[0]}; the data have ${rows} rows (0 to ${rows - 1})`,
    );
  if (target.view.selected !== undefined && target.view.selected !== null && target.view.selected >= rows)
    throw new PublishError(`${where}'s selected row ${target.view.selected} is beyond the data's ${rows} rows`);
}

export interface Published {
  html: string;
  rows: number;
  cols: number;
  files: { name: string; size: number; role: string }[];
  notes: string[];
}

/** The page for `options`, from `template` (the built dist/single/gpprobe.html). */
export async function publish(options: PublishOptions, template: string): Promise<Published> {
  const main: DiskFile[] = /\.json$/i.test(options.embeddings)
    ? await projectorOrData(options.embeddings, options.embedding)
    : [{ path: options.embeddings, name: basename(options.embeddings), role: 'main' }];
  for (const m of options.metadata) main.push({ path: m, name: basename(m), role: 'main' });
  const ood: DiskFile[] = options.ood.map((o) => ({ path: o, name: basename(o), role: 'ood' }));
  const all = [...main, ...ood];
  for (const role of ['main', 'ood'] as const) {
    const names = all.filter((f) => f.role === role).map((f) => f.name);
    const twice = names.find((n, i) => names.indexOf(n) !== i);
    if (twice) throw new PublishError(`two files are named ${twice}: the page reads files by name; rename one`);
  }
  if (all.length > ONE_FILE_LIMITS.files)
    throw new PublishError(`${all.length} files; a one-file page holds at most ${ONE_FILE_LIMITS.files}`);
  const sizes = await Promise.all(all.map((f) => sizeOf(f.path)));
  const total = sizes.reduce((a, b) => a + b, 0);
  if (total > ONE_FILE_LIMITS.filesBytes) {
    throw new PublishError(
      `the files hold ${total.toLocaleString('en-US')} bytes (${all.map((f, i) => `${f.name} ${sizes[i].toLocaleString('en-US')}`).join(', ')}); ` +
        `a one-file page holds at most 256 MiB (${ONE_FILE_LIMITS.filesBytes.toLocaleString('en-US')} bytes, docs/embed.md "How much fits"): ` +
        'sample the rows, store the embeddings as float32, or host the app for larger data',
    );
  }
  const members: OneFileMember[] = [];
  for (const f of all) {
    const bytes = await readFile(f.path);
    members.push({ name: f.name, role: f.role, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length) });
  }
  const blobs = (role: 'main' | 'ood') =>
    members.filter((m) => m.role === role).map((m) => ({ blob: new Blob([m.bytes as BlobPart]), name: m.name }));
  // The app's readers, as the page will run them on these bytes.
  const dataset = await loadDataset(blobs('main'));
  if (ood.length) {
    const oodSet = await loadDataset(blobs('ood'));
    if (oodSet.embeddings.cols !== dataset.embeddings.cols)
      throw new PublishError(
        `the OOD set has ${oodSet.embeddings.cols} dimensions, the embeddings ${dataset.embeddings.cols}`,
      );
  }
  const target = await sessionOf(options);
  const where = options.session ?? (options.link !== undefined ? '--link' : '--concept');
  if (target) checkSessionFits(target, dataset.columns, dataset.embeddings.rows, where);
  const state = target ? stateJson(target) : undefined;
  if (state) targetOfState(state); // the page reads it with the link's schema: refuse here what it would refuse
  const base64 = await encodeDataBlock(members, {
    ...(state ? { state } : {}),
    ...(options.title !== undefined ? { title: options.title } : {}),
  });
  const notes = dataset.notes.filter((n) => !/not an image this browser can decode/.test(n));
  return {
    html: fillTemplate(template, base64),
    rows: dataset.embeddings.rows,
    cols: dataset.embeddings.cols,
    files: members.map((m) => ({ name: m.name, size: m.bytes.length, role: m.role })),
    notes,
  };
}

/** A .json given as --embeddings: a Projector config (its files), or JSON data. */
async function projectorOrData(path: string, embedding: string | undefined): Promise<DiskFile[]> {
  const size = await sizeOf(path);
  if (size <= 4 * 2 ** 20) {
    const text = await readText(path);
    let isConfig = false;
    try {
      const json = JSON.parse(text) as { embeddings?: unknown } | null;
      isConfig = json !== null && typeof json === 'object' && Array.isArray(json.embeddings);
    } catch {
      isConfig = false;
    }
    if (isConfig) return projectorFiles(path, embedding);
  }
  if (embedding !== undefined) throw new PublishError(`${path}: is not a projector_config.json; --embedding needs one`);
  return [{ path, name: basename(path), role: 'main' }];
}

/** Runs the command; returns the exit status (0 written, 1 refused data, 2 a wrong command line). */
export async function main(
  argv: string[],
  template: () => Promise<string>,
  out: { log: (s: string) => void; error: (s: string) => void } = console,
): Promise<number> {
  let options: PublishOptions | 'help';
  try {
    options = readArguments(argv);
  } catch (error) {
    out.error(`gpprobe-publish: ${(error as Error).message}`);
    return 2;
  }
  if (options === 'help') {
    out.log(USAGE);
    return 0;
  }
  try {
    const page = await publish(options, await template());
    await writeFile(options.out, page.html);
    out.log(
      `${options.out}: ${page.rows.toLocaleString('en-US')} rows × ${page.cols} dimensions ` +
        `(${page.files.map((f) => f.name).join(' + ')}), ${page.html.length.toLocaleString('en-US')} bytes`,
    );
    for (const note of page.notes) out.log(`  note: ${note}`);
    return 0;
  } catch (error) {
    const known =
      error instanceof PublishError ||
      error instanceof FileError ||
      error instanceof SchemaError ||
      error instanceof OneFileError;
    out.error(`gpprobe-publish: ${known ? (error as Error).message : `failed: ${String(error)}`}`);
    return 1;
  }
}
