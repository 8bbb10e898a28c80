// The Compare lab's requests to the engine worker (labs/protocol.ts joins them with the other labs'). The
// worker holds the representations (several embeddings of the main dataset's rows, each in its own
// precision); the page sends the concepts (labels from the shared metadata) and observation rows.
import type { RepresentationComparison } from '../../../engine/compare/compare_representations.ts';
import type { Policies } from '../../../common/worker/policies.ts';
import type { ConceptSource, SetAside } from './representation_files.ts';

export interface RepresentationSummary {
  name: string;
  rows: number;
  cols: number;
  /** 32: float32 (kept so), 64: float64. */
  dtype: 32 | 64;
  /** Rows of its OOD set (0: none). */
  oodRows: number;
  /** Its file's name, or the URL it was fetched from. */
  source: string;
}

export interface ComparedConceptRequest {
  name: string;
  /** One label per row: 0, 1, or 255 (no label). */
  labels: Uint8Array;
  observations: Int32Array;
}

export interface CompareRun {
  comparison: RepresentationComparison;
  seconds: number;
}

/** One representation's probing curve: GPP's held-out AUROC against the observation count (Evaluate's
 * probing experiment on that representation). */
export interface RepresentationCurve {
  name: string;
  observationCounts: number[];
  /** Mean and sample sd over the trials, one per observation count. */
  mean: Float64Array;
  sd: Float64Array;
}

export interface CurvesRequest {
  /** One 0/1 label per row. */
  labels: Uint8Array;
  trials: number;
  seed: number;
  maxObservations: number;
  epsilon: number;
  strength: number;
}

export interface CompareRequests {
  /** The files chosen together: every embedding in them (representation_files.ts) replaces the set held,
   * unless one is refused (then the set held is kept); metadata tables among them are set aside. `concepts`:
   * the dataset whose metadata defines the concepts (its rows and columns), when the page has one. */
  'compare-load-files': {
    request: { files: { blob: Blob; name: string }[]; concepts?: ConceptSource };
    result: { representations: RepresentationSummary[]; setAside: SetAside[] };
  };
  'compare-load-urls': { request: { urls: { url: string; name: string }[] }; result: RepresentationSummary[] };
  'compare-run': {
    request: {
      concepts: ComparedConceptRequest[];
      epsilon: number;
      strength: number;
      /** Draws of the observations (1: the one set alone); redraw with perClass/seed or bootstrap the rows given. */
      draws?: number;
      drawMode?: 'redraw' | 'bootstrap';
      perClass?: number;
      seed?: number;
    };
    result: CompareRun;
  };
  /** Representation `index` becomes the main embeddings (the Probe tab's); the metadata stays the page's. */
  'compare-open': {
    request: { index: number };
    result: { name: string; rows: number; cols: number; oodKept: boolean };
  };
  'compare-clear': { request: Record<never, never>; result: null };
  /** Evaluate's probing experiment run on every representation (the same trials, seeds and schedule). */
  'compare-curves': {
    request: CurvesRequest;
    result: { curves: RepresentationCurve[]; schedule: string; seconds: number };
  };
}

export const COMPARE_POLICIES: Policies<CompareRequests> = {
  'compare-load-files': 'between-chunks',
  'compare-load-urls': 'between-chunks',
  'compare-run': 'between-chunks',
  'compare-open': 'none',
  'compare-clear': 'none',
  'compare-curves': 'between-chunks',
};
