// Links that reproduce a probe: the whole session and what the reader looks at, in the URL's hash as
// `#s=<base64url of deflated JSON>`. Pure functions only.
//
// The JSON carries a version, "v". Version 1:
//   { "v": 1, "data": DataRef, "concept": Concept | null, "draw": { "perClass", "seed" },
//     "rows": [...]            // the observations' rows; absent when they are the draw's (then the
//                              // reader's core draws the same rows: observation_draw.h)
//     "epsilon", "strength", "ood": OodSetup, "queries": QuerySubset,
//     "tab", "colorBy", "selected",
//     "<lab>": ... }           // each linked lab's state under its id (labs/links.ts), only when the lab
//                              // holds some: "compare", the Compare lab's representations (by URL, the
//                              // demo, or uploaded files named for the reader to choose again) and run
// Every field but "v" may be missing (a reader fills in the default) and unknown fields are ignored,
// so links made by older versions keep working as the format gains fields; a field that is there is
// held to the session's schema (session_schema.ts: its type and range) and refuses the link when it
// breaks it; a link from a newer version than this build reads is refused with a message saying so. Old versions are migrated to
// the current one in `migrate` (tests/web/share_link.test.ts keeps a committed v1 link).
import { deflateSync } from 'fflate';
import { DEFAULT_SESSION, type Session } from '../common/state/session.ts';
import {
  checkFields,
  checkObject,
  inflateBounded,
  SCHEMA_LIMITS,
  SchemaError,
  SESSION_FIELDS,
  VIEW_FIELDS,
} from '../common/state/session_schema.ts';
import { LAB_LINKS, LINKED_LABS, type LabLinkStates } from '../labs/links.ts';

const LINK_VERSION = 1;

/** What the reader looks at, beside the session. */
export interface LinkView {
  tab: string;
  colorBy: string;
  selected: number | null;
}

const DEFAULT_VIEW: LinkView = { tab: 'probe', colorBy: 'judgedProbability', selected: null };

/**
 * A session as a link carries it. `drawn`: the observations are the session's draw (not listed). Each
 * linked lab's state under its id (labs/links.ts); absent from links that carry none (their bytes are as before).
 */
export interface LinkState extends LabLinkStates {
  session: Session;
  drawn: boolean;
  view: LinkView;
}

/**
 * What to open: a link's state, or part of one (hand-typed parameters), over the defaults of its
 * data (a demo's concept and query subset, the first demo when `session.data` is missing).
 */
export interface LinkTarget extends LabLinkStates {
  session: Partial<Session>;
  drawn: boolean;
  view: Partial<LinkView>;
}

/** The linked labs' states of a link, each under its lab's id, only those it holds. */
function labStates(link: LabLinkStates): LabLinkStates {
  const out: Record<string, unknown> = {};
  for (const lab of LINKED_LABS) if (link[lab] !== undefined) out[lab] = link[lab];
  return out as LabLinkStates;
}

/** The JSON of a link (version LINK_VERSION). */
function linkJson(link: LinkState): Record<string, unknown> {
  const s = link.session;
  return {
    v: LINK_VERSION,
    data: s.data,
    concept: s.concept,
    draw: s.draw,
    ...(link.drawn ? {} : { rows: s.observations }),
    epsilon: s.epsilon,
    strength: s.strength,
    ood: s.ood,
    queries: s.queries,
    tab: link.view.tab,
    colorBy: link.view.colorBy,
    selected: link.view.selected,
    ...labStates(link),
  };
}

/**
 * A link's JSON of any version this build reads, as the current state (defaults for what is missing),
 * checked against the session schema (session_schema.ts): a field of the wrong type or out of range
 * refuses the whole link with a message naming it, before anything is applied or saved.
 */
export function migrate(value: unknown): LinkState {
  const json = checkObject(value, "this link's state");
  const version = json.v;
  if (!Number.isInteger(version) || (version as number) < 1)
    throw new SchemaError('this link is not a gpprobe link (no version)');
  if ((version as number) > LINK_VERSION) {
    throw new SchemaError(
      `this link was made by a newer gpprobe (link version ${String(version)}; this one reads up to ${LINK_VERSION})`,
    );
  }
  // Version 1 is the current version: nothing to convert yet. A later version adds its step here.
  const prefix = "this link's ";
  const f = checkFields(json, SESSION_FIELDS, prefix, { observations: 'rows' });
  const view = checkFields(json, VIEW_FIELDS, prefix);
  const session: Session = {
    ...DEFAULT_SESSION,
    data: f.data ?? null,
    concept: f.concept ?? null,
    draw: f.draw ?? DEFAULT_SESSION.draw,
    observations: f.observations ?? [],
    epsilon: f.epsilon ?? DEFAULT_SESSION.epsilon,
    strength: f.strength ?? DEFAULT_SESSION.strength,
    ood: f.ood ?? { kind: 'none' },
    queries: f.queries ?? { kind: 'all' },
  };
  const labs: Record<string, unknown> = {};
  for (const lab of LINKED_LABS)
    if (json[lab] !== undefined) labs[lab] = LAB_LINKS[lab].check(json[lab], `${prefix}${lab}`);
  return {
    session,
    drawn: f.observations === undefined,
    view: {
      tab: view.tab ?? DEFAULT_VIEW.tab,
      colorBy: view.colorBy ?? DEFAULT_VIEW.colorBy,
      selected: view.selected ?? null,
    },
    ...(labs as LabLinkStates),
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

/**
 * The state in a URL hash ("#s=..."), or null when the hash holds none; throws a SchemaError with a
 * readable message for a damaged, oversized or malformed one. The sizes are bounded before parsing:
 * the value's length, then the inflated JSON (inflateBounded), then every list (session_schema.ts).
 */
export function decodeLink(hash: string): LinkState | null {
  const value = new URLSearchParams(hash.replace(/^#/, '')).get('s');
  if (value === null) return null;
  if (value.length > SCHEMA_LIMITS.linkChars) {
    throw new SchemaError(
      `this link's state (#s=...) is ${value.length.toLocaleString('en-US')} characters long; gpprobe reads at most ${SCHEMA_LIMITS.linkChars.toLocaleString('en-US')}`,
    );
  }
  let bytes: Uint8Array;
  try {
    bytes = inflateBounded(fromBase64Url(value), SCHEMA_LIMITS.stateBytes, "this link's state (#s=...)");
  } catch (error) {
    if (error instanceof SchemaError) throw error;
    throw new SchemaError("this link's state (#s=...) is damaged: it may have been cut off when it was copied");
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new SchemaError("this link's state (#s=...) is damaged: it may have been cut off when it was copied");
  }
  return migrate(json);
}
