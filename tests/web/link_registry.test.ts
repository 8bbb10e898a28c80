// Links have a registry part (labs/link_words.ts, labs/links.ts, and each linked lab's `link` in
// labs/views.ts): a lab that carries state in links declares it there and edits no file of the shell.
// A toy lab added to the registry alone gets its words read from a hand-typed link, carried through a
// #s= link and refused when out of range (tests/web/import_rules.test.ts: the shell's link files reach
// no lab but through the registry).
import { describe, expect, it, vi } from 'vitest';

vi.mock('../../web/src/labs/link_words.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../web/src/labs/link_words.ts')>();
  return { ...actual, LAB_LINK_WORDS: { ...actual.LAB_LINK_WORDS, toy: { 'toy-level': {} } } };
});

vi.mock('../../web/src/labs/links.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../web/src/labs/links.ts')>();
  const { ranged, object } = await import('../../web/src/common/state/session_schema.ts');
  const level = { min: 1, max: 9, integer: true };
  const toy = {
    fromParams: (_params: URLSearchParams, read: { number(word: string): number | undefined }) => {
      const v = read.number('toy-level');
      return v === undefined ? undefined : { level: v };
    },
    check: (v: unknown, path: string) => ({ level: ranged(level)(object(v, path).level, `${path}.level`) }),
    ranges: { 'toy-level': level },
  };
  const LAB_LINKS = { ...actual.LAB_LINKS, toy };
  return { ...actual, LAB_LINKS, LINKED_LABS: Object.keys(LAB_LINKS) };
});

describe('links have a registry part', () => {
  it("a toy lab's words, declared in the registry alone, are link words with their range", async () => {
    const { STATE_WORDS } = await import('../../web/src/app/link_words.ts');
    const { paramsLink, WORD_RANGES } = await import('../../web/src/app/link_params.ts');
    expect(STATE_WORDS.at(-1)).toBe('toy-level');
    expect(WORD_RANGES['toy-level']).toEqual({ min: 1, max: 9, integer: true });
    const read = paramsLink(new URLSearchParams('demo=digits&toy-level=3'), 'https://app.example/')!;
    expect(read.problems).toEqual([]);
    expect((read.link as unknown as Record<string, unknown>).toy).toEqual({ level: 3 });
    const refused = paramsLink(new URLSearchParams('demo=digits&toy-level=12'), 'https://app.example/')!;
    expect(refused.problems).toEqual(['toy-level=12 is not a whole number from 1 to 9']);
  });

  it("a toy lab's state travels in a #s= link under its id, held to its schema", async () => {
    const { decodeLink, encodeLink } = await import('../../web/src/app/share_link.ts');
    const { DEFAULT_SESSION } = await import('../../web/src/common/state/session.ts');
    const state = {
      session: { ...DEFAULT_SESSION, data: { kind: 'demo', id: 'digits' } },
      drawn: true,
      view: { tab: 'probe', colorBy: 'judgedProbability', selected: null },
      toy: { level: 4 },
    } as unknown as Parameters<typeof encodeLink>[0];
    const back = decodeLink(`#${encodeLink(state)}`) as unknown as Record<string, unknown>;
    expect(back.toy).toEqual({ level: 4 });
    // Without the toy's state, the link's bytes are those of a link that never knew the toy.
    const { toy: _, ...without } = state as unknown as Record<string, unknown>;
    expect(decodeLink(`#${encodeLink(without as unknown as typeof state)}`)).not.toHaveProperty('toy');
    const bad = encodeLink({ ...state, toy: { level: 40 } } as unknown as typeof state);
    expect(() => decodeLink(`#${bad}`)).toThrow(/toy\.level/);
  });
});
