// Loading data into the engine and opening sessions: the bundled demos, uploads (kept in browser
// storage for reloads, except in embeds), data by URL and Embedding Projector configs (remote_data.ts),
// the OOD set, session files, links, and restoring the last session at start-up. Every way of opening
// a session goes through openTarget(). A failed load keeps what was loaded.
import { batch, signal } from '@preact/signals';
import type { DatasetRole, DatasetSummary } from '../common/data/dataset.ts';
import { notify, report, request } from '../common/state/engine_tasks.ts';
import { deleteFiles, loadFiles, saveFiles } from './file_store.ts';
import { uploadedEmbeddings } from '../io/projector_upload.ts';
import { chooseEmbedding } from '../common/state/prompts.ts';
import { loadOodUrl, loadProjectorData, loadUrlData } from './remote_data.ts';
import { DEFAULT_SESSION, defaultConcept, parseSession, type DataRef, type Session } from '../common/state/session.ts';
import { SCHEMA_LIMITS } from '../common/state/session_schema.ts';
import type { LinkTarget } from './share_link.ts';
import {
  commit,
  dataset,
  demos,
  history,
  map,
  oodDataset,
  opening,
  provideDataLoading,
  results,
  selected,
  session,
  SESSION_KEY,
} from '../common/state/session_store.ts';
import { draw } from '../labs/probe/state/probe_store.ts';
import { showView } from './view_state.ts';

/** A session on uploaded files this browser does not have: opened once the user uploads them. */
class MissingUploads extends Error {
  constructor(readonly files: { name: string; size: number }[]) {
    super(`This session was made with ${files.map((f) => f.name).join(' + ')}, which this browser does not have.`);
  }
}

/**
 * A link (or session file) waiting for its uploaded files (issue 24, item 5): kept, with the address
 * bar's link, until the user uploads files of the same names and sizes, then applied over them.
 */
export const pendingLink = signal<LinkTarget | null>(null);

function sizeText(bytes: number): string {
  return bytes >= 2 ** 20
    ? `${(bytes / 2 ** 20).toFixed(1)} MB`
    : bytes >= 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${bytes} bytes`;
}

/** The files a pending link waits for, for messages: "emb.npy (1.2 MB) + meta.csv (3.4 KB)". */
export function pendingFilesText(target: LinkTarget): string {
  const data = target.session.data;
  return data?.kind === 'upload' ? data.files.map((f) => `${f.name} (${sizeText(f.size)})`).join(' + ') : '';
}

const fileKey = (files: { name: string; size: number }[]) =>
  files
    .map((f) => `${f.name}:${f.size}`)
    .sort()
    .join('|');

/** Embeds keep their state in their own URL: they never read or write the origin-wide saved session. */
let persistent = true;
export function setPersistent(value: boolean): void {
  persistent = value;
}

function sessionFor(data: Session['data'], template: Partial<Session> = {}): Session {
  return {
    ...DEFAULT_SESSION,
    epsilon: session.value.epsilon,
    strength: session.value.strength,
    ...template,
    data,
    observations: [],
  };
}

/** Shows `d` with the session `next`; draws the observations by `next.draw` when `drawObservations`. */
async function afterMainDataset(d: DatasetSummary, next: Session, drawObservations: boolean): Promise<void> {
  batch(() => {
    dataset.value = d;
    results.value = null;
    map.value = null;
    selected.value = null;
    history.value = { past: [], future: [] };
    session.value = { ...next, observations: next.observations.filter((r) => r < d.rows) };
    if (next.ood.kind !== 'file') oodDataset.value = null;
  });
  if (drawObservations && session.value.concept) await draw();
  history.value = { past: [], future: [] };
  request('Computing the map', { kind: 'map' }).then((m) => {
    map.value = m;
  }, report);
}

function demoBase(id: string): URL {
  return new URL(`demo/${id}/`, document.baseURI);
}

/** Loads the data `ref` names as the main dataset; returns its summary and the session defaults for it. */
async function loadData(ref: DataRef): Promise<{ summary: DatasetSummary; ref: DataRef; defaults: Partial<Session> }> {
  if (ref.kind === 'demo') {
    const demo = demos.value.find((d) => d.id === ref.id);
    if (!demo) throw new Error(`demo "${ref.id}" is not available`);
    const summary = await request(`Loading ${demo.title}`, {
      kind: 'load-urls',
      role: 'main',
      name: demo.title,
      urls: demo.files.map((f) => ({ url: new URL(f, demoBase(demo.id)).href, name: f })),
    });
    return { summary, ref, defaults: demo.session ?? {} };
  }
  if (ref.kind === 'upload') {
    const files = persistent ? await loadFiles('main').catch(() => null) : null;
    const kept = files?.map((f) => `${f.name}:${f.blob.size}`).join('|');
    if (!files || kept !== ref.files.map((f) => `${f.name}:${f.size}`).join('|')) throw new MissingUploads(ref.files);
    const summary = await request('Restoring your data', {
      kind: 'load-files',
      role: 'main',
      files: files.map((f) => ({ blob: f.blob, name: f.name })),
    });
    return { summary, ref, defaults: {} };
  }
  const loaded = ref.kind === 'url' ? await loadUrlData(ref) : await loadProjectorData(ref);
  return { ...loaded, defaults: { concept: defaultConcept(loaded.summary.columns) } };
}

/** Loads the OOD set a session names (the demo's own, an upload kept in the browser, or a URL). */
async function loadOodFor(next: Session): Promise<void> {
  if (next.ood.kind !== 'file') return;
  const data = next.data;
  let ood: DatasetSummary | null = null;
  if (next.ood.url) {
    ood = await loadOodUrl(next.ood.url);
  } else if (data?.kind === 'demo') {
    const demo = demos.value.find((d) => d.id === data.id);
    if (demo?.ood?.length) {
      ood = await request('Loading the OOD set', {
        kind: 'load-urls',
        role: 'ood',
        name: `${demo.title}: OOD set`,
        urls: demo.ood.map((f) => ({ url: new URL(f, demoBase(demo.id)).href, name: f })),
      });
    }
  } else if (persistent) {
    const files = await loadFiles('ood').catch(() => null);
    const wanted = next.ood.files.map((f) => `${f.name}:${f.size}`).join('|');
    if (files && files.map((f) => `${f.name}:${f.blob.size}`).join('|') === wanted) {
      ood = await request('Restoring the OOD set', {
        kind: 'load-files',
        role: 'ood',
        files: files.map((f) => ({ blob: f.blob, name: f.name })),
      });
    }
  }
  oodDataset.value = ood;
  // A link's ?ood= names a URL only: the session records the file it turned out to be (not an undo step).
  if (ood && next.ood.url)
    session.value = { ...session.value, ood: { kind: 'file', files: ood.files, url: next.ood.url } };
}

/** Shows the session `target` asks for over the main dataset `summary` (loaded as `ref`, with its `defaults`). */
async function showTarget(
  target: LinkTarget,
  summary: DatasetSummary,
  ref: DataRef,
  defaults: Partial<Session>,
): Promise<void> {
  const base = sessionFor(ref, defaults);
  const next: Session = {
    ...base,
    ...target.session,
    data: ref,
    observations: target.drawn ? [] : (target.session.observations ?? []),
  };
  await afterMainDataset(summary, next, target.drawn);
  await loadOodFor(next);
  batch(() => {
    showView(target.view.tab, target.view.colorBy);
    if (target.view.selected !== undefined && target.view.selected !== null && target.view.selected < summary.rows)
      selected.value = target.view.selected;
  });
}

/** What opening a session came to: opened, waiting for uploaded files, or failed (and why). */
export type OpenOutcome = { kind: 'opened' } | { kind: 'pending' } | { kind: 'failed'; reason: string };

/**
 * Opens a session: loads its data (the first demo when it names none), sets what `target` says over
 * that data's defaults, draws the observations when they are the draw's, loads the OOD set and shows
 * the view. A session on uploaded files this browser does not have waits for them (pendingLink).
 * On failure what was loaded stays, and the reason is reported and returned.
 */
export async function openSession(target: LinkTarget): Promise<OpenOutcome> {
  const ref = target.session.data ?? (demos.value[0] ? { kind: 'demo' as const, id: demos.value[0].id } : null);
  if (!ref) return { kind: 'failed', reason: 'no data to open: the demo list is not available' };
  opening.value = true;
  try {
    const loaded = await loadData(ref);
    await showTarget(target, loaded.summary, loaded.ref, loaded.defaults);
    return { kind: 'opened' };
  } catch (error) {
    if (error instanceof MissingUploads) {
      pendingLink.value = target;
      notify(
        'info',
        `This session was made with ${pendingFilesText(target)}, which this browser does not have: upload those files and it opens on them.`,
      );
      return { kind: 'pending' };
    }
    report(error);
    return { kind: 'failed', reason: error instanceof Error ? error.message : String(error) };
  } finally {
    opening.value = false;
  }
}

/** openSession, as whether it opened. */
export async function openTarget(target: LinkTarget): Promise<boolean> {
  return (await openSession(target)).kind === 'opened';
}

/**
 * Opens a demo. Chosen by the user, a link waiting for its files gives way; `keepPending`: shown while
 * it waits (start-up with nothing else to show).
 */
export async function loadDemo(id: string, { keepPending = false } = {}): Promise<void> {
  if ((await openTarget({ session: { data: { kind: 'demo', id } }, drawn: true, view: {} })) && !keepPending)
    pendingLink.value = null;
}

/** Loads uploaded files as the embeddings (role main) or as an OOD set. A failure keeps what was loaded. */
export async function uploadFiles(files: File[], role: DatasetRole = 'main'): Promise<void> {
  if (files.length === 0) return;
  try {
    // A Projector config uploaded with several of its tensors: which one (issue 24, item 2).
    let embedding: string | undefined;
    const projector = await uploadedEmbeddings(files.map((f) => ({ blob: f, name: f.name })));
    if (projector && projector.embeddings.length > 1) {
      const picked = await chooseEmbedding(projector.config, projector.embeddings);
      if (picked === null) throw new Error(`Not loaded: no embedding of ${projector.config} was chosen.`);
      embedding = projector.embeddings[picked].name;
    }
    const summary = await request(`Reading ${files.map((f) => f.name).join(', ')}`, {
      kind: 'load-files',
      role,
      files: files.map((f) => ({ blob: f, name: f.name })),
      ...(embedding !== undefined ? { embedding } : {}),
    });
    const refs = files.map((f) => ({ name: f.name, size: f.size }));
    const pending = pendingLink.value;
    const pendingData = pending?.session.data;
    if (role === 'main' && pending && pendingData?.kind === 'upload' && fileKey(pendingData.files) === fileKey(refs)) {
      // The files a link waits for: its session opens on them.
      opening.value = true;
      try {
        await showTarget(
          pending,
          summary,
          { kind: 'upload', files: refs },
          { concept: defaultConcept(summary.columns) },
        );
      } finally {
        opening.value = false;
      }
      pendingLink.value = null;
      notify('info', `Opened the link's session on ${files.map((f) => f.name).join(' + ')}.`);
    } else if (role === 'main') {
      if (pending)
        notify('info', `The link's session still waits for ${pendingFilesText(pending)}; these files are others.`);
      const next = sessionFor({ kind: 'upload', files: refs }, { concept: defaultConcept(summary.columns) });
      await afterMainDataset(summary, next, true);
    } else {
      oodDataset.value = summary;
      commit({ ...session.value, ood: { kind: 'file', files: refs } });
    }
    if (persistent && summary.streamed) {
      // A file too large for memory is read from the disk as needed; a copy in browser storage would double it on disk.
      deleteFiles(role).catch(() => undefined);
    } else if (persistent) {
      saveFiles(
        role,
        files.map((f) => ({ name: f.name, blob: f })),
      ).catch(() =>
        notify(
          'info',
          'The files could not be kept in browser storage; after a reload you will need to upload them again.',
        ),
      );
    }
    notify(
      'info',
      `Loaded ${summary.name}: ${summary.rows.toLocaleString()} rows × ${summary.cols} dimensions` +
        (summary.notes.length ? ` (${summary.notes.join('; ')})` : ''),
    );
  } catch (error) {
    report(error);
  }
}

export async function clearOod(): Promise<void> {
  await request('Removing the OOD set', { kind: 'clear-dataset', role: 'ood' }).catch(report);
  oodDataset.value = null;
  if (persistent) deleteFiles('ood').catch(() => undefined);
  commit({ ...session.value, ood: { kind: 'none' } });
}

export function sessionJson(): string {
  return JSON.stringify(session.value, null, 2);
}

/** The same data as the session shows now (then only the settings change). */
function sameData(a: DataRef | null, b: DataRef | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b) && dataset.value !== null;
}

/** A session file the user chose: refused unread when larger than the schema allows (session_schema.ts). */
export async function importSessionFile(file: File): Promise<void> {
  if (file.size > SCHEMA_LIMITS.stateBytes) {
    report(
      new Error(
        `${file.name} holds ${file.size.toLocaleString('en-US')} bytes; a session file is at most ${SCHEMA_LIMITS.stateBytes.toLocaleString('en-US')}`,
      ),
    );
    return;
  }
  await importSession(await file.text(), file.name);
}

/** A session file's text, checked against the session schema before anything is applied or saved. */
export async function importSession(text: string, name = 'the session file'): Promise<void> {
  let next: Session;
  try {
    next = parseSession(text, name);
  } catch (error) {
    report(error);
    return;
  }
  if (sameData(next.data, session.value.data)) {
    const rows = dataset.value?.rows ?? 0;
    commit({ ...next, observations: next.observations.filter((r) => r < rows) });
  } else if (!(await openTarget({ session: next, drawn: false, view: {} }))) {
    return;
  }
  pendingLink.value = null;
  notify('info', 'Session imported.');
}

/** Opens the session saved in this browser; false when there is none (or its data is gone). */
export async function restore(): Promise<boolean> {
  let saved: Session | null = null;
  try {
    const text = localStorage.getItem(SESSION_KEY);
    if (text) saved = parseSession(text, 'the session saved in this browser');
  } catch (error) {
    // Saved by an older build, or edited by hand: it cannot be opened, and the next change replaces it.
    notify('error', `${error instanceof Error ? error.message : String(error)}; it was not opened.`);
    saved = null;
  }
  if (!saved?.data) return false;
  if (saved.data.kind === 'upload' && !(await loadFiles('main').catch(() => null))) {
    notify(
      'info',
      `Your last session used ${saved.data.files.map((f) => f.name).join(' + ')}, which this browser did not keep; showing the demo.`,
    );
    return false;
  }
  return openTarget({ session: saved, drawn: false, view: {} });
}

// The labs below the shell load data through the session store (the OOD tab's upload).
provideDataLoading({ uploadFiles, clearOod });
