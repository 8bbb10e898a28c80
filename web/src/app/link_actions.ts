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
import {
  compareLinkState,
  compareDraws,
  compareView,
  conceptChoice,
  openCompareLink,
  record,
  representations,
  runComparison,
  shownConcept,
  sources,
} from '../labs/compare/state/compare_store.ts';
import {
  isUploadedCompare,
  pendingUploadCompare,
  type CompareLink,
  type LinkedCompare,
  type UploadedCompareLink,
} from '../labs/compare/state/compare_link.ts';
import { showView } from './view_state.ts';

/** The files of the Compare lab's uploaded representations, in their order (a file may hold several). */
function uploadedNames(): string[] {
  return [...new Set(representations.value.map((r) => r.source))];
}

/**
 * The Compare lab's state when its representations were uploaded (sources null): the link names their
 * files, for the reader to choose again (issue 36, item 4); it used to drop the comparison silently.
 */
const uploadedCompareState = computed<UploadedCompareLink | undefined>(() => {
  if (sources.value !== null || representations.value.length === 0) return undefined;
  return {
    sources: { kind: 'upload', files: uploadedNames().map((name) => ({ name })) },
    concepts: conceptChoice.value,
    view: compareView.value,
    shown: shownConcept.value,
    run: record.value !== null,
    ...(compareDraws.value !== 20 ? { draws: compareDraws.value } : {}),
  };
});

export const currentLink = computed<LinkState>(() => {
  const compare: LinkedCompare | undefined = compareLinkState.value ?? uploadedCompareState.value;
  return {
    session: session.value,
    drawn: observationsDrawn.value,
    view: { tab: activeTab.value, colorBy: colorBy.value, selected: selected.value },
    // Only when the Compare lab holds representations by URL: other links keep their bytes.
    ...(compare ? { compare } : {}),
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
  // The comparison opens after the session it compares on (its rows, concept and observations). When its
  // representations do not load (a 404, a refused file: reported by the Compare lab), the link was not
  // opened as meant: "failed", so the caller shows the saved session and saves nothing of the link's
  // (issue 40, item 4); an embed shows why instead.
  if (outcome.kind === 'opened' && target.compare && isUploadedCompare(target.compare)) {
    // Uploaded representations cannot travel: the reader is asked for the files (as the Probe tab's
    // upload links do), and the comparison opens once the Compare lab holds them (followUploadCompare).
    pendingUploadCompare.value = target.compare;
    showView('compare', undefined);
    notify(
      'info',
      `This link's comparison was made with ${target.compare.sources.files.map((f) => f.name).join(' + ')}, which this browser does not have: choose those files in the Compare tab and it compares them again.`,
    );
  } else if (outcome.kind === 'opened' && target.compare) {
    const compare = target.compare as CompareLink;
    await openCompareLink(compare);
    const loaded = compareLinkState.value?.sources;
    if (JSON.stringify(loaded) !== JSON.stringify(compare.sources)) {
      const reason =
        "This link was not opened: its comparison's representations did not load (the message above says why)";
      notify('info', `${reason}; the session saved in this browser is shown.`);
      return { kind: 'failed', reason: `${reason}.` };
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
    if (opening.value || !link.session.data || pendingLink.value || pendingUploadCompare.value) return;
    pending = link;
    if (timer === undefined) write();
  });
}

/**
 * Opens a link's comparison on uploaded files once the Compare lab holds representations from files of
 * the names the link gives (in any order): its concepts and view, then the run when the sharer's had run.
 * Other representations loaded instead set the link's comparison aside, saying so.
 */
export function followUploadCompare(): void {
  effect(() => {
    const pending = pendingUploadCompare.value;
    if (!pending || representations.value.length === 0) return;
    const wanted = pending.sources.files.map((f) => f.name).sort();
    const have = uploadedNames().sort();
    pendingUploadCompare.value = null;
    if (sources.value !== null || JSON.stringify(wanted) !== JSON.stringify(have)) {
      // The reader chose other representations: the link's comparison gives way (and the address bar follows again).
      notify(
        'info',
        `The link's comparison waited for ${wanted.join(' + ')}; the Compare tab now holds other representations, so it was set aside.`,
      );
      return;
    }
    void (async () => {
      conceptChoice.value = pending.concepts;
      compareView.value = pending.view;
      compareDraws.value = pending.draws ?? 20;
      if (pending.run) {
        await runComparison();
        shownConcept.value = Math.min(
          pending.shown,
          Math.max(0, (record.value?.run.comparison.concepts.length ?? 1) - 1),
        );
      }
    })().catch(report);
  });
}
