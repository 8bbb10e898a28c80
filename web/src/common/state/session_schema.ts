// The one schema of a session, as a session file, the browser's saved session and a link's #s= state
// carry it (issue 23, items 3-5): every field's type and range, checked before anything is applied or
// saved. A field of the wrong type or out of range is an error naming the field and what it holds; a
// missing optional field takes its default; unknown fields are ignored (newer builds may add some).
// The sizes are bounded before any parsing: a link's state inflates to at most MAX_STATE_BYTES, a
// session file is at most MAX_STATE_BYTES, and every list has a maximum length (SCHEMA_LIMITS), so a
// 390 KB link of 150 million zeros is refused in milliseconds instead of crashing the tab.
// Pure functions only.
import { Inflate } from 'fflate';
import type { Concept, DataRef, OodSetup, QuerySubset, Session } from './session_types.ts';

/** The limits the schema holds every session and link to (docs/hostile-inputs.md lists them). */
export const SCHEMA_LIMITS = {
  /** A session file, or a link's state once inflated: 16 MiB of JSON. */
  stateBytes: 16 * 2 ** 20,
  /** A link's #s= value as typed (base64url): 8 MiB. */
  linkChars: 8 * 2 ** 20,
  /** Observations (row numbers) of a session. */
  rows: 2_000_000,
  /** Values of a concept, a query subset or an OOD column. */
  values: 100_000,
  /** Files of an upload or an OOD set; metadata URLs. */
  files: 64,
  /** Characters of a column name, value, file name or demo id. */
  text: 4096,
  /** Characters of a URL. */
  url: 8192,
  /** The largest row number, count or seed: what crosses into C++ as an unsigned 32-bit number. */
  count: 4_294_967_295,
  /** ε in [1e-300, 1e300], s in (0, 1e300]: outside, the prior's variance leaves the double range. */
  epsilon: [1e-300, 1e300] as const,
  strength: 1e300,
} as const;

/** A session or link that breaks the schema; the message names the field and what it holds. */
export class SchemaError extends Error {}

export type Check<T> = (value: unknown, path: string) => T;

/** A short rendering of `value` for messages ("5", "\"x\"", "a list of 3", "an object"). */
function shown(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return String(value);
}

export function fail(path: string, what: string, value: unknown): never {
  throw new SchemaError(`${path} must be ${what}, got ${shown(value)}`);
}

export const text =
  (max: number = SCHEMA_LIMITS.text): Check<string> =>
  (v, path) => {
    if (typeof v !== 'string') fail(path, 'a text', v);
    if (v.length > max) fail(path, `a text of at most ${max} characters`, `a text of ${v.length}`);
    return v;
  };

/** An absolute http: or https: URL (data is only ever fetched over HTTP). */
export const httpUrl: Check<string> = (v, path) => {
  const s = text(SCHEMA_LIMITS.url)(v, path);
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return fail(path, 'an absolute URL', v);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(path, 'an http: or https: URL', v);
  return url.href;
};

export const count =
  (max: number = SCHEMA_LIMITS.count): Check<number> =>
  (v, path) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max)
      fail(path, `a whole number from 0 to ${max}`, v);
    return v;
  };

const number =
  (test: (v: number) => boolean, what: string): Check<number> =>
  (v, path) => {
    if (typeof v !== 'number' || !test(v)) fail(path, what, v);
    return v;
  };

/**
 * A range of numbers: from `min` (above it when `minOpen`) to `max`, whole numbers only when `integer`.
 * The ranges of the session's numbers are RANGES, the one table every reader checks them by: the
 * schema below (session files, saved sessions, #s= links) and hand-typed link words (app/link_params.ts).
 */
export interface Range {
  readonly min: number;
  readonly max: number;
  readonly minOpen?: boolean;
  readonly integer?: boolean;
}

/** The ranges of the session's numbers: ε and s as the engine's prior takes them (core beta_prior.h), counts as u32. */
export const RANGES = {
  epsilon: { min: SCHEMA_LIMITS.epsilon[0], max: SCHEMA_LIMITS.epsilon[1] },
  strength: { min: 0, minOpen: true, max: SCHEMA_LIMITS.strength },
  count: { min: 0, max: SCHEMA_LIMITS.count, integer: true },
  /** Compare's draws of the observations (1: the one set alone; the core takes up to 10,000, the app 1,000). */
  compareDraws: { min: 1, max: 1000, integer: true },
} as const satisfies Record<string, Range>;

export function inRange(range: Range, v: number): boolean {
  return (
    Number.isFinite(v) &&
    (range.minOpen ? v > range.min : v >= range.min) &&
    v <= range.max &&
    (!range.integer || Number.isInteger(v))
  );
}

/** What a range holds, for messages: "a number from 1e-300 to 1e300", "a number above 0, at most 1e300". */
export function rangeText(range: Range): string {
  const n = (v: number) => String(v).replace('e+', 'e');
  const what = range.integer ? 'a whole number' : 'a number';
  return range.minOpen
    ? `${what} above ${n(range.min)}, at most ${n(range.max)}`
    : `${what} from ${n(range.min)} to ${n(range.max)}`;
}

export const ranged = (range: Range): Check<number> => number((v) => inRange(range, v), rangeText(range));
const epsilon = ranged(RANGES.epsilon);
const strength = ranged(RANGES.strength);
const finite = number(Number.isFinite, 'a finite number');

export function list<T>(item: Check<T>, max: number): Check<T[]> {
  return (v, path) => {
    if (!Array.isArray(v)) fail(path, 'a list', v);
    if (v.length > max) fail(path, `a list of at most ${max.toLocaleString('en-US')}`, v);
    // The item's own path only when it fails: a list of two million rows makes no two million paths.
    return v.map((x, i) => {
      try {
        return item(x, path);
      } catch (error) {
        if (error instanceof SchemaError) item(x, `${path}[${i}]`);
        throw error;
      }
    });
  };
}

export function object(v: unknown, path: string): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) fail(path, 'an object', v);
  return v as Record<string, unknown>;
}

export function kindOf<K extends string>(o: Record<string, unknown>, path: string, kinds: readonly K[]): K {
  if (!kinds.includes(o.kind as K)) fail(`${path}.kind`, `one of ${kinds.map((k) => `"${k}"`).join(', ')}`, o.kind);
  return o.kind as K;
}

/** A value that may be missing: `fallback` then. */
export function optional<T>(check: Check<T>, fallback: T): Check<T> {
  return (v, path) => (v === undefined ? fallback : check(v, path));
}

function nullable<T>(check: Check<T>): Check<T | null> {
  return (v, path) => (v === null || v === undefined ? null : check(v, path));
}

const files: Check<{ name: string; size: number }[]> = list((v, path) => {
  const f = object(v, path);
  return { name: text()(f.name, `${path}.name`), size: count(Number.MAX_SAFE_INTEGER)(f.size, `${path}.size`) };
}, SCHEMA_LIMITS.files);

const texts = list(text(), SCHEMA_LIMITS.values);

export const dataRef: Check<DataRef> = (v, path) => {
  const d = object(v, path);
  switch (kindOf(d, path, ['demo', 'upload', 'url', 'projector'] as const)) {
    case 'demo':
      return { kind: 'demo', id: text(100)(d.id, `${path}.id`) };
    case 'upload':
      return { kind: 'upload', files: files(d.files, `${path}.files`) };
    case 'url':
      return {
        kind: 'url',
        data: httpUrl(d.data, `${path}.data`),
        metadata: optional(list(httpUrl, SCHEMA_LIMITS.files), [])(d.metadata, `${path}.metadata`),
      };
    case 'projector':
      return {
        kind: 'projector',
        config: httpUrl(d.config, `${path}.config`),
        embedding: optional(text(), '')(d.embedding, `${path}.embedding`),
      };
  }
};

export const concept: Check<Concept> = (v, path) => {
  const c = object(v, path);
  const column = text()(c.column, `${path}.column`);
  return kindOf(c, path, ['values', 'threshold'] as const) === 'values'
    ? { column, kind: 'values', positives: texts(c.positives, `${path}.positives`) }
    : { column, kind: 'threshold', threshold: finite(c.threshold, `${path}.threshold`) };
};

export const oodSetup: Check<OodSetup> = (v, path) => {
  const o = object(v, path);
  switch (kindOf(o, path, ['none', 'column', 'file'] as const)) {
    case 'none':
      return { kind: 'none' };
    case 'column':
      return {
        kind: 'column',
        column: text()(o.column, `${path}.column`),
        inDistribution: texts(o.inDistribution, `${path}.inDistribution`),
      };
    case 'file': {
      const url = o.url === undefined ? undefined : httpUrl(o.url, `${path}.url`);
      return { kind: 'file', files: files(o.files, `${path}.files`), ...(url !== undefined ? { url } : {}) };
    }
  }
};

export const querySubset: Check<QuerySubset> = (v, path) => {
  const q = object(v, path);
  return kindOf(q, path, ['all', 'values'] as const) === 'all'
    ? { kind: 'all' }
    : { kind: 'values', column: text()(q.column, `${path}.column`), values: texts(q.values, `${path}.values`) };
};

export const draw: Check<Session['draw']> = (v, path) => {
  const d = object(v, path);
  return { perClass: count()(d.perClass, `${path}.perClass`), seed: count()(d.seed, `${path}.seed`) };
};

/** Row numbers, sorted and without repeats (their order and repeats mean nothing). */
export const rows: Check<number[]> = (v, path) =>
  [...new Set(list(count(), SCHEMA_LIMITS.rows)(v, path))].sort((a, b) => a - b);

/** The fields of a session (Session, without its version) and their checks: one table for every reader. */
export const SESSION_FIELDS = {
  data: nullable(dataRef),
  concept: nullable(concept),
  observations: rows,
  epsilon,
  strength,
  draw,
  ood: oodSetup,
  queries: querySubset,
} satisfies { [K in Exclude<keyof Session, 'version'>]: Check<Session[K]> };

/** The view a link carries beside the session. */
export const VIEW_FIELDS = {
  tab: text(100),
  colorBy: text(100),
  selected: nullable(count()),
};

/**
 * Checks `value` against the field table `fields`: present fields are checked (errors name `prefix`
 * and the field), missing ones are left out. `rename` maps a field to its key in `value` (a link calls
 * the observations "rows").
 */
export function checkFields<F extends Record<string, Check<unknown>>>(
  value: Record<string, unknown>,
  fields: F,
  prefix = '',
  rename: Partial<Record<keyof F, string>> = {},
): { [K in keyof F]?: ReturnType<F[K]> } {
  const out: { [K in keyof F]?: ReturnType<F[K]> } = {};
  for (const key of Object.keys(fields) as (keyof F & string)[]) {
    const name = rename[key] ?? key;
    if (value[name] === undefined) continue;
    out[key] = fields[key](value[name], `${prefix}${name}`) as ReturnType<F[typeof key]>;
  }
  return out;
}

/** Checks a whole object as `what` ("the session file"): the object itself, then its fields. */
export function checkObject(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new SchemaError(`${what} must be a JSON object, got ${shown(value)}`);
  }
  return value as Record<string, unknown>;
}

/** JSON text of at most SCHEMA_LIMITS.stateBytes, parsed; `what` names it in errors. */
export function parseStateJson(textValue: string, what: string): unknown {
  if (textValue.length > SCHEMA_LIMITS.stateBytes) {
    throw new SchemaError(
      `${what} holds ${textValue.length.toLocaleString('en-US')} characters; gpprobe reads at most ${SCHEMA_LIMITS.stateBytes.toLocaleString('en-US')}`,
    );
  }
  try {
    return JSON.parse(textValue);
  } catch {
    throw new SchemaError(`${what} is not valid JSON`);
  }
}

/**
 * The deflated bytes inflated, stopping as soon as the output passes `max` bytes (a 390 KB link can
 * hold 150 million zeros: it is refused after inflating 16 MiB of them, not 300 MB). The input is fed
 * 1 KiB at a time, so one step inflates at most ~1 MB (deflate's ratio is at most 1032:1).
 */
export function inflateBounded(bytes: Uint8Array, max: number, what: string): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const inflater = new Inflate((chunk) => {
    total += chunk.length;
    if (total > max)
      throw new SchemaError(
        `${what} inflates to more than ${max.toLocaleString('en-US')} bytes; gpprobe reads at most that`,
      );
    chunks.push(chunk);
  });
  const STEP = 1024;
  for (let at = 0; at < bytes.length; at += STEP)
    inflater.push(bytes.subarray(at, at + STEP), at + STEP >= bytes.length);
  if (bytes.length === 0) inflater.push(bytes, true);
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
