// The Compare lab's link state in the page (the registry's labs/views.ts `link`): the comparison the
// address bar and "Copy link" write, and how a link's comparison opens once its session has.
import { computed, effect } from '@preact/signals';
import { activeTab } from '../../../common/state/active_tab.ts';
import { notify, report } from '../../../common/state/engine_tasks.ts';
import type { LinkActions } from '../../../common/state/link_part.ts';
import {
  isUploadedCompare,
  pendingUploadCompare,
  type CompareLink,
  type LinkedCompare,
  type UploadedCompareLink,
} from './compare_link.ts';
import {
  compareDraws,
  compareLinkState,
  compareView,
  conceptChoice,
  openCompareLink,
  record,
  representations,
  runComparison,
  shownConcept,
  sources,
} from './compare_store.ts';

/** The files of the lab's uploaded representations, in their order (a file may hold several). */
function uploadedNames(): string[] {
  return [...new Set(representations.value.map((r) => r.source))];
}

/**
 * The lab's state when its representations were uploaded (sources null): the link names their files,
 * for the reader to choose again (issue 36, item 4); it used to drop the comparison silently.
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

async function open(link: LinkedCompare): Promise<{ failed?: string }> {
  if (isUploadedCompare(link)) {
    // Uploaded representations cannot travel: the reader is asked for the files (as the Probe tab's
    // upload links do), and the comparison opens once the lab holds them (follow below).
    pendingUploadCompare.value = link;
    activeTab.value = 'compare';
    notify(
      'info',
      `This link's comparison was made with ${link.sources.files.map((f) => f.name).join(' + ')}, which this browser does not have: choose those files in the Compare tab and it compares them again.`,
    );
    return {};
  }
  const compare = link as CompareLink;
  await openCompareLink(compare);
  // When its representations do not load (a 404, a refused file: reported by the lab), the link was not
  // opened as meant (issue 40, item 4).
  const loaded = compareLinkState.value?.sources;
  if (JSON.stringify(loaded) !== JSON.stringify(compare.sources)) {
    const reason =
      "This link was not opened: its comparison's representations did not load (the message above says why)";
    notify('info', `${reason}; the session saved in this browser is shown.`);
    return { failed: `${reason}.` };
  }
  return {};
}

/**
 * Opens a link's comparison on uploaded files once the lab holds representations from files of the
 * names the link gives (in any order): its concepts and view, then the run when the sharer's had run.
 * Other representations loaded instead set the link's comparison aside, saying so.
 */
function follow(): void {
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

export const COMPARE_LINK_ACTIONS: LinkActions<LinkedCompare> = {
  // Representations by URL or the demo travel; uploaded ones are named.
  current: computed(() => compareLinkState.value ?? uploadedCompareState.value),
  open,
  waiting: computed(() => pendingUploadCompare.value !== null),
  start: follow,
};
