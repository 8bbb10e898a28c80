// Messages between the page and the engine worker. Every request has a kind and a typed result;
// progress, results and errors come back tagged with the request's id. Arrays travel as transferred
// typed arrays, never as JS arrays of numbers.
import type { ProbeScores } from '../engine/probe_engine.ts';
import type { BeliefEnvelope } from '../engine/analysis.ts';
import type { Column } from '../io/table.ts';
import type { ExperimentRequest, ExperimentRun, OodBaselines, OodBaselinesRequest } from './evaluation_protocol.ts';

export type DatasetRole = 'main' | 'ood';

export interface DatasetSummary {
  role: DatasetRole;
  name: string;
  files: { name: string; size: number }[];
  rows: number;
  cols: number;
  columns: Column[];
  notes: string[];
}

export interface ProbeRequest {
  kind: 'probe';
  epsilon: number;
  strength: number;
  /** Row indices of the observations in the main dataset, and their labels (0/1). */
  observations: Int32Array;
  labels: Uint8Array;
}

export type Request =
  | { kind: 'load-files'; role: DatasetRole; files: { blob: Blob; name: string }[] }
  | { kind: 'load-urls'; role: DatasetRole; name: string; urls: { url: string; name: string }[] }
  | { kind: 'clear-dataset'; role: DatasetRole }
  | ProbeRequest
  | { kind: 'map' }
  | { kind: 'belief-preview'; epsilon: number; strength: number; grid: Float64Array }
  | { kind: 'query-belief'; mean: number; variance: number; epsilon: number; grid: Float64Array }
  | { kind: 'envelope'; epsilon: number }
  | ExperimentRequest
  | OodBaselinesRequest;

export interface BeliefCurve {
  /** Exact Beta density of the belief. */
  beta: Float64Array;
  /** The probe's logit-normal approximation (paper Eq. 8). */
  approximation: Float64Array;
}

export interface Results {
  'load-files': DatasetSummary;
  'load-urls': DatasetSummary;
  'clear-dataset': null;
  probe: {
    scores: ProbeScores;
    /** Scores of the OOD set, when one is loaded. */
    oodScores: ProbeScores | null;
    space: string;
    observationCount: number;
    /** How the probe was brought up to date: a fresh fit or incremental changes. */
    update: { kind: 'fit' } | { kind: 'incremental'; added: number; removed: number };
    seconds: number;
  };
  map: { x: Float64Array; y: Float64Array; explained: [number, number]; totalVariance: number };
  'belief-preview': { prior: BeliefCurve; oneNegative: BeliefCurve; onePositiveOneNegative: BeliefCurve };
  'query-belief': { posterior: Float64Array; prior: Float64Array };
  envelope: BeliefEnvelope;
  experiment: ExperimentRun;
  'ood-baselines': OodBaselines;
}

export type RequestKind = Request['kind'];
export type ResultOf<K extends RequestKind> = Results[K];

/** Page -> worker. */
export type ToWorker =
  | { type: 'request'; id: number; request: Request }
  | { type: 'cancel'; id: number };

/** Worker -> page. */
export type FromWorker =
  | { type: 'ready'; backend: string }
  | { type: 'progress'; id: number; stage: string; fraction: number }
  | { type: 'result'; id: number; kind: RequestKind; result: Results[RequestKind] }
  | { type: 'error'; id: number; code: string; message: string };
