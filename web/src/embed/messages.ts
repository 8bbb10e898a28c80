// The messages between a <gpprobe-probe> element (element.ts, on the host page) and the embedded app
// in its iframe (host_bridge.ts). Every message carries `gpprobe` (its type) and `element` (the id
// the element gave its iframe); each side checks the sender (the iframe's window, the parent window)
// and the origin before it reads one.
//
//   app -> host   { gpprobe: 'hello', element }                   the app started; asks for its config
//                 { gpprobe: 'results', element, detail }          after each probe run (ResultsDetail)
//                 { gpprobe: 'select', element, detail }           when a query is selected (SelectDetail)
//                 { gpprobe: 'error', element, detail }            the element's data failed (ErrorDetail)
//   host -> app   { gpprobe: 'config', element, allowOrigins }     origins the host page allows data from
//                 { gpprobe: 'set', element, params }              a changed attribute, as link parameters
//
// Each side reads a message only through readToApp / readToHost, which check its whole shape (issue 23,
// item 8): anything else — another type, a field of the wrong type, an origin that is not one — is not a
// message of ours and is dropped, never half-read.
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

/** Why the element's data could not be shown (`event.detail` of "gpprobe-error"). */
export interface ErrorDetail {
  message: string;
  /** Where the documentation says where data may live and how a host allows it. */
  help: string;
}

export type ToHost =
  | { gpprobe: 'hello'; element: string }
  | { gpprobe: 'results'; element: string; detail: ResultsDetail }
  | { gpprobe: 'select'; element: string; detail: SelectDetail }
  | { gpprobe: 'error'; element: string; detail: ErrorDetail };

export type ToApp =
  | { gpprobe: 'config'; element: string; allowOrigins: string[] }
  /** `params`: a query string of link parameters (state/link_params.ts) to apply over the current state. */
  | { gpprobe: 'set'; element: string; params: string };

/** The most origins a config may allow, and the longest `params` a set may carry. */
export const MESSAGE_LIMITS = { origins: 64, params: 64 * 1024, text: 4096 } as const;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isText = (v: unknown, max: number = MESSAGE_LIMITS.text): v is string => typeof v === 'string' && v.length <= max;

/** Whether `v` is an http(s) origin as URL.origin writes it ("https://data.example:8443"). */
function isOrigin(v: unknown): v is string {
  if (!isText(v)) return false;
  try {
    const url = new URL(v);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === v;
  } catch {
    return false;
  }
}

/**
 * A message from the host page to the app of `element`, or null when `data` is not one: its type, its
 * element and each field checked (a config's allowOrigins a list of at most 64 http(s) origins).
 */
export function readToApp(data: unknown, element: string): ToApp | null {
  if (!isObject(data) || data.element !== element) return null;
  if (data.gpprobe === 'config') {
    const origins = data.allowOrigins;
    if (!Array.isArray(origins) || origins.length > MESSAGE_LIMITS.origins || !origins.every(isOrigin)) return null;
    return { gpprobe: 'config', element, allowOrigins: [...origins] };
  }
  if (data.gpprobe === 'set' && isText(data.params, MESSAGE_LIMITS.params))
    return { gpprobe: 'set', element, params: data.params };
  return null;
}

const isNumber = (v: unknown): v is number => typeof v === 'number';
const isNumbers = (v: unknown): boolean => Array.isArray(v) && v.every(isNumber);
const isScores = (v: unknown): boolean =>
  isObject(v) && Object.values(v).every((s) => ArrayBuffer.isView(s) || isNumbers(s) || isNumber(s));

/** A message from the app to the host page's `element`, or null when `data` is not one (shape checked as readToApp). */
export function readToHost(data: unknown, element: string): ToHost | null {
  if (!isObject(data) || data.element !== element) return null;
  const d = data.detail;
  switch (data.gpprobe) {
    case 'hello':
      return { gpprobe: 'hello', element };
    case 'results':
      if (
        !isObject(d) ||
        !isNumber(d.rows) ||
        !(d.queryRows === null || isNumbers(d.queryRows)) ||
        !isNumbers(d.observations) ||
        !isNumbers(d.observationLabels) ||
        !isNumber(d.epsilon) ||
        !isNumber(d.strength) ||
        !isScores(d.scores) ||
        !isText(d.link, 1 << 24)
      )
        return null;
      return { gpprobe: 'results', element, detail: d as unknown as ResultsDetail };
    case 'select':
      if (
        !isObject(d) ||
        !isNumber(d.row) ||
        typeof d.isObservation !== 'boolean' ||
        !(d.label === null || isNumber(d.label)) ||
        !(d.scores === null || isScores(d.scores)) ||
        !isObject(d.metadata)
      )
        return null;
      return { gpprobe: 'select', element, detail: d as unknown as SelectDetail };
    case 'error':
      if (!isObject(d) || !isText(d.message) || !isText(d.help)) return null;
      return { gpprobe: 'error', element, detail: { message: d.message, help: d.help } };
    default:
      return null;
  }
}
