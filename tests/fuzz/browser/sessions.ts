// Sessions and links as fuzz targets (issue 23): the JSON of a session file (or the saved session), the
// JSON a link's #s= carries (deflated and base64url-encoded here, as encodeLink does, so the mutations
// reach the schema), and the deflated bytes of a link themselves (the bounded inflate). Bundled for Node
// by scripts/test/fuzz_browser_parsers.mjs beside parsers.ts and run the same way: in a worker thread, the
// module answers {target, bytes} with what the reader did. A reader may accept (then what it returns
// must hold to the schema and read back to itself) or refuse with a SchemaError; any other exception, a
// result that breaks the schema, a timeout or running out of memory is a finding.
import { readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { deflateSync, inflateSync } from 'fflate';
import { DEFAULT_SESSION, parseSession, type Session } from '../../../web/src/common/state/session.ts';
import { SCHEMA_LIMITS, SchemaError } from '../../../web/src/common/state/session_schema.ts';
import { COMPARE_VIEWS, compareLink, type LinkedCompare } from '../../../web/src/labs/compare/state/compare_link.ts';
import { decodeLink, encodeLink, type LinkState } from '../../../web/src/app/share_link.ts';
import { paramsLink } from '../../../web/src/app/link_params.ts';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const toBase64Url = (bytes: Uint8Array) =>
  Buffer.from(bytes).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

interface Target {
  read(bytes: Uint8Array): Session | LinkState | LinkedCompare | null;
}

const APP = 'https://app.example/gp/';

export const TARGETS: Record<string, Target> = {
  session_file: { read: (b) => parseSession(text(b)) },
  link_state: { read: (b) => decodeLink(`#s=${toBase64Url(deflateSync(b))}`) },
  link_deflated: { read: (b) => decodeLink(`#s=${toBase64Url(b)}`) },
  // The Compare lab's field of a link (its JSON, deflated as encodeLink does), and the hand-typed
  // compare=, compare-concepts=, compare-view= parameters: what they give must be a CompareLink the
  // link's schema accepts (the link the page then writes must open again).
  link_compare: { read: (b) => decodeLink(`#s=${toBase64Url(deflateSync(b))}`) },
  link_compare_params: { read: (b) => paramsLink(new URLSearchParams(text(b)), APP)?.link.compare ?? null },
};

const full: Session = {
  ...DEFAULT_SESSION,
  data: { kind: 'url', data: 'https://data.example/emb.parquet', metadata: ['https://data.example/m.tsv'] },
  concept: { column: 'score', kind: 'threshold', threshold: 0.125 },
  draw: { perClass: 12, seed: 7 },
  observations: [0, 5, 9, 123456],
  epsilon: 0.30000000000000004,
  strength: 1 / 3,
  ood: { kind: 'file', files: [{ name: 'ood.npy', size: 1200 }], url: 'https://data.example/ood.npy' },
  queries: { kind: 'values', column: 'split', values: ['test', 'val'] },
};
const sessions: Session[] = [
  full,
  {
    ...DEFAULT_SESSION,
    data: { kind: 'demo', id: 'digits' },
    concept: { column: 'even', kind: 'values', positives: ['1'] },
    observations: [3, 17],
  },
  {
    ...DEFAULT_SESSION,
    data: {
      kind: 'upload',
      files: [
        { name: 'emb.npy', size: 4096 },
        { name: 'meta.csv', size: 90 },
      ],
    },
    ood: { kind: 'column', column: 'split', inDistribution: ['train'] },
  },
  {
    ...DEFAULT_SESSION,
    data: { kind: 'projector', config: 'https://p.example/projector_config.json', embedding: 'Mnist' },
  },
];

/** Valid inputs of each target: sessions, and the links of them and of the committed version-1 links. */
export function seeds(): Record<string, Uint8Array[]> {
  const encode = (s: string) => new TextEncoder().encode(s);
  const links: LinkState[] = [
    ...sessions.map((session, i) => ({
      session,
      drawn: i % 2 === 1,
      view: { tab: 'probe', colorBy: 'episteme', selected: i ? 3 : null },
    })),
    ...(
      JSON.parse(readFileSync('tests/web/links/v1_links.json', 'utf8')) as { links: { state: LinkState }[] }
    ).links.map((l) => l.state),
  ];
  const linkJson = links.map((l) => new TextDecoder().decode(inflateLink(encodeLink(l))));
  const compares: LinkedCompare[] = [
    { sources: { kind: 'demo' }, concepts: { kind: 'session' }, view: 'profile', shown: 0, run: false },
    {
      sources: {
        kind: 'urls',
        urls: [
          'https://data.example/layers/a.npy',
          'https://data.example/b.safetensors',
          'https://data.example/c.parquet',
        ],
      },
      concepts: { kind: 'values', column: 'digit' },
      view: 'grid',
      shown: 7,
      run: true,
    },
    {
      sources: {
        kind: 'urls',
        urls: Array.from({ length: SCHEMA_LIMITS.files }, (_, i) => `https://data.example/l${i}.npy`),
      },
      concepts: { kind: 'session' },
      view: 'table',
      shown: 1000,
      run: true,
    },
  ];
  const compareLinks = compares.map((compare, i) => ({
    ...links[i],
    view: { tab: 'compare', colorBy: 'judgedProbability', selected: null },
    compare,
  }));
  return {
    link_compare: compareLinks.map((l) => inflateLink(encodeLink(l))),
    link_compare_params: [
      'demo=digits&compare=layers/a.npy&compare=https://x.example/b.npy&compare-concepts=digit&compare-view=grid',
      'compare=layers-demo&compare-view=profile&embed=1',
      'data=emb.parquet&compare=a.safetensors&compare=http://h.example:8080/c.parquet?x=1%262&compare-concepts=split',
      // At the schema's limits: as many URLs as a link holds, a column name as long as a link holds.
      `demo=digits${Array.from({ length: SCHEMA_LIMITS.files }, (_, i) => `&compare=l${i}.npy`).join('')}`,
      `compare=layers-demo&compare-concepts=${'c'.repeat(SCHEMA_LIMITS.text - 4)}&compare-view=grid`,
    ].map(encode),
    session_file: sessions.map((s) => encode(JSON.stringify(s, null, 2))),
    link_state: linkJson.map(encode),
    link_deflated: links.map((l) => fromBase64Url(encodeLink(l).slice(2))),
  };
}

function fromBase64Url(value: string): Uint8Array {
  return new Uint8Array(Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
}

/** The JSON a link's hash ("s=…") carries. */
function inflateLink(hash: string): Uint8Array {
  return inflateSync(fromBase64Url(hash.slice(2)));
}

export type Outcome = { kind: 'parsed' | 'refused' } | { kind: 'defect'; detail: string };

/** Breaks of the schema in an accepted session, as text (empty when it holds). */
function schemaBreaks(s: Session): string[] {
  const out: string[] = [];
  const rows = s.observations;
  if (rows.length > SCHEMA_LIMITS.rows) out.push(`${rows.length} observations`);
  if (!rows.every((r, i) => Number.isInteger(r) && r >= 0 && r <= SCHEMA_LIMITS.count && (i === 0 || r > rows[i - 1])))
    out.push('observations not ascending row numbers');
  if (!(s.epsilon >= 1e-300 && s.epsilon <= 1e300)) out.push(`epsilon ${s.epsilon}`);
  if (!(s.strength > 0 && s.strength <= 1e300)) out.push(`strength ${s.strength}`);
  const urls =
    s.data?.kind === 'url' ? [s.data.data, ...s.data.metadata] : s.data?.kind === 'projector' ? [s.data.config] : [];
  if (s.ood.kind === 'file' && s.ood.url !== undefined) urls.push(s.ood.url);
  for (const u of urls) if (!/^https?:\/\//.test(u)) out.push(`URL ${u}`);
  return out;
}

/** Breaks of the schema in a Compare link (labs/compare/state/compare_link.ts: compareLink), as text (empty when it holds). */
function compareBreaks(c: LinkedCompare): string[] {
  const out: string[] = [];
  if (c.sources.kind === 'urls') {
    if (c.sources.urls.length > SCHEMA_LIMITS.files) out.push(`${c.sources.urls.length} URLs`);
    for (const u of c.sources.urls)
      if (!/^https?:\/\//.test(u) || u.length > SCHEMA_LIMITS.url) out.push(`URL ${u.slice(0, 60)}`);
  } else if (c.sources.kind === 'upload') {
    if (c.sources.files.length > SCHEMA_LIMITS.files) out.push(`${c.sources.files.length} files`);
  } else if (c.sources.kind !== 'demo') out.push(`sources ${JSON.stringify(c.sources)}`);
  if (
    c.concepts.kind === 'values' &&
    !(typeof c.concepts.column === 'string' && c.concepts.column.length <= SCHEMA_LIMITS.text)
  )
    out.push('concepts column');
  if (!(COMPARE_VIEWS as readonly string[]).includes(c.view)) out.push(`view ${c.view}`);
  if (!(Number.isInteger(c.shown) && c.shown >= 0 && c.shown <= 1000)) out.push(`shown ${c.shown}`);
  if (typeof c.run !== 'boolean') out.push(`run ${String(c.run)}`);
  return out;
}

/** What a read of `bytes` did: parsed (holding to the schema, reading back to itself), refused with a SchemaError, or a defect. */
export function outcomeOf(target: string, bytes: Uint8Array): Outcome {
  let result: Session | LinkState | LinkedCompare | null;
  try {
    result = TARGETS[target].read(bytes);
  } catch (error) {
    if (error instanceof SchemaError && error.message.length > 0) return { kind: 'refused' };
    return {
      kind: 'defect',
      detail: `threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
    };
  }
  if (result === null)
    return target === 'session_file'
      ? { kind: 'defect', detail: 'a session file read as nothing' }
      : { kind: 'parsed' };
  try {
    if ('sources' in result) {
      // Hand-typed parameters: the Compare link they give must pass the link's schema as it is.
      const breaks = compareBreaks(result);
      if (breaks.length)
        return {
          kind: 'defect',
          detail: `parameters gave a compare link that breaks the schema: ${breaks.join(', ')}`,
        };
      const again = compareLink(JSON.parse(JSON.stringify(result)), 'compare');
      if (JSON.stringify(again) !== JSON.stringify(result))
        return { kind: 'defect', detail: 'a compare link from parameters does not read back to itself' };
    } else if ('version' in result) {
      const breaks = schemaBreaks(result);
      if (breaks.length)
        return { kind: 'defect', detail: `accepted a session that breaks the schema: ${breaks.join(', ')}` };
      const again = parseSession(JSON.stringify(result));
      if (JSON.stringify(again) !== JSON.stringify(result))
        return { kind: 'defect', detail: 'a session does not read back to itself' };
    } else {
      const breaks = [...schemaBreaks(result.session), ...(result.compare ? compareBreaks(result.compare) : [])];
      if (breaks.length)
        return { kind: 'defect', detail: `accepted a link that breaks the schema: ${breaks.join(', ')}` };
      const again = decodeLink(`#${encodeLink(result)}`);
      if (JSON.stringify(again) !== JSON.stringify(result))
        return { kind: 'defect', detail: 'a link does not read back to itself' };
    }
  } catch (error) {
    return {
      kind: 'defect',
      detail: `an accepted state does not read back: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  return { kind: 'parsed' };
}

parentPort?.on('message', ({ target, bytes }: { target: string; bytes: Uint8Array }) => {
  parentPort!.postMessage(outcomeOf(target, bytes));
});
// Loaded: the runner starts timing inputs only now.
parentPort?.postMessage({ kind: 'ready' });
