// The probe lab's requests (the lab registry, labs/protocol.ts, joins them with the other labs'): loading datasets (uploads,
// URLs, an Embedding Projector config), which the worker keeps resident in the wasm heap, the probe on
// the session's observations, the map, the beliefs of the hyperparameter panel and the selected query,
// the irrational region, the observation draw, and the probe file of the current probe.
import type { Belief, BeliefEnvelope } from '../../../engine/probe/analysis.ts';
import type { ProbeScores } from '../../../engine/probe/probe_engine.ts';
import type { ProjectorEmbedding } from '../../../io/projector.ts';
import type { Policies } from '../../../common/worker/policies.ts';
import type { DatasetRole, DatasetSummary } from '../../../common/data/dataset.ts';
import type { ProbeUpdate } from './probe_session.ts';

export type { DatasetRole, DatasetSummary } from '../../../common/data/dataset.ts';

/** A belief's densities on a grid, with the Beta parameters the core gives it. */
export interface BeliefCurve {
  belief: Belief;
  /** Exact Beta density of the belief. */
  beta: Float64Array;
  /** The probe's logit-normal approximation (paper Eq. 8). */
  approximation: Float64Array;
}

export interface ProbeRun {
  scores: ProbeScores;
  /** Scores of the OOD set, when one is loaded. */
  oodScores: ProbeScores | null;
  space: string;
  observationCount: number;
  /** How the probe was brought up to date: a fresh fit or incremental changes. */
  update: ProbeUpdate;
  /** Full passes over a query set this run made: 0 when every score followed by rank-one updates. */
  fullPasses: number;
  seconds: number;
}

export interface ProbeRequests {
  /** Main embeddings in a float .npy file above STREAM_ABOVE_BYTES are streamed from it (io/streamed_dataset.ts). */
  /** `embedding`: which of an uploaded Projector config's embeddings, when several tensors were uploaded. */
  'load-files': {
    request: { role: DatasetRole; files: { blob: Blob; name: string }[]; embedding?: string };
    result: DatasetSummary;
  };
  'load-urls': {
    request: { role: DatasetRole; name: string; urls: { url: string; name: string }[] };
    result: DatasetSummary;
  };
  /** The embeddings a projector_config.json offers (paths resolved to URLs). */
  'read-projector-config': { request: { url: string; name: string }; result: ProjectorEmbedding[] };
  /** One embedding of a Projector config, with its metadata and sprite sheet, as the main dataset. */
  'load-projector': { request: { embedding: ProjectorEmbedding }; result: DatasetSummary };
  'clear-dataset': { request: { role: DatasetRole }; result: null };
  /** Row indices of the observations in the main dataset, and their labels (0/1). */
  probe: {
    /** `fresh`: fit anew in the given order (what a new page does) instead of updating the probe in place. */
    request: { epsilon: number; strength: number; observations: Int32Array; labels: Uint8Array; fresh?: boolean };
    result: ProbeRun;
  };
  map: {
    request: Record<never, never>;
    result: { x: Float64Array; y: Float64Array; explained: [number, number]; totalVariance: number };
  };
  'belief-preview': {
    request: { epsilon: number; strength: number; grid: Float64Array };
    result: { prior: BeliefCurve; oneNegative: BeliefCurve; onePositiveOneNegative: BeliefCurve };
  };
  'query-belief': {
    request: { mean: number; variance: number; epsilon: number; grid: Float64Array };
    result: { posterior: Float64Array; prior: Float64Array };
  };
  envelope: { request: { epsilon: number }; result: BeliefEnvelope };
  /** `perClass` random rows of each class of `labels` (the core's draw, = `gpprobe draw`). */
  'draw-observations': { request: { labels: Uint8Array; perClass: number; seed: number }; result: Int32Array };
  /**
   * The probe file (engine/probe_file.ts) of the probe on these observations of the main dataset, in
   * the space the worker's probe uses, with the id of the data (`data` names it).
   */
  'export-probe': {
    request: { epsilon: number; strength: number; observations: Int32Array; labels: Uint8Array; data: string };
    result: Uint8Array;
  };
}

export const PROBE_POLICIES: Policies<ProbeRequests> = {
  'load-files': 'between-chunks',
  'load-urls': 'between-chunks',
  'read-projector-config': 'between-chunks',
  'load-projector': 'between-chunks',
  'clear-dataset': 'none',
  probe: 'between-chunks',
  map: 'none',
  'belief-preview': 'none',
  'query-belief': 'none',
  envelope: 'none',
  'draw-observations': 'none',
  'export-probe': 'none',
};
