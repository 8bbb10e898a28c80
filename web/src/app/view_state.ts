// What the reader looks at, beside the session: the tab (a lab) and what the map is coloured by. The
// selected query is store.ts's `selected`. Links carry all three (share_link.ts).
import { signal } from '@preact/signals';
import type { ProbeScores } from '../engine/probe/probe_engine.ts';
import { labNamed, LABS, type LabId } from '../labs/index.ts';

/** A tab is a lab of the registry (labs/index.ts). */
export type Tab = LabId;

export type ColorBy = 'concept' | keyof ProbeScores;
export const COLOR_BY: readonly ColorBy[] = [
  'concept',
  'judgedProbability',
  'episteme',
  'alea',
  'knowledge',
  'oodScore',
  'latentMean',
  'latentVariance',
];

export const activeTab = signal<Tab>('probe');
export const colorBy = signal<ColorBy>('judgedProbability');

/** Sets the view from a link's words, ignoring what this build does not know. A tab is named by its
 * lab's id or one of the lab's older names (e.g. "evaluate", the evaluation lab's), so old links open. */
export function showView(tab: string | undefined, color: string | undefined): void {
  const t = labNamed(LABS, tab);
  if (t) activeTab.value = t;
  const c = COLOR_BY.find((x) => x === color);
  if (c) colorBy.value = c;
}
