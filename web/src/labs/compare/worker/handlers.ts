// The Compare lab in the engine worker (protocol.ts): reads the representations and keeps them (plain
// typed arrays, float32 kept; only the one being probed enters the wasm heap), runs the comparison
// (engine.compareRepresentations: a cell per wasm call, cancellable between cells), and makes one of them
// the main embeddings when a cell is opened in the Probe tab. Every number comes from the core.
import type { RepresentationComparison } from '../../../engine/compare/compare_representations.ts';
import { runExperiment } from '../../../engine/evaluation/experiments.ts';
import { fetchBlob } from '../../../io/fetch_file.ts';
import { checkAborted, FileError } from '../../../io/table.ts';
import type { Handlers } from '../../../common/worker/handler.ts';
import { loaded, mainChanged, streamed } from '../../../common/worker/resident_data.ts';
import type { CompareRequests, RepresentationCurve, RepresentationSummary } from './protocol.ts';
import { readRepresentations, type RepresentationData, type SetAside } from './representation_files.ts';

/** The representations held between requests. */
let held: RepresentationData[] = [];

function summaries(list: RepresentationData[]): RepresentationSummary[] {
  return list.map((r) => ({
    name: r.name,
    rows: r.embeddings.rows,
    cols: r.embeddings.cols,
    dtype: r.embeddings.data instanceof Float32Array ? 32 : 64,
    oodRows: r.ood?.rows ?? 0,
    source: r.source,
  }));
}

export const compareHandlers: Handlers<CompareRequests, 'probe'> = {
  'compare-load-files': async (r, c) => {
    const setAside: SetAside[] = [];
    const list = await readRepresentations(r.files, {
      signal: c.signal,
      onProgress: (f) => c.progress({ stage: 'reading', done: f, total: 1 }),
      // While the set held fits the dataset's rows, a file of another row count is refused (the set kept).
      concepts:
        r.concepts && held.length > 0 && held.every((h) => h.embeddings.rows === r.concepts!.rows)
          ? r.concepts
          : r.concepts && { ...r.concepts, rows: undefined },
      setAside,
    });
    checkAborted(c.signal, 'the representations');
    held = list;
    return { representations: summaries(held), setAside };
  },
  'compare-load-urls': async (r, c) => {
    const files: { blob: Blob; name: string }[] = [];
    const sources = new Map<string, string>();
    for (const [i, u] of r.urls.entries()) {
      const blob = await fetchBlob(u.url, u.name, {
        signal: c.signal,
        onProgress: (done, total) =>
          c.progress({ stage: `downloading ${u.name} (${i + 1} of ${r.urls.length})`, done, total: total || done }),
      });
      files.push({ blob, name: u.name });
      sources.set(u.name, u.url);
    }
    const list = await readRepresentations(files, { signal: c.signal, sources });
    checkAborted(c.signal, 'the representations');
    held = list;
    return summaries(held);
  },
  'compare-run': async (r, c) => {
    if (held.length === 0) throw new FileError('compare', 'no representations are loaded');
    const start = performance.now();
    const comparison: RepresentationComparison = await c.engines.probe.compareRepresentations(
      {
        embeddings: held.map((h) => ({ name: h.name, embeddings: h.embeddings, ood: h.ood })),
        concepts: r.concepts.map((k) => ({ name: k.name, labels: k.labels, observations: k.observations })),
        epsilon: r.epsilon,
        strength: r.strength,
        draws: r.draws,
        drawMode: r.drawMode,
        perClass: r.perClass,
        seed: r.seed,
      },
      { signal: c.signal, onProgress: c.progress },
    );
    return { comparison, seconds: (performance.now() - start) / 1000 };
  },
  'compare-open': (r, c) => {
    const h = held[r.index];
    if (!h) throw new FileError('compare', `no representation ${r.index} (${held.length} are loaded)`);
    const resident = c.engines.probe.upload(h.embeddings, h.name);
    loaded.main?.resident.dispose();
    delete streamed.main;
    loaded.main = { name: h.name, resident };
    mainChanged();
    let oodKept = true;
    if (loaded.ood && loaded.ood.resident.cols !== resident.cols) {
      loaded.ood.resident.dispose();
      delete loaded.ood;
      oodKept = false;
    }
    return { name: h.name, rows: resident.rows, cols: resident.cols, oodKept };
  },
  'compare-clear': () => {
    held = [];
    return null;
  },
  'compare-curves': async (r, c) => {
    if (held.length === 0) throw new FileError('compare', 'no representations are loaded');
    const start = performance.now();
    const curves: RepresentationCurve[] = [];
    let schedule = '';
    for (const [k, h] of held.entries()) {
      // Only GPP's curve is shown: LPE with one member keeps the baselines' share of the work small.
      const result = await runExperiment(
        c.engines.probe,
        {
          experiment: 'probing',
          embeddings: h.embeddings,
          labels: r.labels,
          trials: r.trials,
          seed: r.seed,
          maxObservations: r.maxObservations,
          maxQueries: 1000,
          members: 1,
          gpc: false,
          epsilon: r.epsilon,
          strength: r.strength,
        },
        {
          signal: c.signal,
          onProgress: (p) =>
            c.progress({
              stage: `${h.name} (${k + 1} of ${held.length}): ${p.stage}`,
              done: k * p.total + p.done,
              total: held.length * p.total,
            }),
        },
      );
      const gpp = result.curves.find((curve) => curve.method === 'gpp')!;
      curves.push({ name: h.name, observationCounts: result.observationCounts, mean: gpp.mean, sd: gpp.sd });
      schedule = result.scheduleLimit;
    }
    return { curves, schedule, seconds: (performance.now() - start) / 1000 };
  },
};
