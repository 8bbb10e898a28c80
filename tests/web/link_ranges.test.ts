// Every link word that holds a number is held to its range before anything is applied or saved (issue
// 35, item 1): the cases are generated from the link words table (app/link_words.ts) and each word's
// range (app/link_params.ts WORD_RANGES, which are the session schema's RANGES), so a word added to the
// table is tested here without a line more. The ranges are the engine's: ε in [1e-300, 1e300] and
// s in (0, 1e300] are core/include/gpprobe/probe/beta_prior.h's kMinEpsilon, kMaxEpsilon and
// kMaxStrength (tests/core/bad_input_test.cpp refuses 1e-301 and 1e301 there), counts cross into C++
// as unsigned 32-bit numbers.
import { describe, expect, it } from 'vitest';
import { paramsLink, WORD_RANGES } from '../../web/src/app/link_params.ts';
import { STATE_WORDS, URL_WORDS } from '../../web/src/app/link_words.ts';
import { RANGES, SESSION_FIELDS, type Range } from '../../web/src/common/state/session_schema.ts';

const base = 'https://app.example/gp/';

/** The words whose values are not numbers (URLs, names, column=value lists): every other word has a range. */
const TEXT_WORDS = [
  ...URL_WORDS,
  'embedding',
  'demo',
  'concept',
  'queries',
  'tab',
  'color-by',
  'compare-concepts',
  'compare-view',
];

/** Values just outside `range`, and beside the numbers: text, nothing, infinities, NaN (a list's items: no empty one). */
function outside(range: Range, list: boolean): string[] {
  const below = range.min === 0 ? (range.minOpen ? ['0', '-0', '-1e-300'] : ['-1']) : [String(range.min / 10)];
  const fraction = range.integer ? ['2.5'] : [];
  return [
    ...below,
    String(range.max * 10),
    String(range.max + 1 === range.max ? Infinity : range.max + 1),
    ...fraction,
    'abc',
    ...(list ? ['1,abc', `1,${range.max * 10}`] : ['', ' ']),
    'NaN',
    'Infinity',
    '-Infinity',
    '1e',
  ];
}
/** Values at the ends of `range`, which a link may carry. */
const inside = (range: Range): string[] =>
  [range.minOpen ? (range.integer ? range.min + 1 : Number.MIN_VALUE) : range.min, range.max].map(String);

describe('the range of every link word that holds numbers', () => {
  it('is given for every word of the table that is not a text', () => {
    expect([...STATE_WORDS].filter((w) => !TEXT_WORDS.includes(w)).sort()).toEqual(Object.keys(WORD_RANGES).sort());
  });

  it("is the session schema's: ε, s and counts as a session file and a #s= link are held to", () => {
    expect(WORD_RANGES.epsilon).toBe(RANGES.epsilon);
    expect(WORD_RANGES.strength).toBe(RANGES.strength);
    expect(RANGES.epsilon).toMatchObject({ min: 1e-300, max: 1e300 });
    expect(RANGES.strength).toMatchObject({ min: 0, minOpen: true, max: 1e300 });
    expect(RANGES.count).toMatchObject({ min: 0, max: 2 ** 32 - 1, integer: true });
    expect(() => SESSION_FIELDS.epsilon(1e-301, 'epsilon')).toThrow('epsilon must be a number from 1e-300 to 1e300');
    expect(() => SESSION_FIELDS.strength(1e301, 'strength')).toThrow(
      'strength must be a number above 0, at most 1e300',
    );
  });

  for (const [word, range] of Object.entries(WORD_RANGES)) {
    it(`${word}: refused outside, named in one problem; taken at its ends`, () => {
      for (const value of outside(range, word === 'observations')) {
        const p = paramsLink(new URLSearchParams({ demo: 'digits', [word]: value }), base)!;
        expect(p.problems, `${word}=${value}`).toHaveLength(1);
        expect(p.problems[0], `${word}=${value}`).toContain(`${word}=${value}`);
        // Nothing of the value reaches the session the link would open.
        expect(JSON.stringify(p.link.session), `${word}=${value}`).toBe(
          JSON.stringify({ data: { kind: 'demo', id: 'digits' } }),
        );
      }
      for (const value of inside(range)) {
        const p = paramsLink(new URLSearchParams({ demo: 'digits', [word]: value }), base)!;
        expect(p.problems, `${word}=${value}`).toEqual([]);
      }
    });
  }

  it("the issue's links: epsilon=1e-301 and strength=1e301 are refused, naming the range", () => {
    expect(paramsLink(new URLSearchParams('epsilon=1e-301'), base)!.problems).toEqual([
      'epsilon=1e-301 is not a number from 1e-300 to 1e300',
    ]);
    expect(paramsLink(new URLSearchParams('strength=1e301'), base)!.problems).toEqual([
      'strength=1e301 is not a number above 0, at most 1e300',
    ]);
    expect(paramsLink(new URLSearchParams('selected=4294967296'), base)!.problems).toEqual([
      'selected=4294967296 is not a whole number from 0 to 4294967295',
    ]);
  });
});
