// The words of a link that describe state (link_params.ts reads them from the query; share_link.ts's
// #s= carries the same state whole), one table: the session's words, read by the shell, and each lab's
// own (labs/link_words.ts, the registry's link-words part). The <gpprobe-probe> element's attributes
// are these words too (embed/element.ts), so a word added to either is a link parameter and an
// attribute at once. A leaf module: the element's bundle (embed.js) takes it without the app.
import { LAB_LINK_WORDS, type LinkedLab, type LinkWord } from '../labs/link_words.ts';

export type { LinkWord } from '../labs/link_words.ts';

/** The session's words (data, concept, observations, settings) and the view's. */
const SESSION_WORDS = {
  data: { url: true },
  metadata: { url: true, several: true },
  ood: { url: true },
  config: { url: true },
  embedding: {},
  demo: {},
  concept: {},
  'per-class': {},
  seed: {},
  observations: {},
  epsilon: {},
  strength: {},
  queries: {},
  tab: {},
  'color-by': {},
  selected: {},
} as const satisfies Record<string, LinkWord>;

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type LabWords = UnionToIntersection<(typeof LAB_LINK_WORDS)[LinkedLab]>;

function joined(): typeof SESSION_WORDS & LabWords {
  const all: Record<string, LinkWord> = { ...SESSION_WORDS };
  for (const [lab, words] of Object.entries(LAB_LINK_WORDS) as [string, Record<string, LinkWord>][]) {
    for (const [word, flags] of Object.entries(words)) {
      if (word in all) throw new Error(`link word "${word}" of the ${lab} lab is already a link word`);
      all[word] = flags;
    }
  }
  return all as typeof SESSION_WORDS & LabWords;
}

export const LINK_WORDS = joined();

export type LinkWordName = keyof typeof LINK_WORDS;

/** Every word: the session's, then each lab's, in the tables' order. */
export const STATE_WORDS = Object.keys(LINK_WORDS) as LinkWordName[];

const flagged = (flag: keyof LinkWord): LinkWordName[] =>
  STATE_WORDS.filter((word) => (LINK_WORDS[word] as LinkWord)[flag] === true);

/** The words whose values are URLs. */
export const URL_WORDS = flagged('url');
/** The words that may be given more than once. */
export const SEVERAL_WORDS = flagged('several');
