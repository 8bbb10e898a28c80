// Links that reproduce a probe: the #s= state round-trips every field, the committed version-1 links
// (tests/web/links/v1_links.json, made by version 1 and never regenerated) still open to the same
// state, a link from a newer version or a damaged one is refused with a message, and hand-typed
// parameters say only what they say.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pageOptions, paramsLink } from '../../web/src/app/link_params.ts';
import { DEFAULT_SESSION } from '../../web/src/common/state/session.ts';
import { decodeLink, encodeLink, migrate, type LinkState } from '../../web/src/app/share_link.ts';

const fixture = JSON.parse(readFileSync('tests/web/links/v1_links.json', 'utf8')) as {
  links: { name: string; hash: string; state: LinkState }[];
};

const full: LinkState = {
  session: {
    ...DEFAULT_SESSION,
    data: { kind: 'url', data: 'https://data.example/emb.parquet', metadata: ['https://data.example/m.tsv'] },
    concept: { column: 'score', kind: 'threshold', threshold: 0.125 },
    draw: { perClass: 12, seed: 7 },
    observations: [0, 5, 9, 123456],
    epsilon: 0.1 + 0.2,
    strength: 1 / 3,
    ood: { kind: 'file', files: [{ name: 'ood.npy', size: 1200 }], url: 'https://data.example/ood.npy' },
    queries: { kind: 'values', column: 'split', values: ['test', 'val'] },
  },
  drawn: false,
  view: { tab: 'evaluate', colorBy: 'alea', selected: 9 },
};

describe('link state', () => {
  it('round-trips every field, numbers bit for bit', () => {
    const back = decodeLink(`#${encodeLink(full)}`)!;
    expect(back).toEqual(full);
    expect(back.session.epsilon).toBe(0.30000000000000004);
    const projector = {
      ...full,
      session: {
        ...full.session,
        data: {
          kind: 'projector' as const,
          config: 'https://x.example/projector_config.json',
          embedding: 'Word2Vec 10K',
        },
      },
    };
    expect(decodeLink(`#${encodeLink(projector)}`)).toEqual(projector);
  });

  it('names the draw instead of listing its rows', () => {
    const drawn = { ...full, drawn: true };
    const back = decodeLink(`#${encodeLink(drawn)}`)!;
    expect(back.drawn).toBe(true);
    expect(back.session.observations).toEqual([]);
    expect(back.session.draw).toEqual({ perClass: 12, seed: 7 });
  });

  it('stays short: 500 observations of a 100,000-row dataset fit in a URL', () => {
    const rows = Array.from({ length: 500 }, (_, i) => i * 199 + (i % 7));
    const hash = encodeLink({ ...full, session: { ...full.session, observations: rows } });
    expect(hash.length).toBeLessThan(2000);
    expect(decodeLink(`#${hash}`)!.session.observations).toEqual(rows);
  });

  for (const link of JSON.parse(readFileSync('tests/web/links/v1_links.json', 'utf8')).links as typeof fixture.links) {
    it(`opens the committed version-1 link "${link.name}"`, () => {
      expect(decodeLink(link.hash)).toEqual(link.state);
    });
  }

  it('refuses a link from a newer version, and a damaged one, with a message', () => {
    expect(() => migrate({ v: 2 })).toThrow(
      'this link was made by a newer gpprobe (link version 2; this one reads up to 1)',
    );
    expect(() => migrate({ data: {} })).toThrow('this link is not a gpprobe link (no version)');
    expect(() => decodeLink(fixture.links[0].hash.slice(0, 60))).toThrow("this link's state (#s=...) is damaged");
    expect(decodeLink('#section-2')).toBeNull();
  });

  it('refuses bad fields instead of opening their defaults (issue 23, item 5; the rules: session_schema.test.ts)', () => {
    expect(() => migrate({ v: 1, epsilon: -1, strength: 'x' })).toThrow(
      "this link's epsilon must be a number from 1e-300 to 1e300, got -1",
    );
    expect(() => migrate({ v: 1, rows: [3, -1, 2.5, 3, 1] })).toThrow(
      "this link's rows[1] must be a whole number from 0 to 4294967295, got -1",
    );
    expect(migrate({ v: 1, rows: [3, 1, 3] }).session.observations).toEqual([1, 3]);
  });
});

describe('hand-typed parameters', () => {
  const base = 'https://host.example/tools/gpprobe/index.html';

  it('say only what they say, with URLs resolved against the page', () => {
    const p = paramsLink(
      new URLSearchParams(
        'data=data/emb.npy&metadata=data/meta.csv&metadata=https://o.example/labels.npy&concept=label=cat,dog&per-class=4&epsilon=0.5',
      ),
      base,
    )!;
    expect(p.problems).toEqual([]);
    expect(p.link).toEqual({
      session: {
        data: {
          kind: 'url',
          data: 'https://host.example/tools/gpprobe/data/emb.npy',
          metadata: ['https://host.example/tools/gpprobe/data/meta.csv', 'https://o.example/labels.npy'],
        },
        concept: { column: 'label', kind: 'values', positives: ['cat', 'dog'] },
        draw: { perClass: 4, seed: 1 },
        epsilon: 0.5,
      },
      drawn: true,
      view: {},
    });
  });

  it('read thresholds, explicit rows, a Projector config, the OOD file and the view', () => {
    const p = paramsLink(
      new URLSearchParams(
        'config=/p/projector_config.json&embedding=Mnist&concept=score>=0.75&observations=9,2,9&ood=ood.npy&queries=split=test&tab=ood&color-by=episteme&selected=2',
      ),
      base,
    )!;
    expect(p.problems).toEqual([]);
    expect(p.link.session).toEqual({
      data: { kind: 'projector', config: 'https://host.example/p/projector_config.json', embedding: 'Mnist' },
      concept: { column: 'score', kind: 'threshold', threshold: 0.75 },
      observations: [2, 9],
      ood: { kind: 'file', files: [], url: 'https://host.example/tools/gpprobe/ood.npy' },
      queries: { kind: 'values', column: 'split', values: ['test'] },
    });
    expect(p.link.drawn).toBe(false);
    expect(p.link.view).toEqual({ tab: 'ood', colorBy: 'episteme', selected: 2 });
  });

  it('name each bad value (the page then refuses the link whole: link_actions.ts)', () => {
    const p = paramsLink(
      new URLSearchParams('demo=digits&epsilon=abc&strength=0&per-class=2.5&observations=1,x&concept=nocolumn'),
      base,
    )!;
    expect(p.problems).toEqual([
      'concept=nocolumn is not column=value,... or column>=number',
      'per-class=2.5 is not a whole number from 0 to 4294967295',
      'observations=1,x is not a list of row numbers (each a whole number from 0 to 4294967295)',
      'epsilon=abc is not a number from 1e-300 to 1e300',
      'strength=0 is not a number above 0, at most 1e300',
    ]);
    expect(p.link.session).toEqual({ data: { kind: 'demo', id: 'digits' } });
  });

  it('describe nothing without state parameters; embed options are separate', () => {
    expect(paramsLink(new URLSearchParams('embed=1&views=judged'), base)).toBeNull();
    expect(pageOptions(new URLSearchParams('embed=1&views=table,judged,nonsense,judged'))).toEqual({
      embed: true,
      views: ['table', 'judged'],
    });
    expect(pageOptions(new URLSearchParams(''))).toEqual({
      embed: false,
      views: ['map', 'judged', 'alea', 'belief', 'table'],
    });
  });
});
