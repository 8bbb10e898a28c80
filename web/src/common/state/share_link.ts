// Links that reproduce a probe: the whole session and what the reader looks at, in the URL's hash as
// `#s=<base64url of deflated JSON>`. Pure functions only.
//
// The JSON carries a version, "v". Version 1:
//   { "v": 1, "data": DataRef, "concept": Concept | null, "draw": { "perClass", "seed" },
//     "rows": [...]            // the observations' rows; absent when they are the draw's (then the
//                              // reader's core draws the same rows: observation_draw.h)
//     "epsilon", "strength", "ood": OodSetup, "queries": QuerySubset,
//     "tab", "colorBy", "selected" }
// Every field but "v" may be missing (a reader fills in the default) and unknown fields are ignored,
// so links made by older versions keep working as the format gains fields; a link from a newer
// version than this build reads is refused with a message saying so. Old versions are migrated to
// the current one in `migrate` (tests/web/share_link.test.ts keeps a committed v1 link).
import { deflateSync, inflateSync } from 'fflate';
import {
  DEFAULT_SESSION, type Concept, type DataRef, type OodSetup, type QuerySubset, type Session,
} from './session.ts';

const LINK_VERSION = 1;

/** What the reader looks at, beside the session. */
export interface LinkView {
  tab: string;
  colorBy: string;
  selected: number | null;
}

const DEFAULT_VIEW: LinkView = { tab: 'probe', colorBy: 'judgedProbability', selected: null };

/** A session as a link carries it. `drawn`: the observations are the session's draw (not listed). */
export interface LinkState {
  session: Session;
  drawn: boolean;
  view: LinkView;
}

/**
 * What to open: a link's state, or part of one (hand-typed parameters), over the defaults of its
 * data (a demo's concept and query subset, the first demo when `session.data` is missing).
 */
export interface LinkTarget {
  session: Partial<Session>;
  drawn: boolean;
  view: Partial<LinkView>;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const isRow = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;
const isPositive = (v: unknown): v is number => typeof v === 'number' && v > 0 && Number.isFinite(v);

function dataRef(v: unknown): DataRef | null {
  const d = v as Record<string, unknown> | null;
  if (!d || typeof d !== 'object') return null;
  if (d.kind === 'demo' && isString(d.id)) return { kind: 'demo', id: d.id };
  if (d.kind === 'url' && isString(d.data)) return { kind: 'url', data: d.data, metadata: isStringList(d.metadata) ? d.metadata : [] };
  if (d.kind === 'projector' && isString(d.config)) return { kind: 'projector', config: d.config, embedding: isString(d.embedding) ? d.embedding : '' };
  if (d.kind === 'upload' && Array.isArray(d.files)) {
    const files = d.files.filter((f): f is { name: string; size: number } => f && isString(f.name) && isRow(f.size));
    return { kind: 'upload', files: files.map((f) => ({ name: f.name, size: f.size })) };
  }
  return null;
}

function concept(v: unknown): Concept | null {
  const c = v as Record<string, unknown> | null;
  if (!c || !isString(c.column)) return null;
  if (c.kind === 'values' && isStringList(c.positives)) return { column: c.column, kind: 'values', positives: c.positives };
  if (c.kind === 'threshold' && typeof c.threshold === 'number' && Number.isFinite(c.threshold)) {
    return { column: c.column, kind: 'threshold', threshold: c.threshold };
  }
  return null;
}

function ood(v: unknown): OodSetup {
  const o = v as Record<string, unknown> | null;
  if (o?.kind === 'column' && isString(o.column) && isStringList(o.inDistribution)) {
    return { kind: 'column', column: o.column, inDistribution: o.inDistribution };
  }
  if (o?.kind === 'file' && Array.isArray(o.files)) {
    const files = o.files.filter((f): f is { name: string; size: number } => f && isString(f.name) && isRow(f.size));
    return { kind: 'file', files: files.map((f) => ({ name: f.name, size: f.size })), ...(isString(o.url) ? { url: o.url } : {}) };
  }
  return { kind: 'none' };
}

function queries(v: unknown): QuerySubset {
  const q = v as Record<string, unknown> | null;
  return q?.kind === 'values' && isString(q.column) && isStringList(q.values) ? { kind: 'values', column: q.column, values: q.values } : { kind: 'all' };
}

/** The JSON of a link (version LINK_VERSION). */
function linkJson(link: LinkState): Record<string, unknown> {
  const s = link.session;
  return {
    v: LINK_VERSION, data: s.data, concept: s.concept, draw: s.draw, ...(link.drawn ? {} : { rows: s.observations }),
    epsilon: s.epsilon, strength: s.strength, ood: s.ood, queries: s.queries,
    tab: link.view.tab, colorBy: link.view.colorBy, selected: link.view.selected,
  };
}

/** A link's JSON of any version this build reads, as the current state (defaults for what is missing). */
export function migrate(json: Record<string, unknown>): LinkState {
  const version = json.v;
  if (!Number.isInteger(version) || (version as number) < 1) throw new Error('this link is not a gpprobe link (no version)');
  if ((version as number) > LINK_VERSION) {
    throw new Error(`this link was made by a newer gpprobe (link version ${String(version)}; this one reads up to ${LINK_VERSION})`);
  }
  // Version 1 is the current version: nothing to convert yet. A later version adds its step here.
  const draw = json.draw as Record<string, unknown> | undefined;
  const rows = Array.isArray(json.rows) ? json.rows.filter(isRow) : null;
  const session: Session = {
    ...DEFAULT_SESSION,
    data: dataRef(json.data),
    concept: concept(json.concept),
    draw: draw && isRow(draw.perClass) && isRow(draw.seed) ? { perClass: draw.perClass, seed: draw.seed } : DEFAULT_SESSION.draw,
    observations: rows ? [...new Set(rows)].sort((a, b) => a - b) : [],
    epsilon: isPositive(json.epsilon) ? json.epsilon : DEFAULT_SESSION.epsilon,
    strength: isPositive(json.strength) ? json.strength : DEFAULT_SESSION.strength,
    ood: ood(json.ood),
    queries: queries(json.queries),
  };
  return {
    session, drawn: rows === null,
    view: {
      tab: isString(json.tab) ? json.tab : DEFAULT_VIEW.tab,
      colorBy: isString(json.colorBy) ? json.colorBy : DEFAULT_VIEW.colorBy,
      selected: isRow(json.selected) ? json.selected : null,
    },
  };
}

function toBase64Url(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The hash value of a link: `s=` + compressed JSON. */
export function encodeLink(link: LinkState): string {
  return `s=${toBase64Url(deflateSync(new TextEncoder().encode(JSON.stringify(linkJson(link))), { level: 9 }))}`;
}

/** The state in a URL hash ("#s=..."), or null when the hash holds none; throws a readable Error for a broken one. */
export function decodeLink(hash: string): LinkState | null {
  const value = new URLSearchParams(hash.replace(/^#/, '')).get('s');
  if (value === null) return null;
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(new TextDecoder().decode(inflateSync(fromBase64Url(value)))) as Record<string, unknown>;
  } catch {
    throw new Error('this link\'s state (#s=...) is damaged: it may have been cut off when it was copied');
  }
  return migrate(json);
}
