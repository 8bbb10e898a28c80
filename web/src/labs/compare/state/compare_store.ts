// The Compare lab's state: the representations held by the worker, which concepts to compare (the
// session's concept, or every value of a metadata column: the concept × representation grid), the last
// comparison (kept across tabs, marked stale when what it was computed on changes), the table's sort, and
// opening one (concept, representation) probe in the Probe tab. The comparison runs in the engine worker.
import { batch, computed, signal } from '@preact/signals';
import { isCancelled } from '../../../engine/errors.ts';
import type {
  CompareRun,
  ComparedConceptRequest,
  RepresentationCurve,
  RepresentationSummary,
} from '../worker/protocol.ts';
import { conceptLabels, describeConcept, distinctValues, type Concept } from '../../../common/state/session.ts';
import { notify, report, request, startTask, tasks, type Task } from '../../../common/state/engine_tasks.ts';
import {
  commit,
  dataset,
  demos,
  labels,
  map,
  oodDataset,
  results,
  selected,
  session,
} from '../../../common/state/session_store.ts';
import { activeTab } from '../../../common/state/active_tab.ts';
import { confirmOrigins } from '../../../common/state/prompts.ts';
import type { CompareLink } from './compare_link.ts';
import type { SetAside } from '../worker/representation_files.ts';
import { fileNameOf } from '../../../io/fetch_file.ts';

/** Where the bundled multi-layer demo lives (scripts/data/make_digits_layers.py), relative to the page. */
export const LAYERS_DEMO = {
  folder: 'demo/digits_layers/',
  files: ['layer_0_pixels.npy', 'layer_1_hidden.npy', 'layer_2_hidden.npy', 'layer_3_logits.npy'],
  ood: ['ood_layer_0_pixels.npy', 'ood_layer_1_hidden.npy', 'ood_layer_2_hidden.npy', 'ood_layer_3_logits.npy'],
  metadata: 'metadata.csv',
};

/** Which concepts a run compares: the session's, or one per value of a column (at most MAX_GRID_VALUES). */
export type ConceptChoice = { kind: 'session' } | { kind: 'values'; column: string };
export const MAX_GRID_VALUES = 12;

/** Draws of the observations a comparison runs over (1: the one set alone); the lab's default is 20. */
export const DEFAULT_DRAWS = 20;
export const MAX_DRAWS = 1000;

export interface CompareRecord {
  run: CompareRun;
  /** The draws it ran over (1: the one set of observations) and how they were made. */
  draws: number;
  drawMode: 'redraw' | 'bootstrap';
  /** The concept of each row of the grid, as the session would hold it (to open a cell in the Probe tab). */
  concepts: Concept[];
  representations: RepresentationSummary[];
  epsilon: number;
  strength: number;
  basis: string;
}

export const representations = signal<RepresentationSummary[]>([]);
/** Files chosen with the representations that were set aside as metadata, and why (the last upload's). */
export const setAsideFiles = signal<SetAside[]>([]);
/** Where the representations came from, when a link can say it (the demo, or URLs); null for uploads. */
export const sources = signal<CompareLink['sources'] | null>(null);
/** The view an embed shows (and a link carries): the table, the layer profile or the grid. */
export const compareView = signal<CompareLink['view']>('table');
export const conceptChoice = signal<ConceptChoice>({ kind: 'session' });
export const record = signal<CompareRecord | null>(null);
export const outcome = signal<{ kind: 'cancelled' | 'error'; text: string } | null>(null);
export const activeRun = signal<number | null>(null);
/** The concept (row of the grid) whose table and profile show. */
export const shownConcept = signal(0);
/** Draws of the observations to compare over (seeded by the sidebar's draw seed). */
export const compareDraws = signal(DEFAULT_DRAWS);
export type SortKey =
  | 'position'
  | 'width'
  | 'basisAuroc'
  | 'looAuroc'
  | 'heldoutAuroc'
  | 'meanEpisteme'
  | 'meanAlea'
  | 'decidedFraction'
  | 'oodAuroc'
  | 'pValueAgainstBest'
  | 'drawMean'
  | 'drawSpread'
  | 'drawHolm';
export const sort = signal<{ key: SortKey; descending: boolean }>({ key: 'position', descending: false });

export const runTask = computed<Task | null>(() => {
  const id = activeRun.value;
  return id === null ? null : (tasks.value.find((t) => t.id === id) ?? null);
});

/** What a comparison depends on besides the representations: data, concepts, observations, hyperparameters. */
function basisOf(): string {
  const d = dataset.value,
    s = session.value,
    c = conceptChoice.value;
  return JSON.stringify([
    d?.name,
    d?.rows,
    representations.value.map((r) => r.name),
    c,
    c.kind === 'session' ? [s.concept, s.observations] : s.draw,
    s.epsilon,
    s.strength,
    compareDraws.value,
    s.draw.seed,
  ]);
}

export const stale = computed(() => record.value !== null && record.value.basis !== basisOf());

/** Why a comparison cannot run now, or null. */
export const blocker = computed<string | null>(() => {
  const d = dataset.value,
    reps = representations.value,
    c = conceptChoice.value;
  if (reps.length === 0)
    return 'Load the representations to compare: several embeddings of the same rows (or the bundled layers demo).';
  if (!d)
    return 'Load a dataset in the Probe tab first: its metadata columns define the concepts (the representations share its rows).';
  const wrong = reps.find((r) => r.rows !== d.rows);
  if (wrong)
    return `${wrong.name} has ${wrong.rows.toLocaleString('en-US')} rows, the dataset (${d.name}) has ${d.rows.toLocaleString('en-US')}: the representations must hold its rows, in its order.`;
  if (c.kind === 'session') {
    if (!session.value.concept || !labels.value)
      return 'Choose a concept in the sidebar, or compare every value of a column.';
    if (session.value.observations.length < 2) return 'Draw or pick observations of both classes in the sidebar.';
  } else if (!d.columns.some((col) => col.name === c.column)) {
    return `The dataset has no column “${c.column}”.`;
  }
  return null;
});

export async function loadFiles(files: File[]): Promise<void> {
  try {
    const d = dataset.value;
    const { representations: list, setAside } = await request(
      `Reading ${files.length} file${files.length === 1 ? '' : 's'} to compare`,
      {
        kind: 'compare-load-files',
        files: files.map((f) => ({ blob: f, name: f.name })),
        concepts: d ? { dataset: d.name, rows: d.rows, columns: d.columns.map((c) => c.name) } : undefined,
      },
    );
    batch(() => {
      representations.value = list;
      setAsideFiles.value = setAside;
      sources.value = null;
      record.value = null;
      outcome.value = null;
    });
  } catch (error) {
    report(error);
  }
}

/** Loads the bundled layers demo; false when it failed (reported). */
export async function loadLayersDemo(): Promise<boolean> {
  const base = new URL(LAYERS_DEMO.folder, document.baseURI);
  try {
    const list = await request('Loading the layers of the digits network', {
      kind: 'compare-load-urls',
      urls: [...LAYERS_DEMO.files, ...LAYERS_DEMO.ood].map((name) => ({ url: new URL(name, base).href, name })),
    });
    batch(() => {
      representations.value = list;
      setAsideFiles.value = [];
      sources.value = { kind: 'demo' };
      record.value = null;
      outcome.value = null;
    });
    return true;
  } catch (error) {
    report(error);
    return false;
  }
}

/**
 * Loads representations by URL (any format the lab reads; a Projector config brings every tensor it
 * names), after the reader confirmed other sites. False when it failed (reported).
 */
export async function loadUrls(urls: string[]): Promise<boolean> {
  try {
    const absolute = urls.map((u) => new URL(u, document.baseURI).href);
    for (const u of absolute) {
      const protocol = new URL(u).protocol;
      if (protocol !== 'http:' && protocol !== 'https:')
        throw new Error(`${u} is not an http: or https: URL (gpprobe loads data over HTTP only)`);
    }
    await confirmOrigins(absolute);
    const files: { url: string; name: string }[] = [];
    for (const url of absolute) {
      const name = fileNameOf(url);
      files.push({ url, name });
      if (!/\.json$/i.test(name)) continue;
      // A Projector config brings every tensor it names, in its order.
      const embeddings = await request(`Reading ${name}`, { kind: 'read-projector-config', url, name });
      const tensors = embeddings.map((e) => e.tensorUrl);
      await confirmOrigins(tensors);
      for (const t of tensors) files.push({ url: t, name: fileNameOf(t) });
    }
    const list = await request(`Loading ${files.length} file${files.length === 1 ? '' : 's'} to compare`, {
      kind: 'compare-load-urls',
      urls: files,
    });
    batch(() => {
      representations.value = list;
      setAsideFiles.value = [];
      sources.value = { kind: 'urls', urls: absolute };
      record.value = null;
      outcome.value = null;
    });
    return true;
  } catch (error) {
    report(error);
    return false;
  }
}

/** The Compare lab's part of the link: only when its representations can be fetched again. */
export const compareLinkState = computed<CompareLink | undefined>(() => {
  const src = sources.value;
  if (!src || representations.value.length === 0) return undefined;
  return {
    sources: src,
    concepts: conceptChoice.value,
    view: compareView.value,
    shown: shownConcept.value,
    run: record.value !== null,
    ...(compareDraws.value !== DEFAULT_DRAWS ? { draws: compareDraws.value } : {}),
  };
});

/**
 * Opens a link's comparison (after its session opened): loads the representations, sets the concepts and
 * the view, and runs the comparison when the link's had been run; so the table is the sharer's, byte for byte.
 */
export async function openCompareLink(link: CompareLink): Promise<void> {
  const loaded = link.sources.kind === 'demo' ? await loadLayersDemo() : await loadUrls(link.sources.urls);
  if (!loaded) return;
  batch(() => {
    conceptChoice.value = link.concepts;
    compareView.value = link.view;
    compareDraws.value = link.draws ?? DEFAULT_DRAWS;
  });
  if (link.run && !blocker.value) {
    await runComparison();
    shownConcept.value = Math.min(link.shown, Math.max(0, (record.value?.run.comparison.concepts.length ?? 1) - 1));
  } else if (link.run) {
    notify('info', `The link's comparison was not run: ${blocker.value}`);
  }
}

/** The concepts of a run: the session's with its observations, or one per value of a column, each with its own draw. */
async function conceptsToRun(): Promise<{ requests: ComparedConceptRequest[]; concepts: Concept[] }> {
  const d = dataset.value!,
    s = session.value,
    c = conceptChoice.value;
  if (c.kind === 'session') {
    const y = labels.value!;
    return {
      requests: [{ name: describeConcept(s.concept!), labels: y, observations: Int32Array.from(s.observations) }],
      concepts: [s.concept!],
    };
  }
  const column = d.columns.find((col) => col.name === c.column)!;
  const values = distinctValues(column, MAX_GRID_VALUES);
  const requests: ComparedConceptRequest[] = [],
    concepts: Concept[] = [];
  for (const value of values) {
    const concept: Concept = { column: c.column, kind: 'values', positives: [value] };
    const y = conceptLabels(concept, d.columns, d.rows);
    const observations = await request(null, {
      kind: 'draw-observations',
      labels: y,
      perClass: s.draw.perClass,
      seed: s.draw.seed,
    });
    requests.push({ name: `${c.column} = ${value}`, labels: y, observations });
    concepts.push(concept);
  }
  return { requests, concepts };
}

export async function runComparison(): Promise<void> {
  if (activeRun.value !== null || blocker.value) return;
  const s = session.value,
    reps = representations.value,
    basis = basisOf(),
    draws = compareDraws.value,
    // The sidebar's concept keeps its observations (each draw after the first resamples them within each
    // class); the grid's concepts are redrawn from their labelled rows with the sidebar's draw.
    drawMode = conceptChoice.value.kind === 'session' ? ('bootstrap' as const) : ('redraw' as const);
  outcome.value = null;
  let lastStage = '';
  try {
    const { requests, concepts } = await conceptsToRun();
    const label = `Comparing ${reps.length} representations on ${requests.length === 1 ? requests[0].name : `${requests.length} concepts`}`;
    const running = startTask(
      label,
      {
        kind: 'compare-run',
        concepts: requests,
        epsilon: s.epsilon,
        strength: s.strength,
        draws,
        drawMode,
        perClass: s.draw.perClass,
        seed: s.draw.seed,
      },
      (p) => {
        lastStage = p.stage;
      },
    );
    activeRun.value = running.id;
    const run = await running.result;
    batch(() => {
      record.value = {
        run,
        draws,
        drawMode,
        concepts,
        representations: reps,
        epsilon: s.epsilon,
        strength: s.strength,
        basis,
      };
      shownConcept.value = 0;
    });
  } catch (error) {
    const cancelled = isCancelled(error);
    const text = cancelled
      ? `Cancelled${lastStage ? ` during ${lastStage}` : ''}.`
      : error instanceof Error
        ? error.message
        : String(error);
    outcome.value = { kind: cancelled ? 'cancelled' : 'error', text };
    if (!cancelled) notify('error', `The comparison failed: ${text}`);
  } finally {
    activeRun.value = null;
  }
}

/**
 * Opens the probe of concept `c` (a row of the grid) in representation `k` in the Probe tab: that
 * representation becomes the main embeddings (the metadata stays), the concept and the observations are
 * the cell's, and the tab switches. A representation read from a URL with metadata by URL (the bundled
 * layers demo) becomes the session's data, so links and reloads open it; otherwise they still name the
 * data loaded before, and a notice says so.
 */
export async function openInProbe(c: number, k: number): Promise<void> {
  const r = record.value,
    d = dataset.value;
  if (!r || !d) return;
  const rep = r.representations[k],
    result = r.run.comparison.concepts[c];
  try {
    const opened = await request(`Opening ${rep.name} in the Probe tab`, { kind: 'compare-open', index: k });
    const metadata = metadataUrls();
    const data =
      /^https?:/.test(rep.source) && metadata
        ? { kind: 'url' as const, data: rep.source, metadata }
        : session.value.data;
    batch(() => {
      dataset.value = {
        ...d,
        name: opened.name,
        cols: opened.cols,
        files: [{ name: rep.source, size: 0 }],
        streamed: false,
      };
      results.value = null;
      map.value = null;
      selected.value = null;
      if (!opened.oodKept) oodDataset.value = null;
      commit({
        ...session.value,
        data,
        concept: r.concepts[c],
        observations: Array.from(result.observations).sort((a, b) => a - b),
        epsilon: r.epsilon,
        strength: r.strength,
        ...(opened.oodKept ? {} : { ood: { kind: 'none' as const } }),
      });
      activeTab.value = 'probe';
    });
    // The Probe tab from its top (the table row clicked was far down the Compare page).
    if (typeof window !== 'undefined') window.scrollTo({ top: 0 });
    request('Computing the map', { kind: 'map' }).then((m) => {
      map.value = m;
    }, report);
    if (data === session.value.data && !(data?.kind === 'url' && data.data === rep.source)) {
      notify(
        'info',
        `The Probe tab now probes ${rep.name} (from Compare); links and reloads still open the data loaded before.`,
      );
    }
  } catch (error) {
    report(error);
  }
}

/** The metadata files of the session's data by URL (a demo's, a link's ?metadata=), or null. */
function metadataUrls(): string[] | null {
  const data = session.value.data;
  if (data?.kind === 'url') return data.metadata.length ? data.metadata : null;
  if (data?.kind === 'demo') {
    const demo = demos.value.find((x) => x.id === data.id);
    const base = new URL(`demo/${data.id}/`, document.baseURI);
    const files = demo?.files.filter((f) => !/\.npy$/i.test(f)).map((f) => new URL(f, base).href);
    return files?.length ? files : null;
  }
  return null;
}

// ---- observation curves ----

export interface CurvesRecord {
  curves: RepresentationCurve[];
  schedule: string;
  seconds: number;
  trials: number;
  concept: string;
}

export const curves = signal<CurvesRecord | null>(null);
export const curvesRun = signal<number | null>(null);
export const CURVE_TRIALS = 3;

/**
 * Evaluate's probing experiment on every representation for the sidebar's concept (the same trials,
 * seed and observation schedule 2, 4, ..., 128): GPP's held-out AUROC against the observation count,
 * one curve per representation.
 */
export async function runCurves(): Promise<void> {
  const y = labels.value,
    s = session.value;
  if (curvesRun.value !== null || !y || !s.concept || representations.value.length === 0) return;
  try {
    const running = startTask(`Observation curves of ${representations.value.length} representations`, {
      kind: 'compare-curves',
      labels: y,
      trials: CURVE_TRIALS,
      seed: s.draw.seed,
      maxObservations: 128,
      epsilon: s.epsilon,
      strength: s.strength,
    });
    curvesRun.value = running.id;
    const r = await running.result;
    curves.value = { ...r, trials: CURVE_TRIALS, concept: describeConcept(s.concept) };
  } catch (error) {
    report(error);
  } finally {
    curvesRun.value = null;
  }
}
