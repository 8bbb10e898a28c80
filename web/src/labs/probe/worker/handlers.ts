// The probe lab in the engine worker (protocol.ts): parses uploads and keeps the embeddings
// resident in the wasm heap (or, above STREAM_ABOVE_BYTES, reads them from their file as needed:
// streamed_data.ts), keeps the probe up to date with the session's observations and scores every row in
// chunks (cancel between chunks), and answers the views' smaller questions (map, beliefs, envelope, the
// observation draw). Every number comes from the core.
import {
  beliefAtObservedPoint,
  beliefEnvelope,
  betaDensities,
  logitNormalDensities,
  principalComponents,
  priorBelief,
  type Belief,
} from '../../../engine/probe/analysis.ts';
import type { ProbeEngine, ProbeScores } from '../../../engine/probe/probe_engine.ts';
import { embeddingsId, probeFileBytes } from '../../../engine/probe/probe_file.ts';
import { loadDataset, type Dataset } from '../../../io/load_files.ts';
import { loadProjectorEmbedding, loadUrls, readProjectorConfig } from '../../../io/load_urls.ts';
import { openStreamedDataset, type StreamedDataset } from '../../../io/streamed_dataset.ts';
import { checkAborted, FileError } from '../../../io/table.ts';
import type { Handlers, HandlerContext } from '../../../common/worker/handler.ts';
import type { BeliefCurve, DatasetRole, DatasetSummary, ProbeRequests, ProbeRun } from './protocol.ts';
import { loaded, mainChanged, mainCols, mainData, streamed } from '../../../common/worker/resident_data.ts';
import { session } from './resident_probe.ts';
import { fitStreamedProbe, scoreStreamedMain, streamedMap } from '../../../common/worker/streamed_data.ts';

function summary(role: DatasetRole, d: Dataset): DatasetSummary {
  return {
    role,
    name: d.name,
    files: d.files,
    rows: d.embeddings.rows,
    cols: d.embeddings.cols,
    columns: d.columns,
    notes: d.notes,
    ...(d.sprite ? { sprite: d.sprite } : {}),
  };
}

function adopt(engine: ProbeEngine, role: DatasetRole, dataset: Dataset, signal: AbortSignal): DatasetSummary {
  // The last moment a cancel can keep what was loaded before.
  checkAborted(signal, dataset.name);
  const cols = mainCols();
  if (role === 'ood' && cols !== undefined && dataset.embeddings.cols !== cols) {
    throw new FileError(dataset.name, `has ${dataset.embeddings.cols} columns, the embeddings have ${cols}`);
  }
  // Only now, with the new data fully parsed, replace what was loaded.
  const resident = engine.upload(dataset.embeddings, role === 'main' ? 'embeddings' : 'OOD embeddings');
  loaded[role]?.resident.dispose();
  // From here the embeddings live once, in the wasm heap; the page keeps the metadata columns.
  loaded[role] = { name: dataset.name, resident };
  if (role === 'main') {
    delete streamed.main;
    mainChanged();
    if (loaded.ood && loaded.ood.resident.cols !== resident.cols) {
      loaded.ood.resident.dispose();
      delete loaded.ood;
    }
  }
  return summary(role, dataset);
}

/** A streamed dataset as the main embeddings (OOD sets are always held in memory). */
function adoptStreamed(dataset: StreamedDataset, signal: AbortSignal): DatasetSummary {
  checkAborted(signal, dataset.name);
  const { embeddings } = dataset;
  loaded.main?.resident.dispose();
  delete loaded.main;
  mainChanged();
  streamed.main = { name: dataset.name, rows: embeddings };
  if (loaded.ood && loaded.ood.resident.cols !== embeddings.cols) {
    loaded.ood.resident.dispose();
    delete loaded.ood;
  }
  return {
    role: 'main',
    name: dataset.name,
    files: dataset.files,
    rows: embeddings.rows,
    cols: embeddings.cols,
    columns: dataset.columns,
    notes: dataset.notes,
    streamed: true,
  };
}

/** The probe run of a streamed main dataset (streamed_data.ts): the file is read once per new probe. */
async function streamedProbe(
  r: { epsilon: number; strength: number; observations: Int32Array; labels: Uint8Array },
  c: HandlerContext<'probe'>,
): Promise<ProbeRun> {
  const main = streamed.main!,
    ood = loaded.ood?.resident;
  const start = performance.now();
  const total = main.rows.rows + (ood?.rows ?? 0);
  const run = await scoreStreamedMain(c.engines.probe, main, r, c, total, async (probe) =>
    ood
      ? probe.scoreAsync(ood, {
          signal: c.signal,
          chunkRows: 4096,
          onProgress: ({ done }) => c.progress({ stage: 'scoring the OOD set', done: main.rows.rows + done, total }),
        })
      : null,
  );
  return {
    scores: run.scores,
    oodScores: run.also,
    space: run.space,
    observationCount: run.observationCount,
    update: { kind: 'fit' },
    fullPasses: run.fullPass ? 1 : 0,
    seconds: (performance.now() - start) / 1000,
  };
}

function loadOptions(c: HandlerContext<'probe'>) {
  return { signal: c.signal, onProgress: c.progress };
}

async function scoreAll(c: HandlerContext<'probe'>): Promise<{ scores: ProbeScores; oodScores: ProbeScores | null }> {
  const main = mainData(),
    ood = loaded.ood?.resident;
  const total = main.rows + (ood?.rows ?? 0);
  // Kept with the probe: after an add or remove these are the rank-one-updated scores, no new pass.
  const scores = await session.scores('main', main, {
    signal: c.signal,
    chunkRows: 4096,
    onProgress: ({ done }) => c.progress({ stage: 'scoring', done, total }),
  });
  const oodScores = ood
    ? await session.scores('ood', ood, {
        signal: c.signal,
        chunkRows: 4096,
        onProgress: ({ done }) => c.progress({ stage: 'scoring the OOD set', done: main.rows + done, total }),
      })
    : null;
  return { scores, oodScores };
}

function curve(engine: ProbeEngine, grid: Float64Array, belief: Belief): BeliefCurve {
  return {
    belief,
    beta: betaDensities(engine, grid, { a: belief.betaA, b: belief.betaB }),
    approximation: logitNormalDensities(engine, grid, { mean: belief.latentMean, variance: belief.latentVariance }),
  };
}

export const probeHandlers: Handlers<ProbeRequests, 'probe'> = {
  'load-files': async (r, c) => {
    if (r.role === 'main') {
      const big = await openStreamedDataset(r.files, {
        signal: c.signal,
        onProgress: (f) => c.progress({ stage: 'reading', done: f, total: 1 }),
      });
      if (big) return adoptStreamed(big, c.signal);
    }
    const dataset = await loadDataset(r.files, {
      signal: c.signal,
      embedding: r.embedding,
      onProgress: (f) => c.progress({ stage: 'reading', done: f, total: 1 }),
    });
    return adopt(c.engines.probe, r.role, dataset, c.signal);
  },
  'load-urls': async (r, c) => {
    const dataset = await loadUrls(r.urls, loadOptions(c));
    dataset.name = r.name;
    return adopt(c.engines.probe, r.role, dataset, c.signal);
  },
  'read-projector-config': (r, c) => readProjectorConfig(r, loadOptions(c)),
  'load-projector': async (r, c) => {
    const { dataset, sprite } = await loadProjectorEmbedding(r.embedding, loadOptions(c));
    return { ...adopt(c.engines.probe, 'main', dataset, c.signal), ...(sprite ? { sprite } : {}) };
  },
  'clear-dataset': (r) => {
    loaded[r.role]?.resident.dispose();
    delete loaded[r.role];
    if (r.role === 'main') {
      delete streamed.main;
      mainChanged();
    }
    return null;
  },
  probe: async (r, c) => {
    if (streamed.main) return streamedProbe(r, c);
    const main = mainData();
    const start = performance.now();
    const passes = session.fullPasses;
    c.progress({ stage: 'fitting', done: 0, total: 1 });
    const update = session.update(
      c.engines.probe,
      main,
      r.epsilon,
      r.strength,
      r.observations,
      r.labels,
      r.fresh ?? false,
    );
    const { scores, oodScores } = await scoreAll(c);
    const probe = session.probe!;
    return {
      scores,
      oodScores,
      space: probe.space,
      observationCount: probe.observationCount,
      update,
      fullPasses: session.fullPasses - passes,
      seconds: (performance.now() - start) / 1000,
    };
  },
  map: (_r, c) => {
    if (streamed.main) return streamedMap(c.engines.probe, streamed.main, c);
    const pc = principalComponents(c.engines.probe, mainData(), { k: 2, onProgress: c.progress });
    const n = pc.scores.length / 2;
    const x = new Float64Array(n),
      y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      x[i] = pc.scores[2 * i];
      y[i] = pc.scores[2 * i + 1];
    }
    return { x, y, explained: [pc.explainedVariance[0], pc.explainedVariance[1]], totalVariance: pc.totalVariance };
  },
  'belief-preview': ({ epsilon, strength, grid }, c) => {
    const engine = c.engines.probe;
    return {
      prior: curve(engine, grid, priorBelief(engine, epsilon)),
      oneNegative: curve(engine, grid, beliefAtObservedPoint(engine, epsilon, strength, 0, 1)),
      onePositiveOneNegative: curve(engine, grid, beliefAtObservedPoint(engine, epsilon, strength, 1, 1)),
    };
  },
  'query-belief': (r, c) => {
    const engine = c.engines.probe;
    const prior = priorBelief(engine, r.epsilon);
    return {
      posterior: logitNormalDensities(engine, r.grid, { mean: r.mean, variance: r.variance }),
      prior: logitNormalDensities(engine, r.grid, { mean: prior.latentMean, variance: prior.latentVariance }),
    };
  },
  envelope: (r, c) => beliefEnvelope(c.engines.probe, r.epsilon, { points: 160 }),
  'draw-observations': (r, c) => c.engines.probe.drawObservations(r.labels, r.perClass, r.seed),
  'export-probe': async (r, c) => {
    const big = streamed.main;
    if (big) {
      // The observations' rows read from the file; no content hash (that would read the whole file).
      const probe = await fitStreamedProbe(c.engines.probe, big, r);
      try {
        return probeFileBytes({
          epsilon: r.epsilon,
          strength: r.strength,
          space: probe.space,
          observations: await big.rows.gatherRows(r.observations),
          labels: r.labels,
          observationRows: Array.from(r.observations),
          data: {
            name: r.data,
            rows: big.rows.rows,
            cols: big.rows.cols,
            dtype: big.rows.dtype === 32 ? 'float32' : 'float64',
          },
        });
      } finally {
        probe.dispose();
      }
    }
    const main = mainData();
    // The file records the space the app's probe uses, so every reader fits the probe the app shows.
    session.update(c.engines.probe, main, r.epsilon, r.strength, r.observations, r.labels);
    const current = session.observations;
    loaded.main!.id ??= await embeddingsId(main.view());
    return probeFileBytes({
      epsilon: r.epsilon,
      strength: r.strength,
      space: session.probe!.space,
      observations: main.gatherRows(current.map((o) => o.row)),
      labels: Uint8Array.from(current, (o) => o.label),
      observationRows: current.map((o) => o.row),
      data: {
        name: r.data,
        rows: main.rows,
        cols: main.cols,
        dtype: main.dtype === 32 ? 'float32' : 'float64',
        ...(loaded.main!.id ? { sha256: loaded.main!.id } : {}),
      },
    });
  },
};
