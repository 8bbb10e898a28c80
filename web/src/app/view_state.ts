// What the reader looks at, beside the session: the tab (a lab, common/state/active_tab.ts) and what the
// probe lab's map is coloured by (labs/probe/state/color_by.ts). The selected query is the session
// store's `selected`. Links carry all three (share_link.ts).
import { activeTab } from '../common/state/active_tab.ts';
import { labNamed, LABS, type LabId } from '../labs/index.ts';
import { COLOR_BY, colorBy } from '../labs/probe/state/color_by.ts';

export { activeTab } from '../common/state/active_tab.ts';
export { COLOR_BY, colorBy, type ColorBy } from '../labs/probe/state/color_by.ts';

/** A tab is a lab of the registry (labs/index.ts). */
export type Tab = LabId;

/** Sets the view from a link's words, ignoring what this build does not know. A tab is named by its
 * lab's id or one of the lab's older names (e.g. "evaluate", the evaluation lab's), so old links open. */
export function showView(tab: string | undefined, color: string | undefined): void {
  const t = labNamed(LABS, tab);
  if (t) activeTab.value = t;
  const c = COLOR_BY.find((x) => x === color);
  if (c) colorBy.value = c;
}
