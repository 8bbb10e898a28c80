// The registry's links part: for each lab that carries state in links (its words: labs/link_words.ts),
// how that state is read from a hand-typed link and held to the link schema. The shell reads and
// writes every such lab alike (app/link_params.ts, app/share_link.ts); the page part, where the state
// comes from and how a link's opens, is the lab's `link` in labs/views.ts. Page-safe: no store.
import type { LinkPart } from '../common/state/link_part.ts';
import { COMPARE_LINK } from './compare/state/compare_link.ts';
import type { LinkedLab } from './link_words.ts';

export const LAB_LINKS = {
  compare: COMPARE_LINK,
} as const satisfies { readonly [L in LinkedLab]: LinkPart<unknown> };

/** Lab L's state in a link. */
export type LinkStateOf<L extends LinkedLab> = (typeof LAB_LINKS)[L] extends LinkPart<infer S> ? S : never;

/** Every linked lab's state, each under its lab's id (absent: the link carries none of it). */
export type LabLinkStates = { [L in LinkedLab]?: LinkStateOf<L> };

/** The linked labs, in the registry's order. */
export const LINKED_LABS = Object.keys(LAB_LINKS) as LinkedLab[];
