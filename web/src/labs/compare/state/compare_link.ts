// The Compare lab's state in a link, and its check: the app's links (app/share_link.ts, link_params.ts)
// carry it beside the session, held to the same schema rules (common/state/session_schema.ts).
import { signal } from '@preact/signals';
import type { LinkPart } from '../../../common/state/link_part.ts';
import {
  count,
  fail,
  httpUrl,
  kindOf,
  list,
  object,
  optional,
  ranged,
  RANGES,
  SCHEMA_LIMITS,
  text,
  type Check,
} from '../../../common/state/session_schema.ts';

/**
 * The Compare lab's state in a link (compare_store.ts): where the representations come
 * from (the bundled layers demo, or files by URL: .npy, .npz, .safetensors, Parquet, a Projector config),
 * which concepts (the session's, or every value of a column), the view an embed shows (table, profile or
 * grid), the grid's concept shown, whether the comparison had been run (then the link runs it), and the
 * draws of the observations it runs over (a link without them: 20, the lab's default).
 */
export interface CompareLink {
  sources: { kind: 'demo' } | { kind: 'urls'; urls: string[] };
  concepts: { kind: 'session' } | { kind: 'values'; column: string };
  view: 'table' | 'profile' | 'grid';
  shown: number;
  run: boolean;
  /** Absent: 20. */
  draws?: number;
}

export const COMPARE_VIEWS = ['table', 'profile', 'grid'] as const;

/**
 * A comparison on files the sharer uploaded (issue 36, item 4): they cannot travel in a link, so the
 * link names them (file names; sizes when the lab knows them) and the reader is asked to choose them.
 */
export interface UploadedCompareLink extends Omit<CompareLink, 'sources'> {
  sources: { kind: 'upload'; files: { name: string; size?: number }[] };
}

/** The Compare lab's state as a link carries it: representations it can fetch again, or uploaded ones. */
export type LinkedCompare = CompareLink | UploadedCompareLink;

/**
 * A link's comparison waiting for its uploaded files (the Compare lab asks for them): once the lab holds
 * representations from files of these names, the link's concepts and view are set and, when the
 * sharer's had run, the comparison runs (app/link_actions.ts).
 */
export const pendingUploadCompare = signal<UploadedCompareLink | null>(null);

export function isUploadedCompare(c: LinkedCompare): c is UploadedCompareLink {
  return c.sources.kind === 'upload';
}

const uploadedFiles = list((v, path) => {
  const f = object(v, path);
  const size = f.size === undefined ? undefined : count(Number.MAX_SAFE_INTEGER)(f.size, `${path}.size`);
  return { name: text()(f.name, `${path}.name`), ...(size !== undefined ? { size } : {}) };
}, SCHEMA_LIMITS.files);

export const compareLink: Check<LinkedCompare> = (v, path) => {
  const c = object(v, path);
  const src = object(c.sources, `${path}.sources`);
  const kind = kindOf(src, `${path}.sources`, ['demo', 'urls', 'upload'] as const);
  const sources: LinkedCompare['sources'] =
    kind === 'demo'
      ? { kind: 'demo' }
      : kind === 'upload'
        ? { kind: 'upload', files: uploadedFiles(src.files, `${path}.sources.files`) }
        : { kind: 'urls', urls: list(httpUrl, SCHEMA_LIMITS.files)(src.urls, `${path}.sources.urls`) };
  const con = c.concepts === undefined ? { kind: 'session' } : object(c.concepts, `${path}.concepts`);
  const concepts: CompareLink['concepts'] =
    kindOf(con, `${path}.concepts`, ['session', 'values'] as const) === 'session'
      ? { kind: 'session' }
      : { kind: 'values', column: text()(con.column, `${path}.concepts.column`) };
  const view = optional(text(20), 'table')(c.view, `${path}.view`);
  if (!(COMPARE_VIEWS as readonly string[]).includes(view))
    fail(`${path}.view`, `one of ${COMPARE_VIEWS.map((x) => `"${x}"`).join(', ')}`, view);
  const run = c.run === undefined ? true : c.run;
  if (typeof run !== 'boolean') fail(`${path}.run`, 'true or false', run);
  return {
    sources,
    concepts,
    view: view as CompareLink['view'],
    shown: optional(count(1000), 0)(c.shown, `${path}.shown`),
    run,
    ...(c.draws === undefined ? {} : { draws: ranged(RANGES.compareDraws)(c.draws, `${path}.draws`) }),
  } as LinkedCompare;
};

/** The comparison a hand-typed link describes (compare=, compare-concepts=, compare-view=, compare-draws=). */
function compareFromParams(params: URLSearchParams, read: Parameters<LinkPart<LinkedCompare>['fromParams']>[1]) {
  // Checked whether or not the link compares (a value out of range is refused either way).
  const draws = read.number('compare-draws');
  const compared = params.getAll('compare');
  if (!compared.length) return undefined;
  // Held to the link's schema (compareLink), so the link the page writes opens again.
  const typed = compared.filter((c) => c !== 'layers-demo');
  if (typed.length > SCHEMA_LIMITS.files) {
    read.notes.push(
      `compare= is given ${typed.length} URLs; gpprobe compares at most ${SCHEMA_LIMITS.files} (the first ${SCHEMA_LIMITS.files} are read)`,
    );
  }
  const urls = typed
    .slice(0, SCHEMA_LIMITS.files)
    .map((c) => read.url('compare', c))
    .filter((c): c is string => c !== null)
    .filter((c) => {
      if (c.length <= SCHEMA_LIMITS.url) return true;
      read.notes.push(
        `compare=${c.slice(0, 40)}… is a URL of ${c.length.toLocaleString('en-US')} characters; gpprobe reads at most ${SCHEMA_LIMITS.url.toLocaleString('en-US')}`,
      );
      return false;
    });
  let column = params.get('compare-concepts');
  const view = params.get('compare-view') ?? 'table';
  if (column !== null && column.length > SCHEMA_LIMITS.text) {
    read.notes.push(
      `compare-concepts= is a column name of ${column.length.toLocaleString('en-US')} characters; gpprobe reads at most ${SCHEMA_LIMITS.text.toLocaleString('en-US')} (the session's concepts are compared)`,
    );
    column = null;
  }
  if (!(COMPARE_VIEWS as readonly string[]).includes(view))
    read.problems.push(`compare-view=${view} is not one of ${COMPARE_VIEWS.join(', ')}`);
  return {
    sources: compared.includes('layers-demo') ? { kind: 'demo' } : { kind: 'urls', urls },
    concepts: column ? { kind: 'values', column } : { kind: 'session' },
    view: (COMPARE_VIEWS as readonly string[]).includes(view) ? (view as CompareLink['view']) : 'table',
    shown: 0,
    run: true,
    ...(draws !== undefined ? { draws } : {}),
  } satisfies CompareLink;
}

/** The Compare lab's part of the registry's links (labs/links.ts). */
export const COMPARE_LINK: LinkPart<LinkedCompare> = {
  fromParams: compareFromParams,
  check: compareLink,
  ranges: { 'compare-draws': RANGES.compareDraws },
  // An embed of a comparison shows its profile and grid unless `views` says otherwise.
  embedViews: ['profile', 'grid'],
};
