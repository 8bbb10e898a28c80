// The Compare lab's state in links (issue 27): the #s= state carries where the representations came
// from, the concepts, the view and whether the comparison ran, and round-trips; links without it keep
// their bytes (the committed version-1 links encode exactly as before); hand-typed compare= parameters;
// damaged compare state is refused naming the field; embeds show the probe's views unless the Compare
// lab's (profile, grid) are asked for.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pageOptions, paramsLink } from '../../web/src/app/link_params.ts';
import { DEFAULT_SESSION } from '../../web/src/common/state/session.ts';
import { decodeLink, encodeLink, migrate, type LinkState } from '../../web/src/app/share_link.ts';

const fixture = JSON.parse(readFileSync('tests/web/links/v1_links.json', 'utf8')) as {
  links: { name: string; hash: string; state: LinkState }[];
};

const base: LinkState = {
  session: {
    ...DEFAULT_SESSION,
    data: { kind: 'demo', id: 'digits' },
    concept: { column: 'closed_loop', kind: 'values', positives: ['1'] },
    observations: [3, 17, 42],
  },
  drawn: false,
  view: { tab: 'compare', colorBy: 'judgedProbability', selected: null },
};

describe('the comparison in a link', () => {
  it('round-trips the sources, concepts, view, shown concept and whether it ran', () => {
    const withUrls: LinkState = {
      ...base,
      compare: {
        sources: {
          kind: 'urls',
          urls: ['https://data.example/layers.safetensors', 'https://data.example/projector_config.json'],
        },
        concepts: { kind: 'values', column: 'digit' },
        view: 'grid',
        shown: 3,
        run: true,
      },
    };
    expect(decodeLink(`#${encodeLink(withUrls)}`)).toEqual(withUrls);
    const demo: LinkState = {
      ...base,
      compare: { sources: { kind: 'demo' }, concepts: { kind: 'session' }, view: 'profile', shown: 0, run: false },
    };
    expect(decodeLink(`#${encodeLink(demo)}`)).toEqual(demo);
  });

  it('leaves links without a comparison byte for byte as version 1 wrote them', () => {
    const rewritten = fixture.links
      .filter((link) => {
        const state = decodeLink(link.hash)!;
        expect(state.compare).toBeUndefined();
        return `#${encodeLink(state)}` !== link.hash;
      })
      .map((link) => link.name);
    // Version 1 wrote every field: only the hand-trimmed "early" link (missing fields) encodes differently.
    expect(rewritten).toEqual(['an early link with only some fields (the others take their defaults)']);
    expect(encodeLink(base)).toBe(encodeLink({ ...base, compare: undefined }));
  });

  it('carries a comparison on uploaded files by their names (issue 36, item 4), and refuses damaged ones', () => {
    const compare = {
      sources: { kind: 'upload' as const, files: [{ name: 'layer_0.npy' }, { name: 'layer_1.npy', size: 1024 }] },
      concepts: { kind: 'values' as const, column: 'digit' },
      view: 'grid' as const,
      shown: 2,
      run: true,
    };
    const link = {
      session: DEFAULT_SESSION,
      drawn: true,
      view: { tab: 'compare', colorBy: 'judgedProbability', selected: null },
      compare,
    };
    expect(decodeLink(`#${encodeLink(link)}`)!.compare).toEqual(compare);
    const json = (c: unknown) => ({ v: 1, data: { kind: 'demo', id: 'digits' }, compare: c });
    expect(() => migrate(json({ sources: { kind: 'upload', files: 'a.npy' } }))).toThrow(
      'this link\'s compare.sources.files must be a list, got "a.npy"',
    );
    expect(() => migrate(json({ sources: { kind: 'upload', files: [{ name: 'a.npy', size: -1 }] } }))).toThrow(
      "this link's compare.sources.files[0].size must be a whole number",
    );
    expect(() =>
      migrate(json({ sources: { kind: 'upload', files: Array.from({ length: 65 }, () => ({ name: 'a.npy' })) } })),
    ).toThrow("this link's compare.sources.files must be a list of at most 64");
  });

  it('refuses damaged compare state, naming the field', () => {
    const json = (compare: unknown) => ({ v: 1, data: { kind: 'demo', id: 'digits' }, compare });
    expect(() => migrate(json({ sources: { kind: 'urls', urls: ['javascript:alert(1)'] } }))).toThrow(
      "this link's compare.sources.urls[0] must be an http: or https: URL",
    );
    expect(() => migrate(json({ sources: { kind: 'demo' }, view: 'pie' }))).toThrow(
      'this link\'s compare.view must be one of "table", "profile", "grid", got "pie"',
    );
    expect(() => migrate(json({ sources: { kind: 'files' } }))).toThrow(
      'this link\'s compare.sources.kind must be one of "demo", "urls", "upload"',
    );
    expect(() => migrate(json({ sources: { kind: 'demo' }, run: 'yes' }))).toThrow(
      'this link\'s compare.run must be true or false, got "yes"',
    );
    expect(migrate(json({ sources: { kind: 'demo' } })).compare).toEqual({
      sources: { kind: 'demo' },
      concepts: { kind: 'session' },
      view: 'table',
      shown: 0,
      run: true,
    });
  });

  it('reads hand-typed compare parameters', () => {
    const p = paramsLink(
      new URLSearchParams(
        'demo=digits&compare=layers/a.npy&compare=https://x.example/b.npy&compare-concepts=digit&compare-view=grid',
      ),
      'https://app.example/gp/',
    )!;
    expect(p.problems).toEqual([]);
    expect(p.link.compare).toEqual({
      sources: { kind: 'urls', urls: ['https://app.example/gp/layers/a.npy', 'https://x.example/b.npy'] },
      concepts: { kind: 'values', column: 'digit' },
      view: 'grid',
      shown: 0,
      run: true,
    });
    expect(
      paramsLink(new URLSearchParams('compare=layers-demo'), 'https://app.example/')!.link.compare!.sources,
    ).toEqual({ kind: 'demo' });
    const bad = paramsLink(new URLSearchParams('compare=layers-demo&compare-view=pie'), 'https://app.example/')!;
    expect(bad.problems).toEqual(['compare-view=pie is not one of table, profile, grid']);
    expect(paramsLink(new URLSearchParams('compare=file:///etc/passwd'), 'https://app.example/')!.problems).toEqual([
      'compare=file:///etc/passwd is not an http: or https: URL (gpprobe loads data over HTTP only)',
    ]);
  });

  it("embeds show the probe's views by default, the profile and the grid when asked or when the link compares", () => {
    expect(pageOptions(new URLSearchParams('embed=1')).views).toEqual(['map', 'judged', 'alea', 'belief', 'table']);
    expect(pageOptions(new URLSearchParams('embed=1&views=profile,grid')).views).toEqual(['profile', 'grid']);
    expect(pageOptions(new URLSearchParams('embed=1&compare=layers-demo')).views).toEqual(['profile', 'grid']);
    expect(pageOptions(new URLSearchParams('embed=1&compare=layers-demo&views=grid,map')).views).toEqual([
      'grid',
      'map',
    ]);
  });
});
