// The registry's link-words part: the words of a hand-typed link (and attributes of the <gpprobe-probe>
// element) that a lab reads for its own state, beyond the session's words the shell reads
// (app/link_words.ts joins both into the one table of link words). Each lab that carries state in links
// lists its words here, and its reader and schema in labs/links.ts (the compiler holds the two to the
// same labs). A leaf module: the element's bundle (embed.js) takes it without the app.
import type { LabId } from './index.ts';

export interface LinkWord {
  /** Its value is a URL: relative ones resolve against the page that holds the link or the element. */
  readonly url?: true;
  /** It may be given more than once (an element's attribute lists the values separated by spaces). */
  readonly several?: true;
}

export const LAB_LINK_WORDS = {
  compare: {
    compare: { url: true, several: true },
    'compare-concepts': {},
    'compare-view': {},
    'compare-draws': {},
  },
} as const satisfies { readonly [L in LabId]?: Record<string, LinkWord> };

/** The labs whose state links carry. */
export type LinkedLab = keyof typeof LAB_LINK_WORDS;
/** The link words of lab L. */
export type LabLinkWord<L extends LinkedLab = LinkedLab> = keyof (typeof LAB_LINK_WORDS)[L] & string;
