// The words of a link that describe state (link_params.ts reads them from the query; share_link.ts's
// #s= carries the same state whole), one table: the <gpprobe-probe> element's attributes are these
// words too (embed/element.ts), so a word added here is a link parameter and an attribute at once.
// A leaf module: the element's bundle (embed.js) takes it without the app.

export interface LinkWord {
  /** Its value is a URL: relative ones resolve against the page that holds the link or the element. */
  readonly url?: true;
  /** It may be given more than once (an element's attribute lists the values separated by spaces). */
  readonly several?: true;
}

export const LINK_WORDS = {
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
  compare: { url: true, several: true },
  'compare-concepts': {},
  'compare-view': {},
  'compare-draws': {},
} as const satisfies Record<string, LinkWord>;

export type LinkWordName = keyof typeof LINK_WORDS;

/** Every word, in the table's order. */
export const STATE_WORDS = Object.keys(LINK_WORDS) as LinkWordName[];

const flagged = (flag: keyof LinkWord): LinkWordName[] =>
  STATE_WORDS.filter((word) => (LINK_WORDS[word] as LinkWord)[flag] === true);

/** The words whose values are URLs. */
export const URL_WORDS = flagged('url');
/** The words that may be given more than once. */
export const SEVERAL_WORDS = flagged('several');
