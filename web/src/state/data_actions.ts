// Loading data into the engine: the bundled demos, uploads (kept in browser storage for reloads), the
// OOD set, session files, and restoring the last session at start-up. A failed load keeps what was loaded.
import { batch } from '@preact/signals';
import type { DatasetRole, DatasetSummary } from '../worker/probe_protocol.ts';
import { notify, report, request } from './engine_tasks.ts';
import { deleteFiles, loadFiles, saveFiles } from './file_store.ts';
import { DEFAULT_SESSION, defaultConcept, parseSession, type Session } from './session.ts';
import {
  commit, dataset, demos, draw, history, map, oodDataset, results, selected, session, SESSION_KEY,
} from './store.ts';


function sessionFor(data: Session['data'], template: Partial<Session> = {}): Session {
  return { ...DEFAULT_SESSION, epsilon: session.value.epsilon, strength: session.value.strength, ...template, data, observations: [] };
}

async function afterMainDataset(d: DatasetSummary, next: Session): Promise<void> {
  batch(() => {
    dataset.value = d;
    results.value = null;
    map.value = null;
    selected.value = null;
    history.value = { past: [], future: [] };
    session.value = next;
    if (next.ood.kind !== 'file') oodDataset.value = null;
  });
  if (session.value.observations.length === 0 && session.value.concept) await draw();
  history.value = { past: [], future: [] };
  request('Computing the map', { kind: 'map' }).then((m) => { map.value = m; }, report);
}

export async function loadDemo(id: string): Promise<void> {
  const demo = demos.value.find((d) => d.id === id);
  if (!demo) {
    notify('error', `demo "${id}" is not available`);
    return;
  }
  const base = new URL(`demo/${demo.id}/`, document.baseURI);
  try {
    const summary = await request(`Loading ${demo.title}`, {
      kind: 'load-urls', role: 'main', name: demo.title,
      urls: demo.files.map((f) => ({ url: new URL(f, base).href, name: f })),
    });
    const template = demo.session ?? {};
    await afterMainDataset(summary, sessionFor({ kind: 'demo', id }, template));
    if (demo.ood?.length) {
      const ood = await request('Loading the OOD set', {
        kind: 'load-urls', role: 'ood', name: `${demo.title}: OOD set`,
        urls: demo.ood.map((f) => ({ url: new URL(f, base).href, name: f })),
      });
      oodDataset.value = ood;
    }
  } catch (error) {
    report(error);
  }
}

/** Loads uploaded files as the embeddings (role main) or as an OOD set. A failure keeps what was loaded. */
export async function uploadFiles(files: File[], role: DatasetRole = 'main'): Promise<void> {
  if (files.length === 0) return;
  try {
    const summary = await request(`Reading ${files.map((f) => f.name).join(', ')}`, {
      kind: 'load-files', role, files: files.map((f) => ({ blob: f, name: f.name })),
    });
    const refs = files.map((f) => ({ name: f.name, size: f.size }));
    if (role === 'main') {
      const next = sessionFor({ kind: 'upload', files: refs }, { concept: defaultConcept(summary.columns) });
      await afterMainDataset(summary, next);
    } else {
      oodDataset.value = summary;
      commit({ ...session.value, ood: { kind: 'file', files: refs } });
    }
    saveFiles(role, files.map((f) => ({ name: f.name, blob: f }))).catch(() =>
      notify('info', 'The files could not be kept in browser storage; after a reload you will need to upload them again.'));
    notify('info', `Loaded ${summary.name}: ${summary.rows.toLocaleString()} rows × ${summary.cols} dimensions` +
      (summary.notes.length ? ` (${summary.notes.join('; ')})` : ''));
  } catch (error) {
    report(error);
  }
}

export async function clearOod(): Promise<void> {
  await request('Removing the OOD set', { kind: 'clear-dataset', role: 'ood' }).catch(report);
  oodDataset.value = null;
  deleteFiles('ood').catch(() => undefined);
  commit({ ...session.value, ood: { kind: 'none' } });
}


export function sessionJson(): string {
  return JSON.stringify(session.value, null, 2);
}

export async function importSession(text: string): Promise<void> {
  let next: Session;
  try {
    next = parseSession(text);
  } catch (error) {
    report(error);
    return;
  }
  const current = session.value.data;
  if (next.data?.kind === 'demo' && (current?.kind !== 'demo' || current.id !== next.data.id)) {
    await loadDemo(next.data.id);
  } else if (next.data?.kind === 'upload') {
    const loaded = dataset.value?.files.map((f) => `${f.name}:${f.size}`).join('|');
    const wanted = next.data.files.map((f) => `${f.name}:${f.size}`).join('|');
    if (loaded !== wanted) {
      notify('error', `This session was made with ${next.data.files.map((f) => f.name).join(' + ')}; upload those files, then import the session again.`);
      return;
    }
  }
  const rows = dataset.value?.rows ?? 0;
  commit({ ...next, observations: next.observations.filter((r) => r < rows) });
  notify('info', 'Session imported.');
}

export async function restore(): Promise<boolean> {
  let saved: Session | null = null;
  try {
    const text = localStorage.getItem(SESSION_KEY);
    if (text) saved = parseSession(text);
  } catch {
    saved = null;
  }
  if (!saved?.data) return false;
  try {
    if (saved.data.kind === 'demo') {
      await loadDemo(saved.data.id);
    } else {
      const files = await loadFiles('main').catch(() => null);
      if (!files) {
        notify('info', `Your last session used ${saved.data.files.map((f) => f.name).join(' + ')}, which this browser did not keep; showing the demo.`);
        return false;
      }
      const summary = await request('Restoring your data', { kind: 'load-files', role: 'main', files: files.map((f) => ({ blob: f.blob, name: f.name })) });
      await afterMainDataset(summary, saved);
      if (saved.ood.kind === 'file') {
        const ood = await loadFiles('ood').catch(() => null);
        if (ood) oodDataset.value = await request('Restoring the OOD set', { kind: 'load-files', role: 'ood', files: ood.map((f) => ({ blob: f.blob, name: f.name })) });
      }
    }
    if (!dataset.value) return false;
    batch(() => {
      session.value = { ...saved!, observations: saved!.observations.filter((r) => r < dataset.value!.rows) };
      history.value = { past: [], future: [] };
    });
    return true;
  } catch (error) {
    report(error);
    return false;
  }
}
