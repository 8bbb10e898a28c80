// The link of the current session (share_link.ts): kept in the address bar as the session changes
// (replaceState, so Back is not flooded), copied by "Copy link", and opened at start-up from #s= or
// from hand-typed parameters (link_params.ts). A link opened in a fresh browser computes the probe
// anew on the sorted observations; so that the sharer's numbers are those too, to the last bit,
// "Copy link" first refits a probe that was updated in place.
import { computed, effect, signal } from '@preact/signals';
import { openSession, pendingLink, type OpenOutcome } from './data_actions.ts';
import { notify, report } from '../common/state/engine_tasks.ts';
import { pageOptions, paramsLink, type PageOptions } from './link_params.ts';
import { decodeLink, encodeLink, type LinkState } from './share_link.ts';
import { opening, results, resultsStale, selected, session } from '../common/state/session_store.ts';
import { observationsDrawn, runProbe } from '../labs/probe/state/probe_store.ts';
import { activeTab, colorBy } from './view_state.ts';
import { LINKED_LABS, type LabLinkStates } from '../labs/links.ts';
import type { LinkedLab } from '../labs/link_words.ts';
import { LAB_VIEWS } from '../labs/views.ts';
import type { LinkActions } from '../common/state/link_part.ts';

/** Lab L's link in the page (labs/views.ts). */
const linkOf = (lab: LinkedLab): LinkActions<unknown> => LAB_VIEWS[lab].link as LinkActions<unknown>;

export const currentLink = computed<LinkState>(() => {
  const labs: Record<string, unknown> = {};
  for (const lab of LINKED_LABS) {
    const state = linkOf(lab).current.value;
    // Only labs that hold state: other links keep their bytes.
    if (state !== undefined) labs[lab] = state;
  }
  return {
    session: session.value,
    drawn: observationsDrawn.value,
    view: { tab: activeTab.value, colorBy: colorBy.value, selected: selected.value },
    ...(labs as LabLinkStates),
  };
});

/** The page's own URL without state: its query minus the state parameters (kept: embed, views). */
function pageUrl(options: { embed: boolean; views?: string[] }): URL {
  const url = new URL(location.href);
  url.search = '';
  url.hash = '';
  if (options.embed) {
    url.searchParams.set('embed', '1');
    if (options.views) url.searchParams.set('views', options.views.join(','));
  }
  return url;
}

/** The URL that opens the current session: in the full app, or as an embed showing `views`. */
export function linkUrl(options: { embed: boolean; views?: string[] } = { embed: false }): string {
  const url = pageUrl(options);
  url.hash = encodeLink(currentLink.value);
  return url.href;
}

/** The last link copied, for the page to show (and select) when the clipboard refused it. */
/** `refitted`: the probe was fitted again from its observations for the link (it had been updated one observation at a
 * time), so the scores' last digits may have changed from those shown and exported before. */
export const copiedLink = signal<{ url: string; copied: boolean; refitted: boolean } | null>(null);

export async function copyLink(): Promise<void> {
  try {
    // The reader's page fits the probe from the link's observations; this page does the same first, so that what it
    // shows and exports from now on is what the link opens (rank-one updates round along another path, ~1e-15).
    const refitted = results.value !== null && (resultsStale.value || results.value.update.kind === 'incremental');
    if (refitted) await runProbe(true);
    const url = linkUrl();
    let copied = false;
    try {
      await navigator.clipboard.writeText(url);
      copied = true;
    } catch {
      copied = false; // no clipboard permission: the link is shown to copy by hand
    }
    copiedLink.value = { url, copied, refitted };
  } catch (error) {
    report(error);
  }
}

/**
 * Opens what the page's URL asks for: its #s= state, else its hand-typed parameters. "none" when the URL
 * asks for nothing; "failed" (reported, with the reason) when what it asks for is malformed, names data
 * by a broken URL, or could not be loaded: then nothing of it was applied, and the caller shows what it
 * would have shown without the link (the saved session), so a broken link never replaces the user's
 * work (issue 23, item 5); "pending" when it waits for uploaded files (data_actions.ts, pendingLink).
 */
export async function openFromLocation(): Promise<OpenOutcome | { kind: 'none' }> {
  let target;
  try {
    target = decodeLink(location.hash);
  } catch (error) {
    const reason = `This link was not opened: ${error instanceof Error ? error.message : String(error)}.`;
    notify('error', reason);
    return { kind: 'failed', reason };
  }
  if (!target) {
    const fromParams = paramsLink(new URLSearchParams(location.search), document.baseURI);
    if (!fromParams) return { kind: 'none' };
    // A value out of its range (the engine's: session_schema.ts RANGES), a broken URL or a malformed
    // concept refuses the whole link, before anything of it is applied or saved (issue 35, item 1).
    if (fromParams.problems.length) {
      const reason = `This link was not opened: ${fromParams.problems.join('; ')}.`;
      notify('error', reason);
      return { kind: 'failed', reason };
    }
    if (fromParams.notes.length) notify('info', `This link was read in part: ${fromParams.notes.join('; ')}.`);
    target = fromParams.link;
  }
  const outcome = await openSession(target);
  // Each linked lab's state opens after the session it belongs to (its rows, concept and observations).
  // When what it asks for cannot be had (e.g. representations that do not load: reported by the lab), the
  // link was not opened as meant: "failed", so the caller shows the saved session and saves nothing of the
  // link's (issue 40, item 4); an embed shows why instead.
  if (outcome.kind === 'opened') {
    for (const lab of LINKED_LABS) {
      const state = target[lab];
      if (state === undefined) continue;
      const { failed } = await linkOf(lab).open(state);
      if (failed) return { kind: 'failed', reason: failed };
    }
  }
  return outcome;
}

export function currentPageOptions(): PageOptions {
  return pageOptions(new URLSearchParams(location.search));
}

/**
 * Keeps the address bar's #s= up to date with the session, at once (so a reload right after a change
 * reopens it), from a budget of history updates: Chromium ignores more than 200 in 10 s, which a long
 * slider drag would reach, so past the budget the updates come at its refill rate, the last one always.
 */
export function keepLinkInAddressBar(): void {
  const BUDGET = 100,
    PER_SECOND = 10;
  let tokens = BUDGET,
    refilled = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: LinkState | null = null;
  const write = () => {
    timer = undefined;
    const now = Date.now();
    tokens = Math.min(BUDGET, tokens + ((now - refilled) / 1000) * PER_SECOND);
    refilled = now;
    if (!pending) return;
    if (tokens < 1) {
      timer = setTimeout(write, ((1 - tokens) / PER_SECOND) * 1000);
      return;
    }
    tokens -= 1;
    const url = new URL(location.href);
    url.hash = encodeLink(pending);
    pending = null;
    if (url.href !== location.href) history.replaceState(history.state, '', url.href);
  };
  effect(() => {
    const link = currentLink.value;
    // A link waiting for its uploaded files keeps the address bar (so a reload still asks for them).
    if (
      opening.value ||
      !link.session.data ||
      pendingLink.value ||
      LINKED_LABS.some((lab) => linkOf(lab).waiting.value)
    )
      return;
    pending = link;
    if (timer === undefined) write();
  });
}

/** Starts each linked lab's page work (e.g. following the files a link waits for). */
export function startLabLinks(): void {
  for (const lab of LINKED_LABS) linkOf(lab).start?.();
}
