// The query parameters people type by hand (and the <gpprobe-probe> element's attributes become):
//
//   ?data=URL [&metadata=URL ...] [&ood=URL]       files by URL, any format the app reads
//   ?config=URL [&embedding=tensorName]            an Embedding Projector projector_config.json
//   ?demo=digits                                   a bundled demo
//   &concept=column=v1,v2   or   &concept=column>=0.5
//   &per-class=8 &seed=1   or   &observations=12,40,77
//   &epsilon=0.1 &strength=5 &queries=column=v1,v2
//   &tab=probe &color-by=episteme &selected=12
//   &compare=URL [&compare=URL ...]  or  &compare=layers-demo     the Compare lab's representations
//   [&compare-concepts=column] [&compare-view=table|profile|grid]  (the grid: every value of column)
//   [&compare-draws=R]  (draws of the observations Compare runs over: 1 to 1000, default 20)
//   &embed=1 [&views=map,judged,alea,belief,table,profile,grid]  embed mode (embed/)
//
// The words that describe state are one table, link_words.ts. They are read when the URL has no #s=
// state (share_link.ts), which otherwise says everything.
// Relative URLs are resolved against the page. Pure functions; problems are returned as messages.
import { DEFAULT_SESSION, type Concept, type QuerySubset, type Session } from '../common/state/session.ts';
import { STATE_WORDS, type LinkWordName } from './link_words.ts';
import { LAB_LINK_WORDS as LINK_WORDS_OF } from '../labs/link_words.ts';
import type { LinkTarget } from './share_link.ts';
import { inRange, RANGES, rangeText, SCHEMA_LIMITS, type Range } from '../common/state/session_schema.ts';
import { LAB_LINKS, LINKED_LABS, type LabLinkStates } from '../labs/links.ts';
import type { ParamsReader } from '../common/state/link_part.ts';

const EMBED_VIEWS = ['map', 'judged', 'alea', 'belief', 'table', 'profile', 'grid'] as const;
export type EmbedView = (typeof EMBED_VIEWS)[number];
/** The probe's views, an embed's default; the Compare lab's (profile, grid) only when asked for. */
const PROBE_VIEWS: EmbedView[] = ['map', 'judged', 'alea', 'belief', 'table'];

export interface PageOptions {
  embed: boolean;
  /** The views an embed shows (in this order); all of them by default. */
  views: EmbedView[];
}

export function pageOptions(params: URLSearchParams): PageOptions {
  const embed = ['1', 'true', 'yes', ''].includes(params.get('embed') ?? 'no');
  const asked = (params.get('views') ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v): v is EmbedView => (EMBED_VIEWS as readonly string[]).includes(v));
  // An embed of a lab's state (e.g. compare=...) shows that lab's views unless `views` says otherwise.
  const linked = LINKED_LABS.find((lab) => Object.keys(LINK_WORDS_OF[lab]).some((word) => params.has(word)));
  const fallback: EmbedView[] =
    linked && LAB_LINKS[linked].embedViews
      ? (LAB_LINKS[linked].embedViews as readonly string[]).filter((v): v is EmbedView =>
          (EMBED_VIEWS as readonly string[]).includes(v),
        )
      : PROBE_VIEWS;
  return { embed, views: asked.length ? [...new Set(asked)] : [...fallback] };
}

/** "column=v1,v2" or "column>=t" (a concept), or null. */
function columnValues(
  text: string,
): { column: string; values: string[] } | { column: string; threshold: number } | null {
  const threshold = /^(.+?)>=(.+)$/.exec(text);
  if (threshold && Number.isFinite(Number(threshold[2])))
    return { column: threshold[1], threshold: Number(threshold[2]) };
  const at = text.indexOf('=');
  if (at <= 0) return null;
  return { column: text.slice(0, at), values: text.slice(at + 1).split(',') };
}

/**
 * The range of each link word that holds numbers (`observations`: each of its row numbers): the session
 * schema's (session_schema.ts RANGES, which are the engine's), so a link is held to what a session file
 * and a #s= link are held to, before anything is applied or saved (issue 35, item 1). The session's
 * words here, each linked lab's from its part of the registry (labs/links.ts).
 */
export const WORD_RANGES: Readonly<Record<string, Range>> = {
  epsilon: RANGES.epsilon,
  strength: RANGES.strength,
  'per-class': RANGES.count,
  seed: RANGES.count,
  observations: RANGES.count,
  selected: RANGES.count,
  ...Object.assign({}, ...LINKED_LABS.map((lab) => LAB_LINKS[lab].ranges)),
};

export interface ParamsLink {
  /** Only what the parameters say: the rest stays as the data's defaults (a demo's own concept, ...). */
  link: LinkTarget;
  /**
   * Values the link cannot be opened with (a broken URL, a value out of its range, a malformed concept):
   * when there is any, the link is refused whole (nothing of it applied or saved).
   */
  problems: string[];
  /** What was read otherwise than written, the link still opening (the first 64 of 70 compare= URLs). */
  notes: string[];
}

/** The state the parameters describe, or null when they describe none. */
export function paramsLink(params: URLSearchParams, base: string): ParamsLink | null {
  if (!STATE_WORDS.some((p) => params.has(p))) return null;
  const problems: string[] = [];
  const notes: string[] = [];
  // Data is fetched over HTTP only: a javascript:, file: or data: URL is refused here, before anyone is
  // asked to allow its "host" (issue 24, item 7).
  const url = (name: string, value: string): string | null => {
    let href: URL;
    try {
      href = new URL(value, base);
    } catch {
      problems.push(`${name}=${value} is not a URL`);
      return null;
    }
    if (href.protocol !== 'http:' && href.protocol !== 'https:') {
      problems.push(`${name}=${value} is not an http: or https: URL (gpprobe loads data over HTTP only)`);
      return null;
    }
    return href.href;
  };
  const number = (name: string): number | undefined => {
    const text = params.get(name);
    if (text === null) return undefined;
    const v = Number(text);
    const range = WORD_RANGES[name];
    if (!range) throw new Error(`link word ${name} has no range (app/link_params.ts WORD_RANGES)`);
    if (text.trim() !== '' && inRange(range, v)) return v;
    problems.push(`${name}=${text} is not ${rangeText(range)}`);
    return undefined;
  };
  const session: Partial<Session> = {};
  const data = params.get('data'),
    config = params.get('config'),
    demo = params.get('demo');
  if (data !== null) {
    const main = url('data', data);
    const metadata = params
      .getAll('metadata')
      .map((m) => url('metadata', m))
      .filter((m): m is string => m !== null);
    if (main) session.data = { kind: 'url', data: main, metadata };
  } else if (config !== null) {
    const at = url('config', config);
    if (at) session.data = { kind: 'projector', config: at, embedding: params.get('embedding') ?? '' };
  } else if (demo !== null) {
    session.data = { kind: 'demo', id: demo };
  }
  const ood = params.get('ood');
  if (ood !== null) {
    const at = url('ood', ood);
    if (at) session.ood = { kind: 'file', files: [], url: at };
  }
  const conceptText = params.get('concept');
  if (conceptText !== null) {
    const c = columnValues(conceptText);
    if (!c) problems.push(`concept=${conceptText} is not column=value,... or column>=number`);
    else
      session.concept = (
        'threshold' in c
          ? { column: c.column, kind: 'threshold', threshold: c.threshold }
          : { column: c.column, kind: 'values', positives: c.values }
      ) satisfies Concept;
  }
  const queriesText = params.get('queries');
  if (queriesText !== null) {
    const q = columnValues(queriesText);
    if (!q || 'threshold' in q) problems.push(`queries=${queriesText} is not column=value,...`);
    else session.queries = { kind: 'values', column: q.column, values: q.values } satisfies QuerySubset;
  }
  const perClass = number('per-class'),
    seed = number('seed');
  if (perClass !== undefined || seed !== undefined) {
    session.draw = { perClass: perClass ?? DEFAULT_SESSION.draw.perClass, seed: seed ?? DEFAULT_SESSION.draw.seed };
  }
  const rowsText = params.get('observations');
  let drawn = true;
  if (rowsText !== null) {
    const texts = rowsText.split(',').filter((r) => r.trim() !== '');
    const rows = texts.map(Number);
    if (texts.length > SCHEMA_LIMITS.rows) {
      problems.push(
        `observations= lists ${texts.length.toLocaleString('en-US')} rows; gpprobe reads at most ${SCHEMA_LIMITS.rows.toLocaleString('en-US')}`,
      );
    } else if (rows.every((r) => inRange(WORD_RANGES.observations, r))) {
      session.observations = [...new Set(rows)].sort((a, b) => a - b);
      drawn = false;
    } else
      problems.push(
        `observations=${rowsText.length > 80 ? `${rowsText.slice(0, 80)}…` : rowsText} is not a list of row numbers (each ${rangeText(WORD_RANGES.observations)})`,
      );
  }
  const epsilon = number('epsilon'),
    strength = number('strength');
  if (epsilon !== undefined) session.epsilon = epsilon;
  if (strength !== undefined) session.strength = strength;
  const selected = number('selected');
  const tab = params.get('tab'),
    colorBy = params.get('color-by');
  const read: ParamsReader = { url, number, problems, notes };
  const labs: LabLinkStates = {};
  for (const lab of LINKED_LABS) {
    const state = LAB_LINKS[lab].fromParams(params, read);
    if (state !== undefined) labs[lab] = state;
  }
  return {
    link: {
      session,
      drawn,
      view: {
        ...(tab !== null ? { tab } : {}),
        ...(colorBy !== null ? { colorBy } : {}),
        ...(selected !== undefined ? { selected } : {}),
      },
      ...labs,
    },
    problems,
    notes,
  };
}
