// The messages between a <gpprobe-probe> element (element.ts, on the host page) and the embedded app
// in its iframe (host_bridge.ts). Every message carries `gpprobe` (its type) and `element` (the id
// the element gave its iframe); each side checks the sender (the iframe's window, the parent window)
// and the origin before it reads one.
//
//   app -> host   { gpprobe: 'hello', element }                   the app started; asks for its config
//                 { gpprobe: 'results', element, detail }          after each probe run (ResultsDetail)
//                 { gpprobe: 'select', element, detail }           when a query is selected (SelectDetail)
//   host -> app   { gpprobe: 'config', element, allowOrigins }     origins the host page allows data from
//                 { gpprobe: 'set', element, params }              a changed attribute, as link parameters
import type { ProbeScores } from '../engine/probe/probe_engine.ts';
import type { Concept } from '../common/state/session.ts';

/** The numbers of a probe run, for the host page (`event.detail` of "gpprobe-results"). */
export interface ResultsDetail {
  /** Rows of the dataset; every score array has this length. */
  rows: number;
  /** The rows the embed shows (its query subset), or null for all. */
  queryRows: number[] | null;
  observations: number[];
  /** The concept label (0/1) of each observation, in the order of `observations`. */
  observationLabels: number[];
  concept: Concept | null;
  epsilon: number;
  strength: number;
  scores: ProbeScores;
  /** A link that opens this probe in the full app. */
  link: string;
}

/** The selected query (`event.detail` of "gpprobe-select"). */
export interface SelectDetail {
  row: number;
  isObservation: boolean;
  /** Whether the row shows the concept (1/0), or null without a concept. */
  label: number | null;
  scores: { [K in keyof ProbeScores]: number } | null;
  /** The row's metadata, as text. */
  metadata: Record<string, string>;
}

export type ToHost =
  | { gpprobe: 'hello'; element: string }
  | { gpprobe: 'results'; element: string; detail: ResultsDetail }
  | { gpprobe: 'select'; element: string; detail: SelectDetail };

export type ToApp =
  | { gpprobe: 'config'; element: string; allowOrigins: string[] }
  /** `params`: a query string of link parameters (state/link_params.ts) to apply over the current state. */
  | { gpprobe: 'set'; element: string; params: string };
