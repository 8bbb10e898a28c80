// What a lab that carries state in links gives the registry (labs/links.ts, labs/views.ts): how its
// state is read from a hand-typed link and held to the link schema, and, in the page, where its current
// state comes from and how a link's state is opened. The shell (app/link_params.ts, share_link.ts,
// link_actions.ts) handles every such lab alike, so a lab with link state edits no shared file.
import type { ReadonlySignal } from '@preact/signals';
import type { Check, Range } from './session_schema.ts';

/** The shell's reader of hand-typed parameters, given to each lab's `fromParams`. */
export interface ParamsReader {
  /** The word's value as an http(s) URL resolved against the page, or null (a problem is recorded). */
  url(word: string, value: string): string | null;
  /** The number a word holds, held to the word's range (LinkPart.ranges), or undefined (absent, or a problem recorded). */
  number(word: string): number | undefined;
  /** Values the link cannot be opened with: the link is refused whole. */
  problems: string[];
  /** What was read otherwise than written, the link still opening. */
  notes: string[];
}

/** A lab's link state, as the shell reads and checks it (page-safe: no store). */
export interface LinkPart<S> {
  /** The lab's state from a hand-typed link, or undefined when the link carries none of it. */
  fromParams(params: URLSearchParams, read: ParamsReader): S | undefined;
  /** Holds a #s= link's field (named by the lab's id) to the lab's schema; throws a SchemaError. */
  check: Check<S>;
  /** The ranges of the lab's words that hold numbers (checked whether or not the rest of its state is given). */
  ranges: Readonly<Record<string, Range>>;
  /** The views an embed of a link holding the lab's state shows when the link names none. */
  embedViews?: readonly string[];
}

/** A lab's link state in the page: the one the address bar and "Copy link" write, and how a link's opens. */
export interface LinkActions<S> {
  /** The lab's state for the link (undefined: none, so the link's bytes are as without the lab). */
  current: ReadonlySignal<S | undefined>;
  /**
   * Opens a link's state once the session it belongs to has opened. `failed`: what the link asked for
   * could not be had (the lab has said why); the shell then shows the saved session and saves nothing.
   */
  open(state: S): Promise<{ failed?: string }>;
  /** True while the lab waits for files the reader must choose (the address bar keeps the link meanwhile). */
  waiting: ReadonlySignal<boolean>;
  /** Started once with the page (e.g. following the files a link waits for). */
  start?(): void;
}
