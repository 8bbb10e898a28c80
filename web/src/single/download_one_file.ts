// Share → Download as one file (docs/embed.md, "One file"): the data the app holds and the current
// session, written into the one-file page's template. The data are the files the app read, as they
// were: an upload's (kept in browser storage), a demo's or a URL's (fetched again, from where they were
// read), a Projector config's (it, and its embedding's tensor, metadata and sprite sheet), or, in a
// one-file page, the page's own. The template is the hosted app's gpprobe-one-file.html, or, in a
// one-file page, the page itself rebuilt from its own elements (template.ts).
import { currentLink } from '../app/link_actions.ts';
import { loadFiles } from '../app/file_store.ts';
import { fileNameOf } from '../io/fetch_file.ts';
import { parseProjectorConfig } from '../io/projector.ts';
import { demos, oodDataset, results, resultsStale, session } from '../common/state/session_store.ts';
import { runProbe } from '../labs/probe/state/probe_store.ts';
import type { DataRef } from '../common/state/session.ts';
import {
  encodeDataBlock,
  fillTemplate,
  ONE_FILE_LIMITS,
  OneFileError,
  type FileRole,
  type OneFileMember,
} from './one_file_format.ts';
import { embeddedFiles } from './page_files.ts';
import { stateJson } from './state_json.ts';
import { SCRIPT_ID, STYLE_ID, templateHtml } from './template.ts';

async function fetched(url: string, role: FileRole, name = fileNameOf(url)): Promise<OneFileMember> {
  const response = await fetch(url);
  if (!response.ok)
    throw new OneFileError(`${name} could not be downloaded again from ${url} (HTTP ${response.status})`);
  return { name, role, bytes: new Uint8Array(await response.arrayBuffer()) };
}

async function stored(key: 'main' | 'ood', role: FileRole): Promise<OneFileMember[]> {
  const files = await loadFiles(key).catch(() => null);
  if (!files?.length)
    throw new OneFileError(
      'the uploaded files are not kept in this browser (too large, or storage refused them): use gpprobe-publish on them',
    );
  return Promise.all(
    files.map(async (f) => ({ name: f.name, role, bytes: new Uint8Array(await f.blob.arrayBuffer()) })),
  );
}

/** The files of the main data `ref`, as the app read them. */
async function dataFiles(ref: DataRef): Promise<OneFileMember[]> {
  if (ref.kind === 'upload') return stored('main', 'main');
  if (ref.kind === 'demo') {
    const demo = demos.value.find((d) => d.id === ref.id);
    if (!demo) throw new OneFileError(`the demo "${ref.id}" is not available`);
    const base = new URL(`demo/${demo.id}/`, document.baseURI);
    return Promise.all(demo.files.map((f) => fetched(new URL(f, base).href, 'main', f)));
  }
  if (ref.kind === 'url') return Promise.all([ref.data, ...ref.metadata].map((u) => fetched(u, 'main')));
  const config = await fetched(ref.config, 'main');
  const embeddings = parseProjectorConfig(new TextDecoder().decode(config.bytes), ref.config, config.name);
  const embedding = embeddings.find((e) => e.tensorName === ref.embedding) ?? embeddings[0];
  const urls = [embedding.tensorUrl, embedding.metadataUrl, embedding.sprite?.imageUrl].filter((u): u is string => !!u);
  return [config, ...(await Promise.all(urls.map((u) => fetched(u, 'main'))))];
}

/** The OOD set's files, when the session has one the page can carry. */
async function oodFiles(): Promise<OneFileMember[]> {
  const ood = session.value.ood;
  if (ood.kind !== 'file' || !oodDataset.value) return [];
  if (ood.url) return [await fetched(ood.url, 'ood')];
  const data = session.value.data;
  if (data?.kind === 'demo') {
    const demo = demos.value.find((d) => d.id === data.id);
    const base = new URL(`demo/${data.id}/`, document.baseURI);
    return Promise.all((demo?.ood ?? []).map((f) => fetched(new URL(f, base).href, 'ood', f)));
  }
  return stored('ood', 'ood');
}

/** The page's template: this page's own (a one-file page), or the hosted app's copy beside it. */
async function template(): Promise<string> {
  const script = document.getElementById(SCRIPT_ID);
  const style = document.getElementById(STYLE_ID);
  const csp = document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content');
  if (embeddedFiles.value && script && style && csp)
    return templateHtml({ csp, css: style.textContent ?? '', js: script.textContent ?? '' });
  const response = await fetch(new URL('gpprobe-one-file.html', document.baseURI));
  if (!response.ok)
    throw new OneFileError(
      `this copy of the app has no one-file template (gpprobe-one-file.html: HTTP ${response.status}); it is built by scripts/make/build_single.mjs`,
    );
  return response.text();
}

/** The one-file page of what the app shows now, as text. */
export async function oneFileHtml(): Promise<string> {
  // A probe updated in place after clicks is refitted first, as a link is made: the page computes it fresh.
  if (results.value && (resultsStale.value || results.value.update.kind === 'incremental')) await runProbe(true);
  const link = currentLink.value;
  const ref = link.session.data;
  if (!ref) throw new OneFileError('no data are loaded');
  const own = embeddedFiles.value;
  if (own) {
    // A one-file page writes the data it holds: files uploaded into it since are not kept anywhere.
    const held = own.filter((f) => f.role === 'main').map((f) => `${f.file.name}:${f.file.size}`);
    const shown = ref.kind === 'upload' ? ref.files.map((f) => `${f.name}:${f.size}`) : [];
    if (held.join('|') !== shown.join('|'))
      throw new OneFileError(
        "this page writes only the data it was opened with; for other data use the hosted app's Share or gpprobe-publish",
      );
  }
  const keepOod = session.value.ood.kind === 'file' && oodDataset.value !== null;
  const members = own
    ? await Promise.all(
        own
          .filter((f) => f.role === 'main' || keepOod)
          .map(async (f) => ({ name: f.file.name, role: f.role, bytes: new Uint8Array(await f.file.arrayBuffer()) })),
      )
    : [...(await dataFiles(ref)), ...(await oodFiles())];
  const total = members.reduce((n, m) => n + m.bytes.length, 0);
  if (total > ONE_FILE_LIMITS.filesBytes)
    throw new OneFileError(
      `the data's files hold ${total.toLocaleString('en-US')} bytes; a one-file page holds at most 256 MiB (${ONE_FILE_LIMITS.filesBytes.toLocaleString('en-US')} bytes): use the hosted app for these data`,
    );
  const state = stateJson({ session: link.session, drawn: link.drawn, view: link.view });
  delete state.ood; // the OOD set is the block's "ood" files, or a column split the state keeps below
  if (link.session.ood.kind === 'column') state.ood = link.session.ood;
  return fillTemplate(await template(), await encodeDataBlock(members, { state }));
}
